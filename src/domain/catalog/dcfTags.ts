/**
 * What a data center facility's tags say: off-net (extended), on-net, Edge, a free cross
 * connect, cross-connect bundling, a provider-supplied LOA. The LOA rules (loa.ts) and the DCF
 * views (views/dcf.ts, which words the tags) read them here, so they cannot disagree. Pure.
 *
 * Allowed tag values are not shown by the spec, so tags are matched loosely on their letters
 * ("OFF_NET", "off-net", "offnet" alike).
 */

function normalTag(tag: string): string {
  return tag.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** The string tags of a DCF (anything else in the list is ignored). */
export function tagList(tags: unknown): string[] {
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === "string") : [];
}

/** A known tag in words, or undefined for a tag the bot does not know (shown as it came). */
export function dcfTagWord(tag: string): string | undefined {
  const t = normalTag(tag);
  if (t.includes("offnet") || t.includes("extended")) return "off-net";
  if (t.includes("onnet")) return "on-net";
  if (t.includes("edge")) return "Edge";
  if (t.includes("free") && (t.includes("crossconnect") || t.includes("xc")))
    return "free cross connect";
  if (t.includes("bundl")) return "cross-connect bundling";
  return undefined;
}

/** True when a DCF's tags mark it off-net (extended), where the LOA comes through a partner. */
export function isOffNet(tags: unknown): boolean {
  return tagList(tags).some((t) => dcfTagWord(t) === "off-net");
}

/**
 * True when a tag marks a DCF where the provider supplies the LOA. The spec names this kind of
 * DCF but not its tag; any tag mentioning the LOA is taken as that mark.
 */
export function isProviderSuppliedLoa(tags: unknown): boolean {
  return tagList(tags).some((t) => normalTag(t).includes("loa"));
}
