import type { ModalView } from "@slack/types";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { escapeMrkdwn, section, withSandboxLabel } from "../blocks.js";

/**
 * The modal an approver gives a reason in after pressing *Reject* (from the approval message or
 * App Home), and where it was opened from: its own module because the Slack layer reads it
 * back on submit, apart from the message that offered the button.
 */

export const VIEW_REJECT_REASON = "approval_reject_reason";
export const BLOCK_REJECT_REASON = "reject_reason";
export const INPUT_REJECT_REASON = "reason";

/** The modal's field error when its checks did not finish within Slack's budget. */
export const REJECT_CHECKS_TOO_SLOW =
  ":hourglass: I couldn't check this in time (Slack or my storage was slow); nothing was changed. Press Reject again.";

/** Where a reject modal was opened from: checked again against the record on submit. */
export interface RejectOrigin {
  id: string;
  channel: string;
  ts: string;
  /** Opened from this person's App Home (no channel, no message). */
  home?: string;
}

/** Reads the reject modal's private_metadata; undefined when it is not one of ours. */
export function readRejectOrigin(metadata: string): RejectOrigin | undefined {
  try {
    const value = JSON.parse(metadata) as Partial<RejectOrigin>;
    return typeof value.id === "string" &&
      typeof value.channel === "string" &&
      typeof value.ts === "string"
      ? {
          id: value.id,
          channel: value.channel,
          ts: value.ts,
          ...(typeof value.home === "string" ? { home: value.home } : {}),
        }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The modal asking an approver why they reject. */
export function rejectReasonModal(record: ApprovalRequest, origin: RejectOrigin): ModalView {
  return {
    type: "modal",
    callback_id: VIEW_REJECT_REASON,
    private_metadata: JSON.stringify(origin),
    title: { type: "plain_text", text: "Reject request" },
    submit: { type: "plain_text", text: "Reject" },
    close: { type: "plain_text", text: "Cancel" },
    blocks: withSandboxLabel(
      [
        section(
          `Rejecting *${escapeMrkdwn(record.title)}* requested by <@${record.requester.userId}>.`,
        ),
        {
          type: "input",
          block_id: BLOCK_REJECT_REASON,
          label: { type: "plain_text", text: "Reason" },
          element: {
            type: "plain_text_input",
            action_id: INPUT_REJECT_REASON,
            multiline: true,
            max_length: 1000,
            placeholder: { type: "plain_text", text: "Tell the requester why" },
          },
        },
      ],
      record.sandbox,
    ),
  };
}
