import type { KnownBlock } from "@slack/types";
import type { PageInfo } from "../../src/domain/paging.js";
import type { MetroCapability } from "../../src/provider/api.js";
import { escapeMrkdwn, header, section } from "../blocks.js";
import { code } from "../format.js";
import { fallbackText, fitBlocks, linesWithin, pageFooter, pageItems } from "../list.js";
import type { Reply } from "../reply.js";

/** Metros per page: one line each. */
export const METRO_PAGE_SIZE = 25;
const METRO_MAX_PER_PAGE = 50;

/** What can be ordered in a metro, in words: only what the provider's capabilities say. */
function capabilityWords(metro: MetroCapability): string {
  const regions = Array.isArray(metro.regionIds) ? metro.regionIds.length : 0;
  if (metro.capabilities?.layer2 === true) {
    const named = regions === 1 ? "1 region" : `${regions} regions`;
    return `:large_green_circle: layer 2 business-to-business (${named})`;
  }
  if (metro.capabilities?.layer2 === false) return ":white_circle: no layer 2 business-to-business";
  return ":grey_question: layer 2 business-to-business not stated";
}

function metroLine(metro: MetroCapability): string {
  const name = `*${escapeMrkdwn(metro.name ?? metro.id)}*`;
  const where = [metro.code, metro.country]
    .filter((v): v is string => typeof v === "string" && v.length > 0)
    .map((v) => escapeMrkdwn(v))
    .join(", ");
  return [where ? `${name} (${where})` : name, capabilityWords(metro), `ID ${code(metro.id)}`].join(
    " · ",
  );
}

/** `/connect metros [text]`: the company's metros and what can be ordered there, one page. */
export function metrosView(
  metros: readonly MetroCapability[],
  page: PageInfo,
  query: string,
): Reply {
  const { shown, hasNext, first, index } = pageItems(metros, page, METRO_MAX_PER_PAGE);
  const pageRef = { index, hasNext };
  if (shown.length === 0) {
    const text =
      index > 0
        ? "No more metros."
        : query
          ? `No metro matches "${escapeMrkdwn(query)}": try a city, a metro code (e.g. AMS) or a country code, or \`/connect metros\` for all.`
          : "Your company can see no metros.";
    return { text, blocks: [section(text)], page: pageRef };
  }
  const title = query ? `Metros matching "${query}"` : "Metros";
  const blocks: KnownBlock[] = [
    header(title),
    section(linesWithin(shown.map(metroLine))),
    pageFooter(
      first,
      shown.length,
      page.total,
      "A layer 2 connection to another company is ordered with `/connect l2`.",
    ),
  ];
  return {
    text: fallbackText(`${title}: ${shown.map((m) => m.name ?? m.id).join(", ")}`),
    blocks: fitBlocks(blocks),
    page: pageRef,
  };
}
