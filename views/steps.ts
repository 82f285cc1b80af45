// What a Workflow Builder step says (issue 30): the outputs a finished request step hands to the
// next step of the workflow, and the error a person reads in the workflow's run history. Plain
// text (a workflow may paste it into any message), with <, > and & escaped so that a title
// carrying `<!channel>` cannot ping anyone wherever the next step posts it.
import type { ApprovalRequest } from "../src/approvals/types.js";
import { ORDER_KIND_LABEL } from "./approvals.js";
import { escapeMrkdwn } from "./blocks.js";

/** Slack shows a step's error in one line of the run history: kept short. */
const ERROR_MAX = 500;
const SUMMARY_MAX = 1_000;

/** The outputs of `request_port_order` / `request_layer2_connection` once the order is placed. */
export function placedStepOutputs(record: ApprovalRequest): Record<string, string> {
  const orderId = record.result?.providerId ?? "";
  const status = record.result?.status ?? "placed";
  return {
    request_id: record.id,
    order_id: orderId,
    status,
    summary: requestStepSummary(record, orderId, status),
  };
}

/** One paragraph: what was ordered, for how much, and where it stands. */
export function requestStepSummary(
  record: ApprovalRequest,
  orderId: string,
  status: string,
): string {
  const kind = ORDER_KIND_LABEL[record.kind];
  const price = record.price?.text ? ` — ${record.price.text}` : "";
  const order = orderId ? ` Order ${orderId}, status ${status}.` : "";
  const text = `${kind} "${record.title}"${price}. Request ${record.id}.${order}${sandboxNote(record)}`;
  return escapeMrkdwn(text, SUMMARY_MAX);
}

/**
 * Why a request step ended without an order, as a person reads it in the run history:
 * "Rejected by @Alex: budget frozen this quarter". `nameOf` gives a person's display name.
 */
export function endedStepError(
  record: ApprovalRequest,
  nameOf: (userId: string) => string,
): string {
  const last = record.history.at(-1);
  let text: string;
  switch (record.status) {
    case "rejected": {
      const by = record.decision?.by ?? last?.actor;
      const reason = record.decision?.reason?.trim();
      text = `Rejected by ${by ? `@${nameOf(by)}` : "an approver"}${reason ? `: ${reason}` : ""}`;
      break;
    }
    case "cancelled": {
      const by = last?.actor;
      text =
        by && by === record.requester.userId
          ? `Withdrawn by @${nameOf(by)} before it was approved`
          : `Cancelled${last?.note ? `: ${last.note}` : ""}`;
      break;
    }
    case "failed":
      text = `The provider did not place the order: ${record.error?.message ?? "no reason given"}`;
      break;
    default:
      text = `The request ended as ${record.status}`;
  }
  return escapeMrkdwn(`${text} (request ${record.id})`, ERROR_MAX);
}

/**
 * Posted in the request's thread when Slack answers that the step that asked for it is over.
 * Said as Slack's word: the one other way to get that answer is this bot's own end sent twice
 * (a crash between Slack's answer and the outbox noting it), where the workflow no longer waits
 * either.
 */
export function stepGoneText(record: ApprovalRequest): string {
  return `:information_source: The workflow that asked for *${escapeMrkdwn(record.title, 200)}* no longer waits for it: Slack says its step had already ended (the workflow was stopped or timed out). The request itself is not affected.`;
}

function sandboxNote(record: ApprovalRequest): string {
  return record.sandbox ? " (sandbox: nothing was really ordered)" : "";
}
