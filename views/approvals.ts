import type { KnownBlock, ModalView } from "@slack/types";
import type { ApprovalRequest, PlacementResult } from "../src/approvals/index.js";
import type { PortOrder } from "../src/provider/api.js";
import {
  actions,
  button,
  context,
  escapeMrkdwn,
  fields,
  header,
  LIMITS,
  section,
  truncate,
  withSandboxLabel,
} from "./blocks.js";
import { nextLoaStep } from "./orders.js";
import type { Reply } from "./reply.js";

export const ACTION_APPROVE = "approval_approve";
export const ACTION_REJECT = "approval_reject";
export const ACTION_RETRY = "approval_retry";
export const VIEW_REJECT_REASON = "approval_reject_reason";
export const BLOCK_REJECT_REASON = "reject_reason";
export const INPUT_REJECT_REASON = "reason";

const KIND_LABEL: Record<ApprovalRequest["kind"], string> = {
  port: "Port order",
  layer2: "Layer 2 connection",
  iod: "IO-D service",
  edge: "Edge port order",
};

const STATUS_LINE: Record<ApprovalRequest["status"], string> = {
  pending: ":hourglass_flowing_sand: *Waiting for approval*",
  approved: ":white_check_mark: *Approved* — placing the order",
  rejected: ":no_entry: *Rejected*",
  cancelled: ":heavy_multiplication_x: *Cancelled by the requester*",
  executing: ":gear: *Approved* — placing the order now",
  placed: ":rocket: *Ordered*",
  failed: ":x: *Placing the order failed*",
  unknown:
    ":grey_question: *Outcome unknown* — checking with the provider; a person may need to look",
};

/** The status line alone (also used in thread replies). */
export function approvalStatusLine(record: ApprovalRequest): string {
  const parts = [STATUS_LINE[record.status]];
  if (record.decision) {
    parts.push(
      `${record.decision.action === "approve" ? "approved" : "rejected"} by <@${record.decision.by}>`,
    );
  }
  if (record.decision?.reason) parts.push(`reason: ${escapeMrkdwn(record.decision.reason)}`);
  if (record.status === "placed" && record.result?.providerId)
    parts.push(`provider id \`${escapeMrkdwn(record.result.providerId)}\``);
  if ((record.status === "failed" || record.status === "unknown") && record.error) {
    parts.push(escapeMrkdwn(record.error.message));
  }
  return parts.join(" · ");
}

/**
 * The approval request in the approvals channel: who asked, exactly what will be ordered
 * (every field that goes to the provider), the price, the state, and the buttons that fit it.
 */
export function approvalMessageView(record: ApprovalRequest): Reply {
  const blocks: KnownBlock[] = [
    header(`${KIND_LABEL[record.kind]}: ${record.title}`),
    context(`Requested by <@${record.requester.userId}> · request \`${record.id}\``),
  ];
  for (let i = 0; i < record.summary.length; i += LIMITS.sectionFields) {
    blocks.push(
      fields(
        record.summary
          .slice(i, i + LIMITS.sectionFields)
          .map((line) => [escapeMrkdwn(line.label), escapeMrkdwn(line.value)] as const),
      ),
    );
  }
  if (record.price) blocks.push(section(`*Price:* ${escapeMrkdwn(record.price.text)}`));
  blocks.push(section(approvalStatusLine(record)));
  if (record.status === "pending") {
    blocks.push(
      actions(`approval_${record.id}`, [
        button("Approve", ACTION_APPROVE, record.id, "primary"),
        button("Reject", ACTION_REJECT, record.id, "danger"),
      ]),
    );
  } else if (record.status === "failed") {
    blocks.push(
      actions(`approval_${record.id}`, [
        button("Retry placing the order", ACTION_RETRY, record.id),
      ]),
    );
  }
  return {
    text: truncate(
      `${KIND_LABEL[record.kind]} request from <@${record.requester.userId}>: ${escapeMrkdwn(record.title)} — ${record.status}`,
      3000,
    ),
    blocks: withSandboxLabel(blocks, record.sandbox),
  };
}

/** The modal asking an approver why they reject. */
export function rejectReasonModal(record: ApprovalRequest): ModalView {
  return {
    type: "modal",
    callback_id: VIEW_REJECT_REASON,
    private_metadata: record.id,
    title: { type: "plain_text", text: "Reject request" },
    submit: { type: "plain_text", text: "Reject" },
    close: { type: "plain_text", text: "Cancel" },
    blocks: [
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
  };
}

/**
 * `/connect approvals` (waiting for a decision, oldest first) and `/connect approvals all` (the
 * audit trail: every request with its decision and outcome, newest first).
 */
export function approvalsListView(
  records: readonly ApprovalRequest[],
  links: ReadonlyMap<string, string>,
  scope: "pending" | "all",
): Reply {
  if (records.length === 0) {
    const text =
      scope === "pending"
        ? "No approval requests are waiting."
        : "No approval requests in the last 90 days.";
    return { text, blocks: [section(scope === "pending" ? `${text} :tada:` : text)] };
  }
  const count = `${records.length} request${records.length === 1 ? "" : "s"}`;
  const blocks: KnownBlock[] = [
    header(scope === "pending" ? `${count} waiting for approval` : `${count}, newest first`),
  ];
  for (const record of records.slice(0, 40)) {
    const link = links.get(record.id);
    // The link is the message's permalink from Slack's own API, never text from a person.
    const title = link ? `<${link}|${escapeMrkdwn(record.title)}>` : escapeMrkdwn(record.title);
    const price = record.price ? ` · ${escapeMrkdwn(record.price.text)}` : "";
    const state = scope === "all" ? `\n${approvalStatusLine(record)}` : "";
    blocks.push(
      section(
        `*${KIND_LABEL[record.kind]}:* ${title}\nby <@${record.requester.userId}> on ${slackDate(record.createdAt)}${price} · \`${record.id}\`${state}`,
      ),
    );
  }
  if (records.length > 40) blocks.push(context(`…and ${records.length - 40} more.`));
  if (scope === "pending")
    blocks.push(context("Every request, decided or not: `/connect approvals all`."));
  return {
    text: scope === "pending" ? `${count} waiting for approval` : `${count} of the last 90 days`,
    blocks,
  };
}

/** A Slack date token, shown in each reader's time zone. */
function slackDate(iso: string): string {
  const seconds = Math.floor(Date.parse(iso) / 1000);
  const shown = escapeMrkdwn(iso);
  return Number.isFinite(seconds)
    ? `<!date^${seconds}^{date_short_pretty} {time}|${shown}>`
    : shown;
}

const WAITING_ON: Record<string, string> = {
  PENDING:
    "waiting for the other company to accept the connection — this is a normal wait, not a failure",
  PENDING_ACCEPTANCE:
    "waiting for the cloud or partner to accept — this is a normal wait, not a failure",
  CREATING: "being created by the provider",
};

/** What happens next, said in the thread once the provider accepted the order. */
export function placedNextSteps(request: ApprovalRequest, result: PlacementResult): string {
  const status = result.status ? ` is *${escapeMrkdwn(result.status)}*` : " was accepted";
  switch (request.kind) {
    case "port":
    case "edge": {
      const order = (result.record ?? {}) as PortOrder;
      const loa = order.loaStatus ? ` (LOA: ${escapeMrkdwn(order.loaStatus)})` : "";
      return `Order \`${escapeMrkdwn(result.providerId ?? "?")}\`${status}${loa}.\n*Next:* ${nextLoaStep(order)}\nI'll post every status change in this thread.`;
    }
    case "layer2":
    case "iod": {
      const waiting = result.status ? WAITING_ON[result.status.toUpperCase()] : undefined;
      const what = request.kind === "layer2" ? "Connection" : "IO-D service";
      return `${what} \`${escapeMrkdwn(result.providerId ?? "?")}\`${status}${waiting ? `: ${waiting}` : ""}.`;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The thread's and the requester's messages (posted by src/slack/approvals.ts). Everything a
// person or the provider wrote — title, reason, port name, error text — is escaped here.

/** The requester's answer once the request is posted for approval. */
export function submittedText(title: string, permalink: string | undefined): string {
  // The permalink comes from Slack's chat.getPermalink, not from a person.
  const where = permalink ? `<${permalink}|in the approvals channel>` : "in the approvals channel";
  return `:inbox_tray: Your request *${escapeMrkdwn(title)}* is waiting for approval ${where}. I'll post progress in its thread.`;
}

/** The approvals thread's reply to a rejection. */
export function rejectedThreadText(by: string, reason: string): string {
  return `:no_entry: Rejected by <@${by}>: ${escapeMrkdwn(reason)}`;
}

/** The requester's DM about a rejection. */
export function rejectedRequesterText(title: string, by: string, reason: string): string {
  return `:no_entry: Your request *${escapeMrkdwn(title)}* was rejected by <@${by}>: ${escapeMrkdwn(reason)}`;
}

/** The requester's DM once the order is placed. */
export function orderedRequesterText(title: string, providerId: string | undefined): string {
  const id = providerId ? ` (\`${escapeMrkdwn(providerId)}\`)` : "";
  return `:rocket: Your request *${escapeMrkdwn(title)}* was approved and ordered${id}.`;
}

/** The approvals thread's reply when the provider refused the order. */
export function placementFailedText(message: string): string {
  return `:x: The provider refused the order: ${escapeMrkdwn(message)}\nNothing was ordered. An approver can fix the cause and press *Retry*.`;
}

/**
 * The approvals thread's escalation when the provider's outcome is unknown: `lookFor` is the
 * port name (or the title) the requester chose, so it is escaped like any outside text — this
 * is exactly where approvers are told to go and look.
 */
export function escalationText(reason: string, lookFor: string): string {
  return (
    `:rotating_light: I could not tell whether the order reached the provider: ${escapeMrkdwn(reason)} I will not send it again. ` +
    `Please check the provider's portal for *${escapeMrkdwn(lookFor)}* before doing anything else.`
  );
}
