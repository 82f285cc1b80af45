// Slack glue for pricing: `/connect price port` (inline, or a modal when arguments are missing),
// `/connect price l2` (modal), the data center options loads, the modal's "data center changed"
// update, the ambiguous-DCF pick buttons and the modal submissions. The work is in
// src/usecases/pricing.ts; what people see is in views/pricing.ts and views/pricingModals.ts.

import type {
  BlockAction,
  ButtonAction,
  ExternalSelectAction,
  RespondFn,
  ViewOutput,
} from "@slack/bolt";
import type { KnownBlock } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { capBlocks, labelledModal, withSandboxLabel } from "../../../views/blocks.js";
import { describeFailure } from "../../../views/failures.js";
import {
  ACTION_ORDER_THIS_L2,
  ACTION_ORDER_THIS_PORT,
  encodeLayer2OrderThis,
  encodePortOrderThis,
  withOrderThisButton,
} from "../../../views/orderThis.js";
import {
  ACTION_PRICE_PICK_DCF,
  connectionPriceView,
  parsePricePick,
  portPriceView,
  priceChoicesView,
} from "../../../views/pricing.js";
import {
  CROSS_CONNECT_VALUE,
  connectionArgsNote,
  connectionPriceModal,
  dcfNotReadyReply,
  dcfSuggestionOptions,
  incompleteCommandNote,
  L2_PRICE_ACTIONS,
  L2_PRICE_BLOCKS,
  noDcfMatchReply,
  PORT_PRICE_ACTIONS,
  PORT_PRICE_BLOCKS,
  type PortPriceModalInput,
  PRICE_L2_VIEW,
  PRICE_PORT_NOTE_BLOCK,
  PRICE_PORT_VIEW,
  parseMetadata,
  portArgsProblemReply,
  portPriceModal,
  severalDcfsNote,
  speedNotOfferedReply,
  withIgnoredNote,
  withNarrowedNote,
} from "../../../views/pricingModals.js";
import { problemReply, type Reply } from "../../../views/reply.js";
import { newRequestId, withRequestId } from "../../context.js";
import { COMMANDS, commandName } from "../../domain/commands.js";
import type { Dcf } from "../../provider/api.js";
import { ProviderError } from "../../provider/errors.js";
import type { Services } from "../../services.js";
import { findConnectionEnd, parseConnectionPriceArgs } from "../../usecases/connectionPriceArgs.js";
import {
  type ConnectionPriceForm,
  checkConnectionPriceForm,
  checkPortPriceForm,
  DcfDirectory,
  dcfRef,
  type PortPriceForm,
  type PortQuote,
  type PortTerm,
  parseDcfRef,
  parsePortPriceArgs,
  portPriceCommandText,
  priceConnection,
  quotePortPrice,
  readPortTerm,
  resolveDcf,
  suggestDcfs,
  termText,
} from "../../usecases/pricing.js";
import { withDeadline } from "../../usecases/shared/deadline.js";
import {
  type CommandContext,
  type CommandHandler,
  type CommandHandlers,
  createConnectRouter,
  type Outcome,
} from "../connect.js";
import {
  acknowledgeEnterIn,
  blockErrors,
  checkboxTicked,
  recordCommand,
  selectedValue,
  tellPrivately,
  typedValue,
  type Where,
} from "../kit/index.js";
import type { ListenerRegistry } from "../listenerTable.js";
import { notYetAvailable } from "./notYetAvailable.js";

// ---------------------------------------------------------------------------------------------
// Commands

const USAGE = "Add the data center, speed and term, e.g. `/connect price port AMS 10G 1y`.";

async function openModal(
  ctx: CommandContext,
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
    ctx.services.logger.warn({ err: error }, "could not open the pricing form");
    await ctx.reply(
      problemReply(
        `Couldn't open the form (Slack refused it); try again, or type it all. ${USAGE}`,
      ),
    );
  }
}

function dcfKey(dcf: Dcf): string {
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
export const pricePort: CommandHandler = async (ctx) => {
  const metadata = { channelId: ctx.channelId };
  if (ctx.args.length === 0) {
    await openModal(ctx, portPriceModal({ metadata }));
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
      ? await typedDcf(ctx, args.dcfQuery, args.speedMbps)
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
    await openModal(ctx, portPriceModal(modal));
    return;
  }
  const quote = await quotePortPrice(ctx.services.provider, args);
  await ctx.reply(
    withIgnoredNote(
      portQuoteReply(quote, { query: args.dcfQuery, term: args.term }, ctx.services.currency),
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
  ctx: CommandContext,
  query: string,
  speedMbps?: number,
): Promise<{ kind: "one"; dcf: Dcf } | { kind: "several"; count: number } | { kind: "none" }> {
  try {
    const found = await withDeadline(PREFILL_DEADLINE_MS, (signal) =>
      resolveDcf(ctx.services.provider, query, {
        ...(speedMbps !== undefined ? { speedMbps } : {}),
        signal,
      }),
    );
    if (found.kind === "one") return { kind: "one", dcf: found.dcf };
    if (found.kind === "several" && !found.partial) {
      return { kind: "several", count: found.candidates.length };
    }
  } catch (error) {
    ctx.services.logger.warn({ err: error }, "could not look up the typed data center");
  }
  return { kind: "none" };
}

/**
 * `/connect price l2 [<source> [to] <destination> [bandwidth]]` — always the modal, opened with
 * what the words name: both ends found as an inline port price finds a data center.
 */
export const priceL2: CommandHandler = async (ctx) => {
  const metadata = { channelId: ctx.channelId };
  if (ctx.args.length === 0) {
    await openModal(ctx, connectionPriceModal(metadata));
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
          findConnectionEnd(ctx.services.provider, end.query, { signal }),
        );
      } catch (error) {
        ctx.services.logger.warn({ err: error }, "could not look up a typed data center");
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
    connectionPriceModal(metadata, {
      ...(src ? { src } : {}),
      ...(dest ? { dest } : {}),
      ...(args.bandwidthMbps !== undefined ? { bandwidthMbps: args.bandwidthMbps } : {}),
      ...(note ? { note } : {}),
    }),
  );
};

// ---------------------------------------------------------------------------------------------
// Reading a modal's state (whatever arrived: a forged payload is no different from a real one)

type StateValues = ViewOutput["state"]["values"];

function crossConnectTicked(values: unknown): unknown {
  return checkboxTicked(
    values,
    PORT_PRICE_BLOCKS.includeCrossConnect,
    PORT_PRICE_ACTIONS.includeCrossConnect,
    CROSS_CONNECT_VALUE,
  );
}

export function readPortPriceForm(values: StateValues | unknown): PortPriceForm {
  return {
    dcf: selectedValue(values, PORT_PRICE_BLOCKS.dcf, PORT_PRICE_ACTIONS.dcf),
    speed: selectedValue(values, PORT_PRICE_BLOCKS.speed, PORT_PRICE_ACTIONS.speed),
    term: selectedValue(values, PORT_PRICE_BLOCKS.term, PORT_PRICE_ACTIONS.term),
    includeCrossConnect: crossConnectTicked(values),
  };
}

export function readConnectionPriceForm(values: StateValues | unknown): ConnectionPriceForm {
  return {
    srcDcf: selectedValue(values, L2_PRICE_BLOCKS.srcDcf, L2_PRICE_ACTIONS.srcDcf),
    destDcf: selectedValue(values, L2_PRICE_BLOCKS.destDcf, L2_PRICE_ACTIONS.destDcf),
    bandwidth: typedValue(values, L2_PRICE_BLOCKS.bandwidth, L2_PRICE_ACTIONS.bandwidth),
    classOfService: selectedValue(
      values,
      L2_PRICE_BLOCKS.classOfService,
      L2_PRICE_ACTIONS.classOfService,
    ),
    duration: typedValue(values, L2_PRICE_BLOCKS.duration, L2_PRICE_ACTIONS.duration),
    durationUnit: selectedValue(
      values,
      L2_PRICE_BLOCKS.durationUnit,
      L2_PRICE_ACTIONS.durationUnit,
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Answering a layer 2 price form before it closes

/** Slack waits 3 s for a submission's answer: what is not known by then is answered after. */
const L2_PRICE_ANSWER_BY_MS = 2_500;

/** The provider refused what was asked (not our credentials, not its load): the person's to fix. */
function isRefusal(error: unknown): error is ProviderError {
  return (
    error instanceof ProviderError &&
    error.kind === "http" &&
    error.httpStatus !== undefined &&
    error.httpStatus >= 400 &&
    error.httpStatus < 500 &&
    ![401, 403, 408, 429].includes(error.httpStatus)
  );
}

/** The promise's value if it settles within `ms`, else undefined (it keeps running). */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// Answering privately after a modal (which has no response_url)

/** A RespondFn for the router that answers with tellPrivately. */
function privateResponder(
  client: WebClient,
  where: Where,
  services: Pick<Services, "logger" | "sandbox">,
): RespondFn {
  return async (message) => {
    const m = typeof message === "string" ? { text: message } : message;
    const blocks = "blocks" in m && Array.isArray(m.blocks) ? (m.blocks as unknown[]) : undefined;
    await tellPrivately(client, services, where, {
      text: m.text ?? "",
      ...(blocks ? { blocks: blocks as KnownBlock[] } : {}),
    });
    return new Response(null, { status: 200 });
  };
}

// ---------------------------------------------------------------------------------------------
// Listeners

/**
 * A router that runs the pricing commands. The modal and the pick buttons re-invoke the inline
 * command ("prompt, then re-invoke"), so the answer, its Share button, the sandbox label, the
 * failure messages and the audit line are the same as typing it. The full handler table lives
 * in commands/index.ts, which imports this module; importing it back would be a cycle.
 */
function pricingRouter(services: Services) {
  const handlers = Object.fromEntries(
    COMMANDS.map((spec) => [commandName(spec), notYetAvailable]),
  ) as CommandHandlers;
  handlers["price port"] = pricePort;
  handlers["price l2"] = priceL2;
  return createConnectRouter(handlers, services);
}

/** Listeners (modal submissions, options loads, buttons) that belong to pricing. */
export function registerPricingListeners(app: ListenerRegistry, services: Services): void {
  const directory = new DcfDirectory(services.provider);
  const router = pricingRouter(services);
  const { logger } = services;

  // Options loads: bounded so Slack's 3 seconds are never missed (a hint option instead).
  for (const actionId of [
    PORT_PRICE_ACTIONS.dcf,
    L2_PRICE_ACTIONS.srcDcf,
    L2_PRICE_ACTIONS.destDcf,
  ]) {
    app.options(actionId, async ({ ack, payload }) => {
      const typed = typeof payload.value === "string" ? payload.value : "";
      const suggestions = await suggestDcfs(directory, typed);
      if (suggestions.kind === "timeout" || suggestions.kind === "failed") {
        logger.warn({ suggestions: suggestions.kind }, "data center options load had no answer");
      }
      await ack({ options: dcfSuggestionOptions(suggestions, typed) });
    });
  }

  acknowledgeEnterIn(app, [L2_PRICE_ACTIONS.bandwidth, L2_PRICE_ACTIONS.duration]);

  // The data center changed: show that DCF's speeds, and only those.
  app.action<BlockAction<ExternalSelectAction>>(
    PORT_PRICE_ACTIONS.dcf,
    async ({ ack, body, action, client }) => {
      await ack();
      const view = body.view;
      if (!view) return;
      const metadata = parseMetadata(view.private_metadata);
      const current = readPortPriceForm(view.state?.values);
      const id = parseDcfRef(action.selected_option?.value);
      let chosen: PortPriceModalInput["chosen"];
      if (action.selected_option && !id) {
        chosen = { problem: "Pick a data center from the list (type part of its name)" };
      } else if (id) {
        try {
          const dcf = await directory.byId(id);
          chosen = dcf
            ? { dcf }
            : { problem: "That data center is no longer listed; pick another" };
        } catch (error) {
          logger.warn({ err: error }, "could not load the chosen data center");
          chosen = {
            problem: `Couldn't load its speeds: ${error instanceof ProviderError ? error.userMessage : "try again"}`,
          };
        }
      }
      const term = typeof current.term === "string" ? readPortTerm(current.term) : undefined;
      const speed = typeof current.speed === "string" ? Number(current.speed) : undefined;
      const note = view.blocks.find(
        (b) => (b as { block_id?: string }).block_id === PRICE_PORT_NOTE_BLOCK,
      ) as { text?: { text?: unknown } } | undefined;
      try {
        await client.views.update({
          view_id: view.id,
          hash: view.hash,
          view: labelledModal(
            portPriceModal({
              metadata,
              ...(chosen ? { chosen } : {}),
              ...(typeof note?.text?.text === "string" ? { note: note.text.text } : {}),
              ...(term?.kind === "term" ? { term: term.term } : {}),
              includeCrossConnect: current.includeCrossConnect === true,
              // Keep the person's speed when the new DCF offers it; else the command's.
              ...(speed !== undefined && Number.isSafeInteger(speed)
                ? { speedMbps: speed }
                : metadata.speedMbps !== undefined
                  ? { speedMbps: metadata.speedMbps }
                  : {}),
            }),
            services.sandbox,
          ),
        });
      } catch (error) {
        // hash_conflict: a newer change already updated the modal; that one wins.
        logger.warn({ err: error }, "could not update the port price form");
      }
    },
  );

  // A data center picked among several for an inline price: price it there.
  app.action<BlockAction<ButtonAction>>(
    ACTION_PRICE_PICK_DCF,
    async ({ ack, body, action, respond, client }) => {
      await ack();
      const pick = parsePricePick(action.value);
      if (!pick) return;
      let crossConnect = false;
      try {
        crossConnect = (JSON.parse(action.value ?? "{}") as { xc?: unknown }).xc === true;
      } catch {
        // parsePricePick already accepted it as JSON
      }
      const term = readPortTerm(`${pick.term.value}${pick.term.unit}`);
      if (term?.kind !== "term") return;
      await withRequestId(newRequestId(), () =>
        router.run({
          text: portPriceCommandText({
            dcf: pick.dcf,
            speedMbps: pick.speed,
            term: term.term,
            includeCrossConnect: crossConnect,
          }),
          page: 0,
          userId: body.user.id,
          channelId: body.channel?.id ?? body.container?.channel_id ?? "",
          triggerId: body.trigger_id,
          respond,
          client,
          mode: "replace",
        }),
      );
    },
  );

  app.view(PRICE_PORT_VIEW, async ({ ack, body, view, client }) => {
    let check: Awaited<ReturnType<typeof checkPortPriceForm>>;
    try {
      check = await checkPortPriceForm(directory, readPortPriceForm(view.state?.values));
    } catch (error) {
      logger.error({ err: error }, "port price form check failed");
      check = { ok: false, errors: { dcf: "Something went wrong on our side; submit again" } };
    }
    if (!check.ok) {
      await ack({
        response_action: "errors",
        errors: blockErrors(check.errors, PORT_PRICE_BLOCKS, view, "dcf"),
      });
      return;
    }
    await ack();
    const { dcf, speedMbps, term, includeCrossConnect } = check.value;
    const where = {
      channelId: parseMetadata(view.private_metadata).channelId,
      userId: body.user.id,
    };
    await withRequestId(newRequestId(), () =>
      router.run({
        text: portPriceCommandText({ dcf: dcfKey(dcf), speedMbps, term, includeCrossConnect }),
        page: 0,
        userId: body.user.id,
        channelId: where.channelId ?? "",
        respond: privateResponder(client, where, services),
        client,
        mode: "ephemeral",
      }),
    );
  });

  app.view(PRICE_L2_VIEW, async ({ ack, body, view, client }) => {
    const started = Date.now();
    let check: Awaited<ReturnType<typeof checkConnectionPriceForm>>;
    try {
      check = await checkConnectionPriceForm(
        directory,
        readConnectionPriceForm(view.state?.values),
      );
    } catch (error) {
      logger.error({ err: error }, "layer 2 price form check failed");
      check = { ok: false, errors: { srcDcf: "Something went wrong on our side; submit again" } };
    }
    if (!check.ok) {
      await ack({
        response_action: "errors",
        errors: blockErrors(check.errors, L2_PRICE_BLOCKS, view, "srcDcf"),
      });
      return;
    }
    const { srcDcf, destDcf, config } = check.value;
    // Priced before the answer when it comes in time, so a connection the provider refuses
    // (no layer 2 in that metro) is said next to the data center and the form stays open.
    const pricing = priceConnection(services.provider, config).then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const early = await settledWithin(
      pricing,
      Math.max(0, L2_PRICE_ANSWER_BY_MS - (Date.now() - started)),
    );
    if (early && !early.ok && isRefusal(early.error)) {
      const provider = early.error.userMessage;
      // The provider's words name the data center it refuses; else the source's field.
      const field =
        destDcf.name && provider.includes(destDcf.name) && !provider.includes(srcDcf.name ?? "")
          ? "destDcf"
          : "srcDcf";
      await ack({
        response_action: "errors",
        errors: blockErrors(
          { [field]: `The provider can't price this connection: ${provider}` },
          L2_PRICE_BLOCKS,
          view,
          "srcDcf",
        ),
      });
      recordCommand(services, {
        command: "price l2",
        userId: body.user.id,
        outcome: "failed",
        via: "modal",
      });
      return;
    }
    await ack();
    const where = {
      channelId: parseMetadata(view.private_metadata).channelId,
      userId: body.user.id,
    };
    await withRequestId(newRequestId(), async () => {
      let outcome: Outcome = "succeeded";
      let message: { text: string; blocks?: KnownBlock[] };
      try {
        const priced = await pricing;
        if (!priced.ok) throw priced.error;
        const result = priced.result;
        const answer = connectionPriceView(
          {
            srcDcf: { name: srcDcf.name, username: dcfKey(srcDcf) },
            destDcf: { name: destDcf.name, username: dcfKey(destDcf) },
            bandwidthMbps: config.bandwidth,
            classOfService: config.classOfService,
            term: config.duration,
          },
          result,
          services.currency,
        );
        const reply = withOrderThisButton(
          answer,
          ACTION_ORDER_THIS_L2,
          encodeLayer2OrderThis({
            srcDcfId: srcDcf.id,
            destDcfId: destDcf.id,
            bandwidthMbps: config.bandwidth,
            classOfService: config.classOfService,
            duration: config.duration,
          }),
        );
        message = {
          text: reply.text,
          blocks: capBlocks(withSandboxLabel(reply.blocks, services.sandbox)),
        };
      } catch (error) {
        outcome = error instanceof ProviderError ? "failed" : "errored";
        (outcome === "failed" ? logger.warn : logger.error).call(
          logger,
          { err: error, command: "price l2" },
          "command failed",
        );
        message = { text: describeFailure(error) };
      }
      try {
        await tellPrivately(client, services, where, message);
      } catch (error) {
        outcome = "errored";
        logger.error({ err: error }, "could not answer the layer 2 price");
      }
      recordCommand(services, {
        command: "price l2",
        userId: body.user.id,
        outcome: outcome,
        via: "modal",
      });
    });
  });
}
