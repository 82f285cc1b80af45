// The inline price command's answers that are not a price (no such data center, a speed it does
// not offer, not ready, words that cannot be read) and the notes added under a price (why this
// data center among several, which words were ignored).

import { type PortTerm, termText } from "../../src/domain/catalog/portTerms.js";
import { COMMAND } from "../../src/domain/commands.js";
import type { Dcf } from "../../src/provider/api.js";
import type { PortArgsProblem } from "../../src/usecases/pricing/portPriceArgs.js";
import { context, escapeMrkdwn, truncate } from "../blocks.js";
import { code, formatSpeed, formatTerm, textOr } from "../format.js";
import { problemReply, type Reply } from "../reply.js";

const EXAMPLE = `${COMMAND} price port AMS 10G 1y`;

export function noDcfMatchReply(query: string): Reply {
  const q = escapeMrkdwn(query);
  return problemReply(
    `:mag: No data center matches "${q}". Try part of the name, a city, an airport code or a username (\`${COMMAND} dcf ${q}\` searches), e.g. \`${EXAMPLE}\`.`,
  );
}

function dcfLabel(dcf: Dcf): string {
  return `*${textOr(dcf.name, "The data center")}*${dcf.username ? ` (${code(dcf.username)})` : ""}`;
}

/** A speed the DCF does not offer: the valid ones, and the command with one of them. */
export function speedNotOfferedReply(
  dcf: Dcf,
  speedMbps: number,
  offered: readonly number[],
  term: Pick<PortTerm, "value" | "unit">,
): Reply {
  const valid = offered.map(formatSpeed).join(", ");
  const suggestion = offered.includes(10000) ? 10000 : offered[0];
  const retry =
    suggestion !== undefined
      ? ` e.g. \`${escapeMrkdwn(`${COMMAND} price port ${dcf.username ?? dcf.id} ${formatSpeed(suggestion)} ${termText(term)}`)}\``
      : "";
  return problemReply(
    `:warning: ${dcfLabel(dcf)} doesn't offer ${formatSpeed(speedMbps)} ports. Valid speeds there: ${valid}.${retry}`,
  );
}

export function dcfNotReadyReply(dcf: Dcf): Reply {
  return problemReply(
    `:construction: ${dcfLabel(dcf)} is not ready for orders yet, so the provider has no price for it. Find another in the same metro with \`${COMMAND} dcf\`.`,
  );
}

const TERM_HELP =
  "The provider prices a port for a 1-year term (`1y` or `12m`) or month to month (`1m`)";

/** The inline command had something in the speed or term place that cannot be used. */
export function portArgsProblemReply(problem: PortArgsProblem): Reply {
  switch (problem.kind) {
    case "speed":
      return problemReply(
        `:warning: Couldn't read "${escapeMrkdwn(problem.text)}" as a speed. Use e.g. \`10G\`, \`1000\` (Mbps) or \`100M\`: \`${EXAMPLE}\`.`,
      );
    case "term":
      return problemReply(
        problem.value !== undefined && problem.unit !== undefined
          ? `:warning: ${TERM_HELP}; there is no ${formatTerm(problem.value, problem.unit, "adjective")} term. Price \`1y\` and ask the provider about longer commitments.`
          : `:warning: Couldn't read "${escapeMrkdwn(problem.text)}" as a term. ${TERM_HELP}: \`${EXAMPLE}\`.`,
      );
    case "dcf-too-long":
      return problemReply(
        `:warning: That data center text is ${problem.length} characters long; type part of a name, a city or an airport code instead: \`${EXAMPLE}\`.`,
      );
  }
}

/** Adds a line under a price saying why this data center was picked among several. */
export function withNarrowedNote(
  reply: Reply,
  query: string,
  matched: number,
  speedMbps: number,
): Reply {
  const note = context(
    `Only this one of the ${matched} data centers matching "${escapeMrkdwn(query)}" can price ${formatSpeed(speedMbps)}.`,
  );
  const [first, ...rest] = reply.blocks;
  return { ...reply, blocks: first ? [first, note, ...rest] : [note] };
}

/** Adds a line under the answer naming the words of the command that were not used. */
export function withIgnoredNote(reply: Reply, ignored: readonly string[]): Reply {
  if (ignored.length === 0) return reply;
  const words = truncate(ignored.join(" "), 80);
  const note = context(
    `:information_source: Ignored ${code(words)}: the price needs only a data center, a speed and a term.`,
  );
  const [first, ...rest] = reply.blocks;
  return {
    ...reply,
    text: `${reply.text} (ignored: ${escapeMrkdwn(words)})`,
    blocks: first ? [first, note, ...rest] : [note],
  };
}
