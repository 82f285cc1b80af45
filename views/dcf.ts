import type { KnownBlock } from "@slack/types";
import { dcfTagWord, tagList } from "../src/domain/catalog/dcfTags.js";
import { dcfSpeedsMbps } from "../src/domain/catalog/requestFacts.js";
import { COMMAND } from "../src/domain/commands.js";
import type { PageInfo } from "../src/domain/paging.js";
import { isSet } from "../src/domain/timestamps.js";
import type { components } from "../src/provider/generated/provider.js";
import { divider, escapeMrkdwn, header, section } from "./blocks.js";
import { code, DASH, formatSpeed, textOr } from "./format.js";
import { fallbackText, fitBlocks, pageFooter, pageItems } from "./list.js";
import type { Reply } from "./reply.js";

type Schemas = components["schemas"];
type Metro = Schemas["Metro"];
type Address = Schemas["Address"];

/** A DCF record; a use case may embed its metro (the listing itself carries only the metro id). */
export type DcfRecord = Schemas["DataCenterFacility"] & { metro?: Metro };

/** Facilities per page: two blocks each keeps a page far below Slack's 50. */
export const DCF_PAGE_SIZE = 10;
const DCF_MAX_PER_PAGE = 12;

export interface DcfListOptions extends PageInfo {
  /** What the person searched for ("" or undefined for the whole list). */
  query?: string;
  /** Metros to name the facilities' metros by, when the use case has them. */
  metros?: readonly Metro[];
}

function tagWord(tag: string): string {
  return dcfTagWord(tag) ?? escapeMrkdwn(tag);
}

/** A DCF's tags (and its cross-connect bundling flag) in words, without repeats. */
export function dcfFeatures(dcf: DcfRecord): string[] {
  const words = tagList(dcf.tags).map(tagWord);
  if (dcf.dataCenterFacility?.canBundleCrossConnect === true) words.push("cross-connect bundling");
  return [...new Set(words)];
}

function primaryAddress(dcf: DcfRecord): Address | undefined {
  const addresses = dcf.company?.addresses ?? [];
  return (
    addresses.find((a) => a?.primary === true) ??
    addresses.find((a) => a?.registered === true) ??
    addresses[0]
  );
}

/** "Amsterdam, NL" from the facility's primary address, or undefined. */
export function dcfPlace(dcf: DcfRecord): string | undefined {
  const address = primaryAddress(dcf);
  const parts = [address?.city, address?.country].filter(
    (p): p is string => typeof p === "string" && p.trim() !== "",
  );
  return parts.length > 0 ? escapeMrkdwn(parts.join(", ")) : undefined;
}

/** "Amsterdam (AMS)" when the metro is known, else its id as code. */
export function metroLabel(
  metro: Pick<Metro, "name" | "code"> | undefined,
  metroId?: string | null,
): string {
  if (metro?.name || metro?.code) {
    const name = metro.name ? escapeMrkdwn(metro.name) : undefined;
    const metroCode = metro.code ? escapeMrkdwn(metro.code) : undefined;
    return name && metroCode ? `${name} (${metroCode})` : (name ?? metroCode ?? DASH);
  }
  return metroId ? code(metroId) : DASH;
}

/** The DCF's valid speeds as "1G, 10G, 100G" (element shape not shown by the spec). */
export function dcfSpeeds(dcf: DcfRecord): string {
  const speeds = dcf.dataCenterFacility?.speeds;
  const mbps = Array.isArray(speeds) ? dcfSpeedsMbps(speeds) : [];
  return mbps.length > 0 ? mbps.map(formatSpeed).join(", ") : DASH;
}

function readiness(ready: boolean | undefined): string | undefined {
  if (ready === true) return ":white_check_mark: ready";
  if (ready === false) return ":construction: not ready yet";
  return undefined;
}

function dcfMetro(dcf: DcfRecord, metros: readonly Metro[] | undefined): string {
  const metroId = dcf.dataCenterFacility?.metroId ?? dcf.metro?.id;
  const metro = dcf.metro ?? metros?.find((m) => m.id === metroId);
  return metroLabel(metro, metroId);
}

/** One facility as a compact mrkdwn paragraph. */
export function dcfSummary(dcf: DcfRecord, metros?: readonly Metro[]): string {
  const title = [`*${textOr(dcf.name, "Unnamed data center")}*`, dcfPlace(dcf)]
    .filter(Boolean)
    .join("  ·  ");
  const details = dcf.dataCenterFacility;
  const lines = [
    [title, readiness(details?.ready)].filter(Boolean).join("  ·  "),
    `Metro: ${dcfMetro(dcf, metros)}  ·  Speeds: ${dcfSpeeds(dcf)}`,
  ];
  const features = dcfFeatures(dcf);
  if (features.length > 0) lines.push(features.join(" · "));
  if (isSet(dcf.deletedAt)) lines.push(":wastebasket: deleted");
  lines.push(
    `Username ${dcf.username ? code(dcf.username) : DASH}  ·  ID ${dcf.id ? code(dcf.id) : DASH}`,
  );
  return lines.join("\n");
}

/** `/connect dcf [text]`: the facilities matching the text, one page. */
export function dcfListView(dcfs: readonly DcfRecord[], options: DcfListOptions): Reply {
  const query = options.query?.trim() ?? "";
  const quoted = `"${escapeMrkdwn(query)}"`;
  const { shown, hasNext, first, index } = pageItems(dcfs, options, DCF_MAX_PER_PAGE);
  const page = { index, hasNext };

  if (shown.length === 0) {
    const text =
      index > 0
        ? `No more data centers${query ? ` match ${quoted}` : ""}.`
        : query
          ? `No data center matches ${quoted}.`
          : "No data centers found.";
    const hint = query
      ? `Try part of the name, a city or an airport code (e.g. \`${COMMAND} dcf amsterdam\` or \`${COMMAND} dcf AMS\`), or \`${COMMAND} dcf\` for every facility.`
      : `Try again later, or search by name, city or airport code: \`${COMMAND} dcf amsterdam\`.`;
    return { text, blocks: [section(`:mag: ${text}\n${hint}`)], page };
  }

  const blocks: KnownBlock[] = [
    header(query ? `Data centers matching "${query}"` : "Data centers"),
  ];
  for (const dcf of shown) {
    blocks.push(section(dcfSummary(dcf, options.metros)));
    blocks.push(divider());
  }
  blocks.pop();
  blocks.push(
    pageFooter(
      first,
      shown.length,
      options.total,
      `Price one with \`${COMMAND} price port ${escapeMrkdwn("<username> <speed> <term>")}\`, e.g. \`${COMMAND} price port ${escapeMrkdwn(shown[0]?.username ?? "AMS1")} 10G 12m\``,
    ),
  );
  const names = shown.map((d) => d.name ?? d.username ?? d.id).join(", ");
  return {
    text: fallbackText(`${query ? `Data centers matching "${query}"` : "Data centers"}: ${names}`),
    blocks: fitBlocks(blocks),
    page,
  };
}
