// The Edge feature's small helpers: how long provider work may take inside and after Slack's
// 3-second window, the failure words of its listeners, answering privately (the kit's
// tellPrivately, logged when undeliverable), where a click came from, posting in the quote's
// thread, and opening a modal from a button (loading first, then the content or why not).
import type { BlockAction } from "@slack/bolt";
import type { KnownBlock, ModalView } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { capBlocks, truncate, withSandboxLabel } from "../../../../views/blocks.js";
import { edgeProblemModal } from "../../../../views/edge/edgeModals.js";
import { type Message, quoteFailureText } from "../../../../views/edge/edgeQuote.js";
import {
  DeadlineExceededError,
  providerWords,
  QuoteNoLongerOffered,
} from "../../../domain/errors.js";
import { classifyQuoteFailure } from "../../../jobs/index.js";
import { isProviderError } from "../../../provider/errors.js";
import {
  type OpenedModal,
  type OpenModal,
  type Said,
  tellPrivately,
  type Where,
} from "../../kit/index.js";
import type { EdgeDeps } from "./index.js";

/** Provider work inside a Slack request that must be answered within 3 seconds. */
export { IN_SLACK_WINDOW_MS } from "../../../domain/slackBudget.js";
/** Provider work after the ack (a modal is updated, a message posted): generous. */
export const AFTER_ACK_MS = 15_000;

export function labelled(services: EdgeDeps, blocks: KnownBlock[]): KnownBlock[] {
  return capBlocks(withSandboxLabel(blocks, services.sandbox));
}

/** A short, specific sentence for a failure; never a stack trace or a secret. */
export function failureWords(error: unknown): string {
  if (error instanceof QuoteNoLongerOffered) return error.message;
  if (error instanceof DeadlineExceededError) {
    return "the provider is slow to answer right now; try again in a minute.";
  }
  const words = providerWords(error);
  if (words) {
    const said = words.providerMessage
      ? ` (the provider said: "${truncate(words.providerMessage, 200)}")`
      : "";
    return `${words.userMessage}${said}`;
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
export async function tell(
  client: WebClient,
  services: Pick<EdgeDeps, "logger" | "sandbox">,
  where: Where,
  said: Said,
): Promise<void> {
  await tellPrivately(client, services, where, said).catch((error: unknown) =>
    services.logger.error({ err: error }, "edge: could not answer the person at all"),
  );
}

export function whereOf(body: BlockAction): Where {
  const channelId =
    body.channel?.id ??
    (typeof body.container?.channel_id === "string" ? body.container.channel_id : undefined);
  return { userId: body.user.id, ...(channelId ? { channelId } : {}) };
}

/** The thread a message button was clicked in (the message's own ts when it is the root). */
export function threadOf(body: BlockAction): string | undefined {
  const message = body.message;
  if (!message) return undefined;
  return typeof message.thread_ts === "string" ? message.thread_ts : message.ts;
}

/**
 * Opens a "loading" modal at once (the click's trigger id expires in 3 seconds), then replaces
 * it with what `build` makes once the provider has answered.
 */
export async function openThenShow(
  services: Pick<EdgeDeps, "logger">,
  /** Opens on the click's or the command's trigger, labelled sandbox when it is. */
  openModal: OpenModal,
  loading: ModalView,
  build: () => Promise<ModalView>,
): Promise<void> {
  let opened: OpenedModal;
  try {
    opened = await openModal(loading);
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
  if (!opened.id) return;
  try {
    await opened.update(view);
  } catch (error) {
    // The person closed the modal meanwhile (not_found): nothing to do.
    services.logger.info({ err: error }, "edge: modal not updated");
  }
}

/** The Edge audit line: who did what to which quote or draft (not a command: no metrics). */
export function audit(services: EdgeDeps, what: string, fields: Record<string, unknown>): void {
  services.logger.info({ audit: "edge", action: what, ...fields }, `edge: ${what}`);
}

/** Posts in the quote's thread, or privately when the click came from no channel. */
export async function inThread(
  services: EdgeDeps,
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
