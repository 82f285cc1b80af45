// What a Workflow Builder step says (issue 30): the outputs a finished request step hands to the
// next step of the workflow, and the error a person reads in the workflow's run history.
// Outputs are mrkdwn-escaped (a workflow pastes them into messages). An error is plain text read
// in the run history: people and user groups read as @names and @handles, never as `<@U…>` or
// `&lt;…&gt;`, and what is left of Slack's `<…>` syntax is made inert with look-alike angle
// brackets (‹ ›), so a title carrying `<!channel>` cannot ping anyone wherever it is pasted.
import type { ApprovalRequest } from "../../src/approvals/types.js";
import { isMarkedFailed } from "../../src/domain/markedFailed.js";
import { ORDER_KIND_LABEL } from "../approvals/approvals.js";
import { escapeMrkdwn, truncate } from "../blocks.js";

/** Slack shows a step's error in one line of the run history: kept short. */
const ERROR_MAX = 500;
const SUMMARY_MAX = 1_000;

/** How the people and user groups an error refers to read (names looked up beforehand). */
export interface StepNames {
  person(userId: string): string;
  group(groupId: string): string;
}

/** Names unknown: people and groups read as their ids. */
export const NO_STEP_NAMES: StepNames = { person: (id) => id, group: (id) => id };

/** A person's name or a group's handle is never longer than this in an error. */
const NAME_MAX = 80;

const PERSON_REF = /<@([UW][A-Z0-9]+)(?:\|[^<>]*)?>/g;
const GROUP_REF = /<!subteam\^([A-Z0-9]+)(?:\|([^<>]*))?>/g;

/** The people and user groups a text refers to (`<@U…>`, `<!subteam^S…>`), for looking up. */
export function stepTextReferences(text: string): { people: string[]; groups: string[] } {
  const people = [...text.matchAll(PERSON_REF)].map((m) => m[1]!);
  const groups = [...text.matchAll(GROUP_REF)].map((m) => m[1]!);
  return { people: [...new Set(people)], groups: [...new Set(groups)] };
}

/**
 * A step's error as plain text: `<@U…>` → "@name", `<!subteam^S…>` → "@handle", and any other
 * `<` or `>` replaced by ‹ and › so no Slack control sequence (`<!channel>`, a link) survives.
 * `max` clips the result with "…".
 */
export function plainStepText(text: string, names: StepNames, max?: number): string {
  // Clipped before and after: a name is longer than its reference, and a 40 kB text full of
  // references must not grow into megabytes on its way to a 1,000-character error.
  const clip = (t: string) => (max === undefined ? t : truncate(t, max));
  const name = (n: string) => truncate(n.trim(), NAME_MAX);
  const plain = clip(text)
    .replace(PERSON_REF, (_, id: string) => `@${name(names.person(id))}`)
    .replace(GROUP_REF, (_, id: string, label?: string) => {
      const handle = name(label?.trim() || names.group(id));
      return handle.startsWith("@") ? handle : `@${handle}`;
    })
    .replace(/</g, "‹")
    .replace(/>/g, "›");
  return clip(plain);
}

/** The outputs of `request_port_order` / `request_layer2_connection` once the order is placed. */
export function placedStepOutputs(record: ApprovalRequest): Record<string, string> {
  const orderId = record.result?.providerId ?? "";
  const status = record.result?.status ?? "placed";
  // The provider's words: escaped like every output, as a later step may post them.
  return {
    request_id: record.id,
    order_id: escapeMrkdwn(orderId),
    status: escapeMrkdwn(status),
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
 * "Rejected by @Alex: budget frozen this quarter". `names` gives people's display names and
 * groups' handles (the decider's, and those a reason refers to).
 */
export function endedStepError(record: ApprovalRequest, names: StepNames): string {
  const nameOf = (id: string) => names.person(id);
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
    case "failed": {
      if (isMarkedFailed(record)) {
        const by = last?.actor;
        text = `Marked as failed${by ? ` by @${nameOf(by)}` : ""} after its outcome stayed unknown`;
        break;
      }
      // The request itself can still be retried; this step has ended, and says so.
      const reason = record.error?.message?.trim().replace(/[.\s]+$/, "") || "no reason given";
      text = `The provider did not place the order: ${reason}. An approver may still retry it in the approvals channel; this workflow does not wait for that`;
      break;
    }
    default:
      text = `The request ended as ${record.status}`;
  }
  return plainStepText(`${text} (request ${record.id})`, names, ERROR_MAX);
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
