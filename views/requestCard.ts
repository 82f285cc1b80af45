import type { KnownBlock } from "@slack/types";
import type { ApprovalRequest } from "../src/approvals/index.js";
import { isWithdrawn } from "../src/domain/withdrawal.js";
import { ORDER_KIND_LABEL, withdrawButton } from "./approvals.js";
import {
  actions,
  button,
  context,
  escapeMrkdwn,
  header,
  section,
  truncate,
  withSandboxLabel,
} from "./blocks.js";
import { type OrderProgress, stateBlockId, trackedOutcomeLine } from "./orderProgress.js";
import type { Reply } from "./reply.js";

export type { OrderProgress };

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

/** Why a card is in the requester's DM rather than the channel they asked in. */
export type CardInDmReason = "not-in-channel" | "setting";

function orderRef(record: ApprovalRequest): string {
  const id = record.result?.providerId;
  if (!id) return "";
  return `${record.result?.resource === "port" ? "port" : "order"} \`${escapeMrkdwn(id)}\``;
}

/**
 * Where the request stands, in one line: the same words on the card, in its thread and (for a
 * placed order) on the approval message, so they never disagree.
 */
export function requestStateLine(
  record: ApprovalRequest,
  progress: OrderProgress | undefined,
): string {
  const by = record.decision ? ` by <@${record.decision.by}>` : "";
  switch (record.status) {
    case "pending":
      return ":hourglass_flowing_sand: *Waiting for approval*";
    case "approved":
      return `:white_check_mark: *Approved*${by} — placing the order`;
    case "executing":
      return `:gear: *Placing the order* (approved${by})`;
    case "rejected":
      return `:no_entry: *Rejected*${by}: ${escapeMrkdwn(record.decision?.reason ?? "no reason given")}`;
    case "cancelled":
      return isWithdrawn(record)
        ? ":leftwards_arrow_with_hook: *Withdrawn* by the requester"
        : ":heavy_multiplication_x: *Cancelled*";
    case "failed":
      return `:x: *Failed*: ${escapeMrkdwn(record.error?.message ?? "the order was not placed")}`;
    case "unknown":
      return ":rotating_light: *Outcome unknown* — sent to the provider without an answer; approvers are checking";
    case "placed": {
      const ref = orderRef(record);
      const ended = trackedOutcomeLine(progress);
      if (ended) return ref ? `${ended} · ${ref}` : ended;
      if (progress?.status) {
        return `:satellite: *${escapeMrkdwn(progress.status)}*${ref ? ` · ${ref}` : ""}`;
      }
      return `:rocket: *Placed*${ref ? `, ${ref}` : ""}`;
    }
  }
}

/**
 * The card. `approvalLink` is the approval message's permalink (from Slack's
 * chat.getPermalink, never from a person). While the request is pending it offers Withdraw
 * (the requester's own: anyone else is refused by the one withdraw listener).
 */
export function requestCardView(
  record: ApprovalRequest,
  options: {
    progress?: OrderProgress;
    approvalLink?: string;
  } = {},
): Reply {
  const state = requestStateLine(record, options.progress);
  const blocks: KnownBlock[] = [
    header(`${ORDER_KIND_LABEL[record.kind]}: ${record.title}`),
    context(`Requested by <@${record.requester.userId}> · request \`${record.id}\``),
  ];
  if (record.price) blocks.push(section(`*Price:* ${escapeMrkdwn(record.price.text)}`));
  blocks.push({ ...section(state), block_id: stateBlockId(record, options.progress) });
  const buttons = [];
  if (options.approvalLink) {
    buttons.push({
      ...button("View in approvals", ACTION_VIEW_IN_APPROVALS, record.id),
      url: options.approvalLink,
    });
  }
  if (record.status === "pending") buttons.push(withdrawButton(record));
  if (buttons.length > 0) blocks.push(actions(`request_card_${record.id}`, buttons));
  blocks.push(context(CARD_FOOTER));
  return {
    text: truncate(
      // Every word here is in the blocks too (Slack shows only the blocks).
      `${ORDER_KIND_LABEL[record.kind]}: ${escapeMrkdwn(record.title)} · Requested by <@${record.requester.userId}>${record.price ? ` · Price: ${escapeMrkdwn(record.price.text)}` : ""} · ${state}`,
      3000,
    ),
    blocks: withSandboxLabel(blocks, record.sandbox),
  };
}

/** A reply in the card's thread: the new state. */
export function requestCardReplyText(
  record: ApprovalRequest,
  progress: OrderProgress | undefined,
): string {
  return requestStateLine(record, progress);
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
export function orderEndedRequesterText(record: ApprovalRequest, progress: OrderProgress): string {
  const outcome = trackedOutcomeLine(progress) ?? "";
  return `Your order *${escapeMrkdwn(record.title)}*: ${outcome}`;
}

/** The requester's direct message when the provider refused their approved order. */
export function orderFailedRequesterText(record: ApprovalRequest): string {
  return `:x: Your request *${escapeMrkdwn(record.title)}* was approved, but the provider refused the order: ${escapeMrkdwn(record.error?.message ?? "no reason given")}. Nothing was ordered; an approver can retry once the cause is fixed.`;
}
