// Slack glue for Edge quotes: `/connect edge quote` (the form), its country change and options
// load, the quote's buttons (order, discount code, draft, 10 Gbps offer, support, again), the
// draft buttons of `/connect edge drafts`, and the modal submissions. The work is in
// src/usecases/edge/; what people see is in views/edgeModals.ts and views/edgeQuote.ts; the
// polling of a requested quote is the jobs' quote poller (src/slack/edgeQuoteCallbacks.ts).

import type {
  App,
  BlockAction,
  ButtonAction,
  ExternalSelectAction,
  StaticSelectAction,
  ViewOutput,
} from "@slack/bolt";
import type { KnownBlock, ModalView } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import {
  capBlocks,
  escapeMrkdwn,
  labelledModal,
  truncate,
  withSandboxLabel,
} from "../../../views/blocks.js";

import {
  countryOptions,
  EDGE_DISCOUNT_BLOCK,
  EDGE_DISCOUNT_INPUT,
  EDGE_DISCOUNT_VIEW,
  EDGE_ENTER_ONLY_INPUTS,
  EDGE_ORDER_BLOCKS,
  EDGE_ORDER_INPUTS,
  EDGE_ORDER_VIEW,
  EDGE_QUOTE_BLOCKS,
  EDGE_QUOTE_FIELD_BLOCKS,
  EDGE_QUOTE_INPUTS,
  EDGE_QUOTE_VIEW,
  EDGE_RENAME_BLOCK,
  EDGE_RENAME_INPUT,
  EDGE_RENAME_VIEW,
  type EdgeModalMetadata,
  edgeDiscountModal,
  edgeLoadingModal,
  edgeOrderModal,
  edgeProblemModal,
  edgeQuoteModal,
  parseEdgeMetadata,
  renameDraftModal,
} from "../../../views/edgeModals.js";

import {
  draftNoticeText,
  draftSavedMessage,
  EDGE_DRAFT_BUTTONS,
  EDGE_QUOTE_BUTTONS,
  enquirySentMessage,
  type Message,
  parseQuoteRef,
  quoteFailureText,
  quoteReadyMessage,
  quoteRequestedMessage,
} from "../../../views/edgeQuote.js";

import { problemReply } from "../../../views/reply.js";
import { type EdgeQuotationRequest, requestMbps, tenGigabitRequest } from "../../domain/edge.js";
import { classifyQuoteFailure } from "../../jobs/index.js";
import type { DraftOrder } from "../../provider/api.js";
import { isProviderError } from "../../provider/errors.js";
import type { Services } from "../../services.js";
import { edgeCatalogue, matchCountries, pickCountry } from "../../usecases/edge/catalogue.js";
import {
  checkDraftName,
  draftBody,
  draftSavedBy,
  findDraft,
  renameBody,
} from "../../usecases/edge/drafts.js";
import {
  buildEdgeOrder,
  type EdgeOrderSource,
  sourceFromDraft,
  sourceFromQuote,
  takenPortNames,
} from "../../usecases/edge/order.js";
import {
  checkDiscountCode,
  checkEdgeQuoteForm,
  type EdgeQuoteForm,
  loadQuote,
  type QuoteRef,
  refreshCountry,
} from "../../usecases/edge/quote.js";
import { DeadlineExceededError, withDeadline } from "../../usecases/shared/deadline.js";
import type { CommandHandler } from "../connect.js";
import {
  acknowledgeEnterIn,
  blockErrors,
  type Said,
  selectedValue,
  submitFromForm,
  submittedReply,
  tellPrivately,
  typedValue,
  type Where,
} from "../kit/index.js";
import type { ListenerRegistry } from "../listenerTable.js";

/** Provider work inside a Slack request that must be answered within 3 seconds. */
const IN_SLACK_WINDOW_MS = 2_500;
/** Provider work after the ack (a modal is updated, a message posted): generous. */
const AFTER_ACK_MS = 15_000;

// ---------------------------------------------------------------------------------------------
// Small helpers

/** A quote or draft that can't be used any more; its message is for the person. */
class QuoteNoLongerOffered extends Error {
  constructor(message: string) {
    super(message);
    this.name = "QuoteNoLongerOffered";
  }
}

function labelled(services: Services, blocks: KnownBlock[]): KnownBlock[] {
  return capBlocks(withSandboxLabel(blocks, services.sandbox));
}

/** A short, specific sentence for a failure; never a stack trace or a secret. */
export function failureWords(error: unknown): string {
  if (error instanceof QuoteNoLongerOffered) return error.message;
  if (error instanceof DeadlineExceededError) {
    return "the provider is slow to answer right now; try again in a minute.";
  }
  if (isProviderError(error)) {
    const said = error.providerMessage
      ? ` (the provider said: "${truncate(error.providerMessage, 200)}")`
      : "";
    return `${error.userMessage}${said}`;
  }
  return "something went wrong on our side; the error is logged. Try again in a minute.";
}

/** Words for a failed quotation call (POST /v2/edge/price/search). */
export function quoteFailureWords(error: unknown): string {
  const definite =
    isProviderError(error) && error.httpStatus !== undefined
      ? classifyQuoteFailure(error.httpStatus)
      : undefined;
  if (!definite) return failureWords(error);
  const explained = quoteFailureText(definite);
  const said =
    isProviderError(error) && error.providerMessage
      ? ` The provider said: "${truncate(error.providerMessage, 200)}".`
      : "";
  return `${explained}${said}`;
}

/** Answers privately (src/slack/kit); an answer that cannot be delivered at all is logged. */
async function tell(
  client: WebClient,
  services: Pick<Services, "logger" | "sandbox">,
  where: Where,
  said: Said,
): Promise<void> {
  await tellPrivately(client, services, where, said).catch((error: unknown) =>
    services.logger.error({ err: error }, "edge: could not answer the person at all"),
  );
}

function whereOf(body: BlockAction): Where {
  const channelId =
    body.channel?.id ??
    (typeof body.container?.channel_id === "string" ? body.container.channel_id : undefined);
  return { userId: body.user.id, ...(channelId ? { channelId } : {}) };
}

/** The thread a message button was clicked in (the message's own ts when it is the root). */
function threadOf(body: BlockAction): string | undefined {
  const message = body.message;
  if (!message) return undefined;
  return typeof message.thread_ts === "string" ? message.thread_ts : message.ts;
}

/**
 * Opens a "loading" modal at once (the click's trigger id expires in 3 seconds), then replaces
 * it with what `build` makes once the provider has answered.
 */
async function openThenShow(
  services: Services,
  client: WebClient,
  triggerId: string,
  loading: ModalView,
  build: () => Promise<ModalView>,
): Promise<void> {
  let viewId: string | undefined;
  try {
    const opened = await client.views.open({
      trigger_id: triggerId,
      view: labelledModal(loading, services.sandbox),
    });
    viewId = opened.view?.id;
  } catch (error) {
    services.logger.warn({ err: error }, "edge: could not open a modal");
    return;
  }
  let view: ModalView;
  try {
    view = await build();
  } catch (error) {
    services.logger.warn({ err: error }, "edge: could not prepare a modal");
    view = edgeProblemModal(loading.title.text, `Couldn't load it: ${failureWords(error)}`);
  }
  if (!viewId) return;
  try {
    await client.views.update({ view_id: viewId, view: labelledModal(view, services.sandbox) });
  } catch (error) {
    // The person closed the modal meanwhile (not_found): nothing to do.
    services.logger.info({ err: error }, "edge: modal not updated");
  }
}

function audit(services: Services, what: string, fields: Record<string, unknown>): void {
  services.logger.info({ audit: "edge", action: what, ...fields }, `edge: ${what}`);
}

// ---------------------------------------------------------------------------------------------
// Reading modal state (whatever arrived: a forged payload looks the same)

/** A select's key, or a number input and its unit combined into the same `<value>|<unit>` key. */
function keyOf(
  values: unknown,
  block: string,
  action: string,
  unitBlock: string,
  unitAction: string,
): unknown {
  const selected = selectedValue(values, block, action);
  if (selected !== undefined && selected !== null) return selected;
  const typed = typedValue(values, block, action);
  if (typeof typed !== "string" || typed.trim() === "") return typed ?? undefined;
  const unit = selectedValue(values, unitBlock, unitAction);
  return `${typed.trim()}|${typeof unit === "string" ? unit : ""}`;
}

export function readEdgeQuoteForm(values: ViewOutput["state"]["values"] | unknown): EdgeQuoteForm {
  const B = EDGE_QUOTE_BLOCKS;
  const I = EDGE_QUOTE_INPUTS;
  return {
    country: selectedValue(values, B.country, I.country),
    bandwidth: keyOf(values, B.bandwidth, I.bandwidth, B.bandwidthUnit, I.bandwidthUnit),
    term: keyOf(values, B.term, I.term, B.termUnit, I.termUnit),
    address: typedValue(values, B.address, I.address),
    postCode: typedValue(values, B.postCode, I.postCode),
  };
}

function hasBlock(view: Pick<ViewOutput, "blocks">, blockId: string): boolean {
  return (view.blocks as unknown as Array<{ block_id?: unknown }>).some(
    (b) => b?.block_id === blockId,
  );
}

// ---------------------------------------------------------------------------------------------
// Requesting a quote (the form, "Request the quote again", a draft's Re-quote)

/**
 * Starts an asynchronous quote, posts "Quote requested…" as a thread root in the channel and
 * hands the polling to the jobs; the offers (or why there are none) follow in the thread.
 */
export async function requestEdgeQuote(input: {
  services: Services;
  client: WebClient;
  request: EdgeQuotationRequest;
  where: Where;
}): Promise<void> {
  const { services, client, request, where } = input;
  let responseId: string;
  try {
    const started = await services.provider.startEdgeQuote(request, {
      signal: AbortSignal.timeout(AFTER_ACK_MS),
    });
    responseId = started.responseId;
  } catch (error) {
    services.logger.warn({ err: error }, "edge: quote request failed");
    await tell(client, services, where, {
      text: `:warning: Couldn't request the Edge quote: ${escapeMrkdwn(quoteFailureWords(error))}`,
    });
    return;
  }
  const root = quoteRequestedMessage({ request, requestedBy: where.userId, responseId });
  const blocks = labelled(services, root.blocks);
  let channel: string | undefined;
  let threadTs: string | undefined;
  for (const target of [where.channelId, where.userId]) {
    if (!target) continue;
    try {
      const posted = await client.chat.postMessage({ channel: target, text: root.text, blocks });
      channel = posted.channel ?? target;
      threadTs = posted.ts;
      break;
    } catch (error) {
      // Not in that channel: the person's DM instead, so the quote is not lost.
      services.logger.warn({ err: error, channel: target }, "edge: could not post the quote root");
    }
  }
  if (!channel) return;
  try {
    await services.jobs.quotePoller.start({
      responseId,
      channel,
      ...(threadTs ? { threadTs } : {}),
      userId: where.userId,
      request,
    });
  } catch (error) {
    services.logger.error({ err: error, responseId }, "edge: could not start polling the quote");
    await tell(client, services, where, {
      text: ":warning: The quote was requested, but I couldn't start checking for its result; request it again in a minute.",
    });
    return;
  }
  audit(services, "quote requested", { userId: where.userId, responseId });
}

// ---------------------------------------------------------------------------------------------
// The command

/** `/connect edge quote`: the quote form, filled from the provider's Edge lists. */
export const edgeQuote: CommandHandler = async (ctx) => {
  if (!ctx.triggerId) {
    await ctx.reply(problemReply("Run `/connect edge quote` to open the Edge quote form."));
    return;
  }
  await openThenShow(
    ctx.services,
    ctx.client,
    ctx.triggerId,
    edgeLoadingModal("Edge port quote", "Loading the Edge countries, bandwidths and terms…"),
    async () =>
      edgeQuoteModal({
        catalogue: await edgeCatalogue(ctx.services).get(AFTER_ACK_MS),
        metadata: { channelId: ctx.channelId },
      }),
  );
};

// ---------------------------------------------------------------------------------------------
// Listeners

type ButtonArgs = Parameters<Parameters<App["action"]>[1]>[0] & {
  body: BlockAction<ButtonAction>;
  action: ButtonAction;
};

/** Listeners (modal submissions, options loads, buttons) of `/connect edge quote` and drafts. */
export function registerEdgeQuoteListeners(app: ListenerRegistry, services: Services): void {
  acknowledgeEnterIn(app, EDGE_ENTER_ONLY_INPUTS);
  const { logger } = services;
  const catalogue = edgeCatalogue(services);

  /** The request a quote's buttons stand for, checked again against the current Edge lists. */
  async function requestOf(ref: QuoteRef, timeoutMs: number) {
    const check = checkEdgeQuoteForm(await catalogue.get(timeoutMs), ref.form);
    if (!check.ok) {
      const problems = Object.values(check.errors).join("; ");
      throw new QuoteNoLongerOffered(
        `the provider no longer offers this quote's choices (${problems}); request a new quote.`,
      );
    }
    return check.request;
  }

  /**
   * Its creator is reminded 3 days and 1 day before the provider deletes it (30 days). A failure
   * here loses only the reminders, never the saved draft: logged, not told as a failed save.
   */
  async function rememberDraft(draft: DraftOrder, userId: string): Promise<void> {
    const created = draft.createdAt ? new Date(draft.createdAt) : services.clock.now();
    await services.jobs.draftReminders
      .remember({
        draftId: draft.id,
        name: draft.name ?? "Draft order",
        userId,
        createdAt: Number.isFinite(created.getTime()) ? created : services.clock.now(),
      })
      .catch((error: unknown) =>
        logger.warn({ err: error, draftId: draft.id }, "edge: draft reminders not queued"),
      );
  }

  async function quoteSource(ref: QuoteRef, signal: AbortSignal): Promise<EdgeOrderSource> {
    const [request, quote] = await Promise.all([
      requestOf(ref, AFTER_ACK_MS),
      loadQuote(services, ref.responseId, ref.discountCode, signal),
    ]);
    return sourceFromQuote(request, quote);
  }

  async function draftSource(draftId: string, signal: AbortSignal): Promise<EdgeOrderSource> {
    const draft = await findDraft(services, draftId, signal);
    if (!draft) throw new QuoteNoLongerOffered(draftNoticeText("not-found", { id: draftId }));
    const source = sourceFromDraft(draft);
    if (!source.ok) throw new QuoteNoLongerOffered(source.message);
    return source.source;
  }

  /** A button's click: ack, then the work, with any failure told to the person privately. */
  function onButton(actionId: string, work: (args: ButtonArgs, where: Where) => Promise<void>) {
    app.action<BlockAction<ButtonAction>>(actionId, async (args) => {
      await args.ack();
      const where = whereOf(args.body);
      try {
        await work(args as ButtonArgs, where);
      } catch (error) {
        (error instanceof QuoteNoLongerOffered ? logger.info : logger.warn).call(
          logger,
          { err: error, actionId },
          "edge: button failed",
        );
        await tell(args.client, services, where, {
          text: `:warning: ${escapeMrkdwn(error instanceof QuoteNoLongerOffered ? error.message : `That didn't work: ${failureWords(error)}`)}`,
        });
      }
    });
  }

  async function inThread(
    client: WebClient,
    where: Where,
    threadTs: string | undefined,
    message: Message,
  ): Promise<void> {
    if (!where.channelId) {
      await tell(client, services, where, message);
      return;
    }
    await client.chat.postMessage({
      channel: where.channelId,
      ...(threadTs ? { thread_ts: threadTs } : {}),
      text: message.text,
      blocks: labelled(services, message.blocks),
    });
  }

  // -- The quote form ------------------------------------------------------------------------

  // The country changed: show Post code when that country needs one (Singapore), else hide it.
  app.action<BlockAction<StaticSelectAction | ExternalSelectAction>>(
    EDGE_QUOTE_INPUTS.country,
    async ({ ack, body, action, client }) => {
      await ack();
      const view = body.view;
      if (!view || view.callback_id !== EDGE_QUOTE_VIEW) return;
      try {
        const lists = await catalogue.get(AFTER_ACK_MS);
        const country = pickCountry(lists, action.selected_option?.value);
        const shown = hasBlock(view, EDGE_QUOTE_BLOCKS.postCode);
        if (shown === (country?.postCodeRequired ?? false)) return;
        await client.views.update({
          view_id: view.id,
          hash: view.hash,
          view: labelledModal(
            edgeQuoteModal({
              catalogue: lists,
              metadata: parseEdgeMetadata(view.private_metadata),
              ...(country ? { country } : {}),
            }),
            services.sandbox,
          ),
        });
      } catch (error) {
        // hash_conflict: a newer change already updated the modal; that one wins.
        logger.warn({ err: error }, "edge: could not update the quote form");
      }
    },
  );

  // More than 100 countries: searched as the person types (bounded: Slack waits 3 seconds).
  app.options(EDGE_QUOTE_INPUTS.country, async ({ ack, payload }) => {
    const typed = typeof payload.value === "string" ? payload.value : "";
    try {
      const lists = await catalogue.get(IN_SLACK_WINDOW_MS);
      await ack({ options: countryOptions(matchCountries(lists.countries, typed)) });
    } catch (error) {
      logger.warn({ err: error }, "edge: country options load had no answer");
      await ack({ options: [] });
    }
  });

  app.view(EDGE_QUOTE_VIEW, async ({ ack, body, view, client }) => {
    let check: ReturnType<typeof checkEdgeQuoteForm>;
    try {
      check = checkEdgeQuoteForm(
        await catalogue.get(IN_SLACK_WINDOW_MS),
        readEdgeQuoteForm(view.state?.values),
      );
    } catch (error) {
      logger.warn({ err: error }, "edge: could not check the quote form");
      await ack({
        response_action: "errors",
        errors: {
          [EDGE_QUOTE_BLOCKS.country]:
            `Couldn't check the form with the provider: ${failureWords(error)}`.slice(0, 300),
        },
      });
      return;
    }
    if (!check.ok) {
      await ack({
        response_action: "errors",
        errors: blockErrors(check.errors, EDGE_QUOTE_FIELD_BLOCKS, view, "country"),
      });
      return;
    }
    await ack();
    const metadata = parseEdgeMetadata(view.private_metadata);
    await requestEdgeQuote({
      services,
      client,
      request: check.request,
      where: {
        userId: body.user.id,
        ...(metadata.channelId ? { channelId: metadata.channelId } : {}),
      },
    });
  });

  // -- The quote's buttons -------------------------------------------------------------------

  onButton(EDGE_QUOTE_BUTTONS.order, async ({ body, action, client }, where) => {
    const ref = parseQuoteRef(action.value);
    if (!ref) return;
    const metadata: EdgeModalMetadata = {
      ...(where.channelId ? { channelId: where.channelId } : {}),
      ...(threadOf(body) ? { threadTs: threadOf(body) } : {}),
      ref,
    };
    await openThenShow(
      services,
      client,
      body.trigger_id,
      edgeLoadingModal("Order an Edge port", "Reading the quote from the provider…"),
      async () => {
        const source = await quoteSource(ref, AbortSignal.timeout(AFTER_ACK_MS));
        const speedMbps = requestMbps(source.request);
        return edgeOrderModal({
          source,
          metadata,
          currency: services.currency,
          ...(speedMbps !== undefined ? { speedMbps } : {}),
        });
      },
    );
  });

  onButton(EDGE_QUOTE_BUTTONS.discount, async ({ body, action, client }, where) => {
    const ref = parseQuoteRef(action.value);
    if (!ref) return;
    await client.views.open({
      trigger_id: body.trigger_id,
      view: labelledModal(
        edgeDiscountModal({
          ...(where.channelId ? { channelId: where.channelId } : {}),
          ...(threadOf(body) ? { threadTs: threadOf(body) } : {}),
          ref,
        }),
        services.sandbox,
      ),
    });
  });

  onButton(EDGE_QUOTE_BUTTONS.saveDraft, async ({ body, action, client }, where) => {
    const ref = parseQuoteRef(action.value);
    if (!ref) return;
    const signal = AbortSignal.timeout(AFTER_ACK_MS);
    const [request, quote, drafts] = await Promise.all([
      requestOf(ref, AFTER_ACK_MS),
      loadQuote(services, ref.responseId, ref.discountCode, signal),
      services.provider.listDrafts({ signal }),
    ]);
    // A second click (or a colleague's) finds the draft already saved instead of a duplicate.
    const existing = drafts.find((d) => {
      const payload = (d.edgePayload ?? {}) as Record<string, unknown>;
      return (
        payload.responseId === ref.responseId &&
        (payload.discountCode ?? undefined) === (ref.discountCode ?? undefined)
      );
    });
    const draft =
      existing ??
      (await services.provider.createDraft(draftBody({ request, quote, savedBy: where.userId }), {
        signal,
      }));
    if (!existing) {
      audit(services, "draft saved", { userId: where.userId, draftId: draft.id });
      await rememberDraft(draft, where.userId);
    }
    await inThread(client, where, threadOf(body), draftSavedMessage(draft, where.userId));
  });

  onButton(EDGE_QUOTE_BUTTONS.tenGig, async ({ body, action, client }, where) => {
    const ref = parseQuoteRef(action.value);
    if (!ref) return;
    const request = await requestOf(ref, AFTER_ACK_MS);
    await services.provider.sendEdgeSelect(tenGigabitRequest(request), {
      signal: AbortSignal.timeout(AFTER_ACK_MS),
    });
    audit(services, "10 Gbps offer asked", { userId: where.userId, responseId: ref.responseId });
    await inThread(client, where, threadOf(body), enquirySentMessage("ten-gig", where.userId));
  });

  onButton(EDGE_QUOTE_BUTTONS.support, async ({ body, action, client }, where) => {
    const ref = parseQuoteRef(action.value);
    if (!ref) return;
    const request = await requestOf(ref, AFTER_ACK_MS);
    await services.provider.sendEdgeEnquiry(request, { signal: AbortSignal.timeout(AFTER_ACK_MS) });
    audit(services, "support contacted", { userId: where.userId, responseId: ref.responseId });
    await inThread(client, where, threadOf(body), enquirySentMessage("support", where.userId));
  });

  onButton(EDGE_QUOTE_BUTTONS.retry, async ({ action, client }, where) => {
    const ref = parseQuoteRef(action.value);
    if (!ref) return;
    const request = await requestOf(ref, AFTER_ACK_MS);
    await requestEdgeQuote({ services, client, request, where });
  });

  // -- Discount code -------------------------------------------------------------------------

  app.view(EDGE_DISCOUNT_VIEW, async ({ ack, body, view, client }) => {
    const metadata = parseEdgeMetadata(view.private_metadata);
    const ref = metadata.ref;
    const fail = (message: string) =>
      ack({ response_action: "errors", errors: { [EDGE_DISCOUNT_BLOCK]: message.slice(0, 300) } });
    if (!ref) {
      await fail("This form lost its quote; use the button under the quote again.");
      return;
    }
    const code = checkDiscountCode(
      ref.responseId,
      typedValue(view.state?.values, EDGE_DISCOUNT_BLOCK, EDGE_DISCOUNT_INPUT),
    );
    if (!code.ok) {
      await fail(code.message);
      return;
    }
    let discounted: Awaited<ReturnType<typeof loadQuote>>;
    let request: EdgeQuotationRequest;
    try {
      // The provider decides whether the code is valid: asked before answering the form, so a
      // wrong code is shown next to the field.
      [discounted, request] = await withDeadline(IN_SLACK_WINDOW_MS, () =>
        Promise.all([
          loadQuote(services, ref.responseId, code.code, AbortSignal.timeout(IN_SLACK_WINDOW_MS)),
          requestOf(ref, IN_SLACK_WINDOW_MS),
        ]),
      );
    } catch (error) {
      if (isProviderError(error) && error.httpStatus === 404) {
        await fail(
          `"${code.code}" isn't a valid discount code for this quote (or the quote has expired).`,
        );
      } else {
        await fail(
          error instanceof QuoteNoLongerOffered
            ? error.message
            : `Couldn't apply the code: ${failureWords(error)}`,
        );
      }
      return;
    }
    await ack();
    const where: Where = {
      userId: body.user.id,
      ...(metadata.channelId ? { channelId: metadata.channelId } : {}),
    };
    audit(services, "discount applied", { userId: where.userId, responseId: ref.responseId });
    try {
      await inThread(
        client,
        where,
        metadata.threadTs,
        quoteReadyMessage({
          quote: discounted,
          request,
          requestedBy: where.userId,
          ref: { ...ref, discountCode: code.code },
          currency: services.currency,
        }),
      );
    } catch (error) {
      logger.warn({ err: error }, "edge: could not post the discounted quote");
      await tell(client, services, where, {
        text: ":warning: The code is valid, but I couldn't post the new prices; try again.",
      });
    }
  });

  // -- Order (from a quote or a draft) -------------------------------------------------------

  app.view(EDGE_ORDER_VIEW, async ({ ack, body, view, client }) => {
    const metadata = parseEdgeMetadata(view.private_metadata);
    const fail = (block: string, message: string) =>
      ack({ response_action: "errors", errors: { [block]: message.slice(0, 300) } });
    const values = view.state?.values;
    let check: ReturnType<typeof buildEdgeOrder>;
    try {
      const signal = AbortSignal.timeout(IN_SLACK_WINDOW_MS);
      // Everything is read again on the server: the quote (or draft) the modal was made from,
      // the names already in use, who the bot orders as.
      const [source, takenNames, identity] = await withDeadline(IN_SLACK_WINDOW_MS, () =>
        Promise.all([
          metadata.draftId
            ? draftSource(metadata.draftId, signal)
            : metadata.ref
              ? quoteSource(metadata.ref, signal)
              : Promise.reject(
                  new QuoteNoLongerOffered("This form lost its quote; use the Order button again."),
                ),
          takenPortNames(services, signal),
          services.identity(),
        ]),
      );
      check = buildEdgeOrder({
        source,
        offerKey: selectedValue(values, EDGE_ORDER_BLOCKS.offer, EDGE_ORDER_INPUTS.offer),
        portName: typedValue(values, EDGE_ORDER_BLOCKS.portName, EDGE_ORDER_INPUTS.portName),
        takenNames,
        identity,
        currency: services.currency,
        requester: {
          userId: body.user.id,
          ...(metadata.channelId ? { channelId: metadata.channelId } : {}),
        },
      });
    } catch (error) {
      logger.warn({ err: error }, "edge: could not check the order form");
      await fail(
        EDGE_ORDER_BLOCKS.portName,
        error instanceof QuoteNoLongerOffered
          ? error.message
          : `Couldn't check the order with the provider: ${failureWords(error)}`,
      );
      return;
    }
    if (!check.ok) {
      await ack({
        response_action: "errors",
        errors: blockErrors(check.errors, EDGE_ORDER_BLOCKS, view, "portName"),
      });
      return;
    }
    const where: Where = {
      userId: body.user.id,
      ...(metadata.channelId ? { channelId: metadata.channelId } : {}),
    };
    try {
      const outcome = await submitFromForm({
        services,
        client,
        submission: check.submission,
        // The name was free when checked above; another request may have taken it since.
        answerForm: (nameError) =>
          nameError ? fail(EDGE_ORDER_BLOCKS.portName, nameError) : ack(),
      });
      // Answered next to the port name; the form stays open.
      if (!outcome.ok && outcome.field === "name") return;
      await tell(
        client,
        services,
        where,
        outcome.ok ? submittedReply(outcome) : { text: `:no_entry: ${outcome.message}` },
      );
    } catch (error) {
      logger.error({ err: error }, "edge: could not submit the order for approval");
      await tell(client, services, where, {
        text: ":warning: Couldn't submit the order for approval; nothing was ordered. Try again in a minute.",
      });
    }
  });

  // -- Draft buttons (`/connect edge drafts`, and under a saved draft) -------------------------

  onButton(EDGE_DRAFT_BUTTONS.order, async ({ body, action, client }, where) => {
    const draftId = action.value;
    if (!draftId) return;
    await openThenShow(
      services,
      client,
      body.trigger_id,
      edgeLoadingModal("Order an Edge port", "Reading the draft from the provider…"),
      async () => {
        let source: EdgeOrderSource;
        try {
          source = await draftSource(draftId, AbortSignal.timeout(AFTER_ACK_MS));
        } catch (error) {
          if (error instanceof QuoteNoLongerOffered) {
            return edgeProblemModal("Order an Edge port", error.message);
          }
          throw error;
        }
        const speedMbps = requestMbps(source.request);
        return edgeOrderModal({
          source,
          currency: services.currency,
          metadata: { ...(where.channelId ? { channelId: where.channelId } : {}), draftId },
          ...(speedMbps !== undefined ? { speedMbps } : {}),
        });
      },
    );
  });

  onButton(EDGE_DRAFT_BUTTONS.requote, async ({ action, client }, where) => {
    const draftId = action.value;
    if (!draftId) return;
    const source = await draftSource(draftId, AbortSignal.timeout(AFTER_ACK_MS));
    // The country object as the provider lists it today, when it still does.
    const lists = await catalogue.get(AFTER_ACK_MS).catch(() => undefined);
    await requestEdgeQuote({
      services,
      client,
      request: refreshCountry(lists, source.request),
      where,
    });
  });

  onButton(EDGE_DRAFT_BUTTONS.rename, async ({ body, action, client }, where) => {
    const draftId = action.value;
    if (!draftId) return;
    await openThenShow(
      services,
      client,
      body.trigger_id,
      edgeLoadingModal("Rename Edge draft", "Reading the draft from the provider…"),
      async () => {
        const draft = await findDraft(services, draftId, AbortSignal.timeout(AFTER_ACK_MS));
        if (!draft) {
          return edgeProblemModal(
            "Rename Edge draft",
            draftNoticeText("not-found", { id: draftId }),
          );
        }
        return renameDraftModal({
          draft,
          metadata: where.channelId ? { channelId: where.channelId } : {},
        });
      },
    );
  });

  app.view(EDGE_RENAME_VIEW, async ({ ack, body, view, client }) => {
    const metadata = parseEdgeMetadata(view.private_metadata);
    const name = checkDraftName(
      typedValue(view.state?.values, EDGE_RENAME_BLOCK, EDGE_RENAME_INPUT),
    );
    if (!name.ok || !metadata.draftId) {
      await ack({
        response_action: "errors",
        errors: {
          [EDGE_RENAME_BLOCK]: name.ok
            ? "This form lost its draft; use the button again."
            : name.message,
        },
      });
      return;
    }
    await ack();
    const where: Where = {
      userId: body.user.id,
      ...(metadata.channelId ? { channelId: metadata.channelId } : {}),
    };
    const draftId = metadata.draftId;
    try {
      const signal = AbortSignal.timeout(AFTER_ACK_MS);
      const draft = await findDraft(services, draftId, signal);
      if (!draft) {
        await tell(client, services, where, {
          text: draftNoticeText("not-found", { id: draftId }),
        });
        return;
      }
      const body = renameBody(draft, name.name);
      if (!body) {
        await tell(client, services, where, {
          text: ":warning: This draft has no speed I can keep, so renaming it here could change it; rename it in the provider's portal.",
        });
        return;
      }
      const renamed = await services.provider.updateDraft(draftId, body, { signal });
      audit(services, "draft renamed", { userId: where.userId, draftId });
      await tell(client, services, where, {
        text: draftNoticeText("renamed", { id: draftId, name: renamed.name ?? name.name }),
      });
    } catch (error) {
      logger.warn({ err: error }, "edge: rename failed");
      await tell(client, services, where, {
        text: `:warning: Couldn't rename the draft: ${escapeMrkdwn(failureWords(error))}`,
      });
    }
  });

  onButton(EDGE_DRAFT_BUTTONS.delete, async ({ action, client }, where) => {
    const draftId = action.value;
    if (!draftId) return;
    const signal = AbortSignal.timeout(AFTER_ACK_MS);
    const draft = await findDraft(services, draftId, signal);
    if (!draft) {
      await tell(client, services, where, {
        text: draftNoticeText("not-found", { id: draftId }),
      });
      return;
    }
    const savedBy = draftSavedBy(draft);
    if (savedBy !== where.userId) {
      audit(services, "draft delete refused", { userId: where.userId, draftId });
      await tell(client, services, where, {
        text: draftNoticeText(savedBy ? "not-owner" : "no-owner", draft),
      });
      return;
    }
    await services.provider.deleteDraft(draftId, { signal });
    audit(services, "draft deleted", { userId: where.userId, draftId });
    await services.jobs.draftReminders
      .forget(draftId, "deleted")
      .catch((error: unknown) =>
        logger.warn({ err: error, draftId }, "edge: draft reminders not removed"),
      );
    await tell(client, services, where, { text: draftNoticeText("deleted", draft) });
  });
}
