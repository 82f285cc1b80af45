/**
 * Internet On-Demand (IO-D) choices the form offers and the use case checks: IPv4 block sizes,
 * "no block", IPv6 off, the ASN choices, name and duration defaults, and the sentence for a port
 * without IO-D. Used by src/usecases/iod/ and views/iod/iodModal.ts. Pure.
 */

import type { components } from "../../provider/generated/provider.js";

type Port = components["schemas"]["Port"];

/** The ASN choices DYNAMIC routing offers (STATIC has none: rule 5 auto-assigns). */
export const IOD_ASN_CHOICES = ["private-requested", "private-auto", "public"] as const;

export type IodAsnChoice = (typeof IOD_ASN_CHOICES)[number];

/** IPv4 block sizes offered (prefix lengths); the spec shows 28. */
export const IPV4_BLOCKS = [24, 25, 26, 27, 28, 29, 30] as const;

export const DEFAULT_IPV4_BLOCK = 28;

/** "No IPv4 block": offered only with a public ASN, whose holder may announce its own prefixes. */
export const IPV4_NONE = "none";

export const IPV6_OFF = "off";

export const SERVICE_NAME_MAX = 100;

export const DEFAULT_DURATION_DAYS = 30;

/** The ASN choices DYNAMIC routing can offer with what the provider gave. */
export function offeredAsnChoices(data: {
  publicAsns?: { ok: boolean; value?: readonly unknown[] };
}) {
  const offered: IodAsnChoice[] = ["private-requested", "private-auto"];
  if (data.publicAsns?.ok && (data.publicAsns.value?.length ?? 0) > 0) offered.push("public");
  return offered;
}

/** "…is not enabled for Internet On-Demand…": the plain sentence for a port without IO-D. */
export function notEnabledText(port: Pick<Port, "name" | "id">): string {
  return `Port ${port.name?.trim() || port.id} is not enabled for Internet On-Demand (IO-D), so an IO-D service can't be ordered on it. Pick another port, or ask the provider to enable IO-D on this one.`;
}

/**
 * How IO-D is billed, in words, for the form, the approval message and its Approve confirmation.
 * The provider's IO-D request carries paymentType "payg" and a term in days, and its API has no
 * IO-D price (docs/provider/provider-api.md): the rate is the account's, shown in the provider's portal.
 */
export function iodBillingText(days?: number): string {
  const term =
    days !== undefined && Number.isSafeInteger(days) && days > 0
      ? `over its ${days.toLocaleString("en-US")}-day term`
      : "over its term in days";
  return `No fixed price: IO-D is billed pay as you go (payg), by use ${term}, at your account's IO-D rate. The provider's API does not give that rate, so it is not shown here: see your account's IO-D pricing in the provider's portal.`;
}
