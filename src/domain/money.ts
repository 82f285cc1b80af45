/**
 * Money as the bot shows it: an amount followed by its ISO 4217 currency code, "1,200.00 USD".
 * The one home of amount formatting: every view, every approval summary and every price text
 * asks this module, so amounts read the same everywhere.
 *
 * The provider returns no currency (amounts are in the account's currency, docs/provider/provider-notes.md),
 * and the API has no call that tells the account's currency, so the bot shows the configured
 * `PRICE_CURRENCY` (default `USD`, the currency of the provider's public samples) as a code: a
 * symbol would be a guess ("$" is also the Australian, Canadian and Singapore dollar).
 * Pure; imports nothing.
 */

/** The currency when `PRICE_CURRENCY` is not set. */
export const DEFAULT_CURRENCY = "USD";

/** The ISO 4217 codes this runtime knows (Node's ICU list), upper case. */
const KNOWN_CODES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));

/** True for an ISO 4217 currency code, upper case: "USD", "EUR", "JPY". */
export function isCurrencyCode(text: unknown): text is string {
  return typeof text === "string" && /^[A-Z]{3}$/.test(text) && KNOWN_CODES.has(text);
}

const formatters = new Map<string, Intl.NumberFormat>();

/** Digits after the point the currency uses (2 for USD, 0 for JPY); 2 for an unknown code. */
function formatterFor(currency: string): Intl.NumberFormat {
  let formatter = formatters.get(currency);
  if (!formatter) {
    const digits = isCurrencyCode(currency)
      ? new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions()
          .maximumFractionDigits
      : 2;
    formatter = new Intl.NumberFormat("en-US", {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formatters.set(currency, formatter);
  }
  return formatter;
}

/**
 * "1,234.50 USD". `amount` may be anything the provider sent: a value that is not a finite
 * number gives undefined, so the caller says what a missing amount reads as. A currency that is
 * not a code (a provider's Edge offer may carry any text) is shown as it came, after the amount;
 * callers that put it in mrkdwn escape it like any provider text.
 */
export function formatMoney(amount: unknown, currency: string): string | undefined {
  if (typeof amount !== "number" || !Number.isFinite(amount)) return undefined;
  return `${formatterFor(currency).format(amount)} ${currency}`;
}
