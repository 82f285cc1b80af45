// How IO-D is billed, in words: its own module with no imports, since both the IO-D form (views)
// and the IO-D flow (which views/iodModal.ts imports) use it.

/**
 * How IO-D is billed, in words, for the form, the approval message and its Approve confirmation.
 * The provider's IO-D request carries paymentType "payg" and a term in days, and its API has no
 * IO-D price (provider-api.md): the rate is the account's, shown in the provider's portal.
 */
export function iodBillingText(days?: number): string {
  const term =
    days !== undefined && Number.isSafeInteger(days) && days > 0
      ? `over its ${days.toLocaleString("en-US")}-day term`
      : "over its term in days";
  return `No fixed price: IO-D is billed pay as you go (payg), by use ${term}, at your account's IO-D rate. The provider's API does not give that rate, so it is not shown here: see your account's IO-D pricing in the provider's portal.`;
}
