import type { KnownBlock } from "@slack/types";
import { isPrivateAsn } from "../../src/domain/catalog/requestFacts.js";
import { COMMAND } from "../../src/domain/commands.js";
import { isSet } from "../../src/domain/timestamps.js";
import type { components } from "../../src/provider/generated/provider.js";
import { context, divider, header, section } from "../blocks.js";
import { code, statusBadge } from "../format.js";
import { fallbackText, fitBlocks, linesWithin } from "../list.js";
import type { Reply } from "../reply.js";

type Schemas = components["schemas"];
type Asn = Schemas["Asn"];
type PrivateAsnSuggestion = Schemas["PrivateAsnSuggestion"];

function prefixes(list: unknown): string[] {
  return Array.isArray(list) ? list.filter((p): p is string => typeof p === "string") : [];
}

/**
 * "4 prefixes configured (3 IPv4, 1 IPv6)". A prefix is counted once even when both the
 * registry check (IPC) and the service layer (SL) list it.
 */
export function prefixCount(asn: Asn): string {
  const v4 = new Set([
    ...prefixes(asn.ipPrefixConfiguredInIPCV4),
    ...prefixes(asn.ipPrefixConfiguredInSLV4),
  ]);
  const v6 = new Set([
    ...prefixes(asn.ipPrefixConfiguredInIPCV6),
    ...prefixes(asn.ipPrefixConfiguredInSLV6),
  ]);
  const total = v4.size + v6.size;
  const noun = total === 1 ? "prefix" : "prefixes";
  return total === 0
    ? "no prefixes configured"
    : `${total} ${noun} configured (${v4.size} IPv4, ${v6.size} IPv6)`;
}

function kind(asn: Asn): string | undefined {
  if (asn.private === true) return "private";
  if (asn.private === false) return "public";
  const number = Number(asn.asn);
  return Number.isSafeInteger(number) && number > 0
    ? isPrivateAsn(number)
      ? "private"
      : "public"
    : undefined;
}

function asnLine(asn: Asn): string {
  const number = asn.asn ? code(`AS${asn.asn.replace(/^as/i, "")}`) : "`AS?`";
  const parts = [
    `• ${number}`,
    asn.asSet ? `AS-SET ${code(asn.asSet)}` : "no AS-SET",
    kind(asn),
    statusBadge(asn.status),
    prefixCount(asn),
  ];
  if (isSet(asn.deallocatedAt)) parts.push(":wastebasket: deallocated");
  if (isSet(asn.deleted_at)) parts.push(":wastebasket: deleted");
  return `${parts.filter(Boolean).join(" · ")}\n      record ${code(asn.id)}`;
}

/** `/connect asn`: the suggested private ASN and the company's verified ASNs. */
export function asnView(
  suggestion: PrivateAsnSuggestion | undefined,
  verifiedAsns: readonly Asn[],
): Reply {
  const suggested =
    suggestion && typeof suggestion.asn === "number"
      ? `*Suggested private ASN:* ${code(String(suggestion.asn))} — use it for an IO-D service with a private ASN (\`${COMMAND} iod\`).`
      : "*Suggested private ASN:* unknown (the suggestion call failed); try again in a minute.";
  const blocks: KnownBlock[] = [header("ASNs"), section(suggested), divider()];
  if (verifiedAsns.length === 0) {
    blocks.push(
      section(
        "*Verified ASNs:* none. To add a public ASN, ask the provider's support team, giving the ASN.",
      ),
    );
  } else {
    blocks.push(
      section(
        `*Verified ASNs (${verifiedAsns.length})*\n${linesWithin(verifiedAsns.map(asnLine), 2900)}`,
      ),
    );
    blocks.push(
      context(
        "Prefixes advertised through BGP must be registered and signed under your ASN in the Internet routing registry.",
      ),
    );
  }
  const list = verifiedAsns.map((a) => `AS${a.asn ?? "?"}`).join(", ");
  return {
    text: fallbackText(
      `Suggested private ASN: ${suggestion?.asn ?? "unknown"}. Verified ASNs: ${list || "none"}`,
    ),
    blocks: fitBlocks(blocks),
  };
}
