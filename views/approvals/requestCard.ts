import type { KnownBlock } from "@slack/types";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import type { CardInDmReason } from "../../src/domain/requestCardPlace.js";
import type { RequestReadModel } from "../../src/orders/readModel.js";
import {
  actions,
  button,
  context,
  escapeMrkdwn,
  header,
  section,
  truncate,
  withSandboxLabel,
} from "../blocks.js";
import type { Reply } from "../reply.js";
import {
  listOfMentions,
  markedFailedNextStep,
  offers,
  stateBlockIdOf,
  stateLine,
} from "../requestState.js";
import { withdrawButton } from "./approvals.js";
import { placementFailureWords } from "./approvalThread.js";

/*
 * The request card: one message in the channel where an order was asked for (or the
 * requester's DM), showing what is ordered, by whom, the price and where it stands, updated in
 * place; each change is also a reply in its thread. Nothing about the decision can be done from
 * here: the decision stays in the approvals channel.
 */

/** The card's link button to the approval message (a URL button: Slack still sends a click). */
export const ACTION_VIEW_IN_APPROVALS = "request_card_view_approvals";

/** The card's last line: what tells a card from the approval message (both show the state). */
export const CARD_FOOTER =
  "Approvers decide in the approvals channel; updates follow in this thread.";
/** The last line of a card whose request is over: nothing more is decided or followed. */
export const CARD_FOOTER_FINISHED = "This request is finished; its story is in this thread.";
/** The last line of a card whose order the bot stopped following: the order itself may go on. */
export const CARD_FOOTER_STOPPED =
  "The bot no longer follows this order (the provider may still change it); its story so far is in this thread.";

/** Phases after which nothing more happens to a request (the card says it is finished). */
const FINISHED = new Set([
  "rejected",
  "withdrawn",
  "cancelled",
  "marked-failed",
  "done",
  "failed-at-provider",
  "cancelled-at-provider",
]);

/** What is ordered, in a line: the first lines of the request's summary (data center, speed…). */
function whatLine(model: RequestReadModel): string | undefined {
  const lines = model.summary
    .slice(0, 4)
    .map((line) => `${escapeMrkdwn(line.label)}: ${escapeMrkdwn(line.value)}`);
  return lines.length > 0 ? lines.join(" · ") : undefined;
}

/**
 * The card, from the read model (src/orders/readModel.ts) as the approval message is: the state
 * line is the same on both. `approvalLink` is the approval message's permalink (from Slack's
 * chat.getPermalink, never from a person). While the request is pending it offers Withdraw (the
 * requester's own: anyone else is refused by the one withdraw listener).
 */
export function requestCardView(
  model: RequestReadModel,
  options: { approvalLink?: string } = {},
): Reply {
  const state = stateLine(model);
  const blocks: KnownBlock[] = [
    header(`${model.kindLabel}: ${model.title}`),
    context(`Requested by <@${model.requester}> · request \`${model.id}\``),
  ];
  const what = whatLine(model);
  if (what) blocks.push(context(what));
  if (model.money.text) blocks.push(section(`*Price:* ${escapeMrkdwn(model.money.text)}`));
  blocks.push({ ...section(state), block_id: stateBlockIdOf(model) });
  const buttons = [];
  if (options.approvalLink) {
    buttons.push({
      ...button("View in approvals", ACTION_VIEW_IN_APPROVALS, model.id),
      url: options.approvalLink,
    });
  }
  if (offers(model, "withdraw")) buttons.push(withdrawButton(model));
  if (buttons.length > 0) blocks.push(actions(`request_card_${model.id}`, buttons));
  const footer =
    model.state.phase === "stopped"
      ? CARD_FOOTER_STOPPED
      : FINISHED.has(model.state.phase)
        ? CARD_FOOTER_FINISHED
        : CARD_FOOTER;
  blocks.push(context(footer));
  return {
    text: truncate(
      // Every word here is in the blocks too (Slack shows only the blocks).
      `${model.kindLabel}: ${escapeMrkdwn(model.title)} · Requested by <@${model.requester}>${what ? ` · ${what}` : ""}${model.money.text ? ` · Price: ${escapeMrkdwn(model.money.text)}` : ""} · ${state}`,
      3000,
    ),
    blocks: withSandboxLabel(blocks, model.sandbox),
  };
}

/** A reply in the card's thread: the new state, in the same line as the card's. */
export function requestCardReplyText(model: RequestReadModel): string {
  return stateLine(model);
}

/**
 * A card of a request posted twice (the form's post outlived the grace period in which the
 * maintenance reconciler posts a card a crash never did): the one not kept says where to look,
 * without Withdraw.
 */
export function supersededCardView(): Reply {
  const text =
    "This request's card was posted twice; its updates are in its other card (here or in your DM).";
  return { text, blocks: [section(text)] };
}

/** Said once, in the requester's DM, when the card could not go where they asked. */
export function cardInDmText(reason: CardInDmReason, channel: string | undefined): string {
  if (reason === "setting") {
    return ":information_source: This workspace keeps order updates out of channels, so I'll follow your request here.";
  }
  const where = channel ? `<#${channel}>` : "that channel";
  return `:information_source: I can't post in ${where} (I'm not a member), so I'll follow your request here. Invite me with \`/invite @connect\` to get updates there next time.`;
}

/** The requester's direct message when their order ended (done, failed, cancelled). */
export function orderEndedRequesterText(model: RequestReadModel): string {
  return `Your order *${escapeMrkdwn(model.title)}*: ${stateLine(model)}`;
}

/**
 * The requester's DM when their request, told as failed and then tried again, ends the new
 * attempt without an answer: their last word was "failed", which is no longer true.
 */
export function retriedOutcomeUnknownRequesterText(model: RequestReadModel): string {
  return `:rotating_light: Your request *${escapeMrkdwn(model.title)}* was tried again, but the provider did not say whether it took the order: ${stateLine(model)}. The approvers are looking it up; you will hear how it ends.`;
}

/**
 * The requester's direct message when their approved order was not placed: a refusal (4xx) or
 * the provider failing (5xx, not a refusal), and who can do what next.
 */
/**
 * The requester's DM when an approver ends an unknown outcome with *Mark as failed*: who did, what
 * it means, and what they can do (as their App Home says it: `markedFailedNextStep`).
 */
export function markedFailedRequesterText(record: ApprovalRequest, by: string): string {
  return `:heavy_multiplication_x: Your request *${escapeMrkdwn(record.title)}* was marked as failed by ${listOfMentions([by])}: the order was sent, but whether the provider took it stayed unknown. ${markedFailedNextStep(record.reconcileKey ?? record.title)}`;
}

export function orderFailedRequesterText(record: ApprovalRequest): string {
  const serverError = (record.error?.httpStatus ?? 0) >= 500;
  // Said once: "but the provider refused the port order: …", as the thread says it.
  const words = placementFailureWords(record.error ?? { message: "" });
  const what = `${words.charAt(0).toLowerCase()}${words.slice(1)}`;
  return `:x: Your request *${escapeMrkdwn(record.title)}* was approved, but ${what}. Nothing was ordered. An approver can press *Retry placing the order* on the request${serverError ? " once the provider answers again" : " once the cause is fixed"}; or submit a new request.`;
}
