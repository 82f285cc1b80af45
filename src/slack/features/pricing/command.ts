// `/connect price port` (inline, or the form when arguments are missing) and `/connect price l2`
// (always the form, opened with what the words name). The work is in src/usecases/pricing/;
// what people see is in views/pricing/pricing.ts, views/pricing/pricingModals.ts and views/pricing/pricingReplies.ts.
import type { KnownBlock } from "@slack/types";
import {
  ACTION_ORDER_THIS_PORT,
  encodePortOrderThis,
  withOrderThisButton,
} from "../../../../views/orderThis.js";
import {
  ACTION_PRICE_PICK_DCF,
  portPriceView,
  priceChoicesView,
} from "../../../../views/pricing/pricing.js";
import {
  connectionArgsNote,
  connectionPriceModal,
  incompleteCommandNote,
  type PortPriceModalInput,
  portPriceModal,
  severalDcfsNote,
} from "../../../../views/pricing/pricingModals.js";
import {
  dcfNotReadyReply,
  noDcfMatchReply,
  portArgsProblemReply,
  speedNotOfferedReply,
  withIgnoredNote,
  withNarrowedNote,
} from "../../../../views/pricing/pricingReplies.js";
import { problemReply, type Reply } from "../../../../views/reply.js";
import { dcfRef } from "../../../domain/catalog/dcfs.js";
import { type PortTerm, termText } from "../../../domain/catalog/portTerms.js";
import { withDeadline } from "../../../domain/deadline.js";
import type { Dcf } from "../../../provider/api.js";
import {
  findConnectionEnd,
  parseConnectionPriceArgs,
} from "../../../usecases/pricing/connectionPriceArgs.js";
import { resolveDcf } from "../../../usecases/pricing/dcfResolution.js";
import { type PortQuote, quotePortPrice } from "../../../usecases/pricing/portPrice.js";
import { parsePortPriceArgs } from "../../../usecases/pricing/portPriceArgs.js";
import type { CommandContext, CommandOf, CommandTable } from "../../connect.js";
import type { PricingDeps } from "./index.js";

const USAGE = "Add the data center, speed and term, e.g. `/connect price port AMS 10G 1y`.";

async function openModal(
  ctx: CommandContext,
  deps: PricingDeps,
  view: Parameters<CommandContext["openModal"]>[0],
): Promise<void> {
  // A Share or paging click re-runs a command with a fresh trigger; a modal submission's
  // re-invocation has none, and then a form cannot open: say what to type instead.
  if (!ctx.triggerId) {
    await ctx.reply(problemReply(USAGE));
    return;
  }
  try {
    await ctx.openModal(view);
  } catch (error) {
    deps.logger.warn({ err: error }, "could not open the pricing form");
    await ctx.reply(
      problemReply(
        `Couldn't open the form (Slack refused it); try again, or type it all. ${USAGE}`,
      ),
    );
  }
}

/** How a data center is named in a command line: its username, else its id. */
export function dcfKey(dcf: Dcf): string {
  return dcf.username ?? dcf.id;
}

/** Adds the cross connect choice to the pick buttons (the view's pick value has no field for it). */
function withCrossConnectPicks(reply: Reply): Reply {
  const blocks = reply.blocks.map((block): KnownBlock => {
    if (block.type !== "section" || block.accessory?.type !== "button") return block;
    const button = block.accessory;
    if (button.action_id !== ACTION_PRICE_PICK_DCF || !button.value) return block;
    try {
      const value = JSON.stringify({ ...JSON.parse(button.value), xc: true });
      return { ...block, accessory: { ...button, value } };
    } catch {
      return block;
    }
  });
  return { ...reply, blocks };
}

/** What the person sees for each outcome of an inline price. */
export function portQuoteReply(
  quote: PortQuote,
  asked: { query: string; term: Pick<PortTerm, "value" | "unit"> },
  currency: string,
): Reply {
  switch (quote.kind) {
    case "priced": {
      const priced = portPriceView(
        {
          dcf: { name: quote.dcf.name, username: dcfKey(quote.dcf) },
          speedMbps: quote.speedMbps,
          term: { value: quote.term.value, unit: quote.term.unit },
          includeCrossConnect: quote.includeCrossConnect,
        },
        quote.result,
        currency,
      );
      const reply = withOrderThisButton(
        priced,
        ACTION_ORDER_THIS_PORT,
        encodePortOrderThis({
          dcf: dcfRef(quote.dcf),
          speedMbps: quote.speedMbps,
          term: termText(quote.term),
        }),
      );
      return quote.narrowedFrom !== undefined
        ? withNarrowedNote(reply, asked.query, quote.narrowedFrom, quote.speedMbps)
        : reply;
    }
    case "choices": {
      const reply = priceChoicesView(
        quote.query,
        quote.candidates,
        {
          speedMbps: quote.speedMbps,
          term: { value: quote.term.value, unit: quote.term.unit },
        },
        quote.partial,
      );
      return quote.includeCrossConnect ? withCrossConnectPicks(reply) : reply;
    }
    case "no-match":
      return noDcfMatchReply(quote.query);
    case "speed-not-offered":
      return speedNotOfferedReply(quote.dcf, quote.speedMbps, quote.offered, asked.term);
    case "not-ready":
      return dcfNotReadyReply(quote.dcf);
  }
}

/** `/connect price port [dcf speed term] [xc]` */
export const pricePort: CommandOf<PricingDeps> = async (ctx, deps) => {
  const metadata = { channelId: ctx.channelId };
  if (ctx.args.length === 0) {
    await openModal(ctx, deps, portPriceModal({ metadata }));
    return;
  }
  const args = parsePortPriceArgs(ctx.args);
  if (args.kind === "invalid") {
    await ctx.reply(portArgsProblemReply(args.problem));
    return;
  }
  if (args.kind === "incomplete") {
    const typed = incompleteCommandNote(`price port ${ctx.args.join(" ")}`, args.missing);
    const found = args.dcfQuery
      ? await typedDcf(deps, args.dcfQuery, args.speedMbps)
      : { kind: "none" as const };
    const modal: PortPriceModalInput = {
      metadata: {
        ...metadata,
        ...(args.speedMbps !== undefined ? { speedMbps: args.speedMbps } : {}),
      },
      note:
        found.kind === "several" && args.dcfQuery
          ? `${typed} ${severalDcfsNote(args.dcfQuery, found.count)}`
          : typed,
      includeCrossConnect: args.includeCrossConnect,
      ...(found.kind === "one" ? { chosen: { dcf: found.dcf } } : {}),
      ...(args.speedMbps !== undefined ? { speedMbps: args.speedMbps } : {}),
      ...(args.term ? { term: args.term } : {}),
    };
    await openModal(ctx, deps, portPriceModal(modal));
    return;
  }
  const quote = await quotePortPrice(deps.provider, args);
  await ctx.reply(
    withIgnoredNote(
      portQuoteReply(quote, { query: args.dcfQuery, term: args.term }, deps.currency),
      args.ignored ?? [],
    ),
  );
};

/** How long the form waits for the typed data center: the trigger id lasts 3 seconds. */
const PREFILL_DEADLINE_MS = 1_500;

/**
 * The data center a command line named, found the way an inline price finds it, so the form
 * opens with it chosen. Several, none, slow or failing: the form opens without it.
 */
async function typedDcf(
  deps: PricingDeps,
  query: string,
  speedMbps?: number,
): Promise<{ kind: "one"; dcf: Dcf } | { kind: "several"; count: number } | { kind: "none" }> {
  try {
    const found = await withDeadline(PREFILL_DEADLINE_MS, (signal) =>
      resolveDcf(deps.provider, query, {
        ...(speedMbps !== undefined ? { speedMbps } : {}),
        signal,
      }),
    );
    if (found.kind === "one") return { kind: "one", dcf: found.dcf };
    if (found.kind === "several" && !found.partial) {
      return { kind: "several", count: found.candidates.length };
    }
  } catch (error) {
    deps.logger.warn({ err: error }, "could not look up the typed data center");
  }
  return { kind: "none" };
}

/**
 * `/connect price l2 [<source> [to] <destination> [bandwidth]]` — always the modal, opened with
 * what the words name: both ends found as an inline port price finds a data center.
 */
export const priceL2: CommandOf<PricingDeps> = async (ctx, deps) => {
  const metadata = { channelId: ctx.channelId };
  if (ctx.args.length === 0) {
    await openModal(ctx, deps, connectionPriceModal(metadata));
    return;
  }
  const args = parseConnectionPriceArgs(ctx.args);
  const typed = [
    { side: "Source", query: args.src },
    { side: "Destination", query: args.dest },
  ].filter((end): end is { side: string; query: string } => end.query !== undefined);
  const ends = await Promise.all(
    typed.map(async (end) => {
      try {
        return await withDeadline(PREFILL_DEADLINE_MS, (signal) =>
          findConnectionEnd(deps.provider, end.query, { signal }),
        );
      } catch (error) {
        deps.logger.warn({ err: error }, "could not look up a typed data center");
        return { kind: "none" as const, query: end.query };
      }
    }),
  );
  const [src, dest] = [args.src, args.dest].map((query) => {
    const end = ends.find((e) => e.query === query);
    return end?.kind === "one" ? end.dcf : undefined;
  });
  const note = connectionArgsNote(
    typed.map((end, i) => {
      const found = ends[i];
      return found?.kind === "one"
        ? { ...end, found: { name: found.dcf.name, matched: found.matched } }
        : end;
    }),
    args.unsplit,
  );
  await openModal(
    ctx,
    deps,
    connectionPriceModal(metadata, {
      ...(src ? { src } : {}),
      ...(dest ? { dest } : {}),
      ...(args.bandwidthMbps !== undefined ? { bandwidthMbps: args.bandwidthMbps } : {}),
      ...(note ? { note } : {}),
    }),
  );
};

/** The `/connect` subcommands this feature answers (the table in src/slack/commandTable.ts). */
export const pricingCommands = {
  "price port": pricePort,
  "price l2": priceL2,
} satisfies CommandTable<PricingDeps>;
