import type { KnownBlock, ModalView } from "@slack/types";
import type {
  ApprovalKind,
  ApprovalRequest,
  ApprovalRequirement,
  HistoryEntry,
  PlacementError,
  Refusal,
} from "../src/approvals/index.js";
import { iodBillingText } from "../src/domain/iod.js";
import { isWithdrawn, WITHDRAWN_NOTE } from "../src/domain/withdrawal.js";
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
import { type OrderProgress, stateBlockId, trackedOutcomeLine } from "./orderProgress.js";
import { describeRefusal } from "./refusals.js";
import type { Reply } from "./reply.js";

export const ACTION_APPROVE = "approval_approve";
export const ACTION_REJECT = "approval_reject";
export const ACTION_RETRY = "approval_retry";
/** The no-dead-ends buttons of a request whose outcome is unknown. */
export const ACTION_LOOK_UP_AGAIN = "approval_look_up_again";
export const ACTION_PLACE_AGAIN = "approval_place_again";
export const ACTION_MARK_FAILED = "approval_mark_failed";
/**
 * The requester's Withdraw button (its value is the request id). One id wherever the button is
 * shown — the requester's confirmation, App Home, the request card — and one listener.
 */
export const ACTION_WITHDRAW = "approval_withdraw";
export const VIEW_REJECT_REASON = "approval_reject_reason";
export const BLOCK_REJECT_REASON = "reject_reason";
export const INPUT_REJECT_REASON = "reason";

/**
 * What the last look-up of an unknown outcome found (the placement journal's escalation
 * causes): only `not-found` offers *Place again*.
 */
export type LookUpOutcome = "not-found" | "lookup-failed" | "not-lookable";

/** An escalation: what the look-up found, and its detail (already safe to show). */
export interface EscalationView {
  kind: LookUpOutcome;
  detail: string;
}

const STATUS_LINE: Record<ApprovalRequest["status"], string> = {
  pending: ":hourglass_flowing_sand: *Waiting for approval*",
  approved: ":white_check_mark: *Approved* — placing the order",
  rejected: ":no_entry: *Rejected*",
  cancelled: ":heavy_multiplication_x: *Cancelled by the requester*",
  executing: ":gear: *Approved* — placing the order now",
  placed: ":rocket: *Ordered*",
  failed: ":x: *Not ordered*",
  unknown:
    ":rotating_light: *Outcome unknown* — sent to the provider without an answer; see the thread",
};

/**
 * Each order kind in words. Here, not in src/orders: views import types only, and src/orders'
 * table takes its labels from this one (a missing kind is a compile error in both).
 */
export const ORDER_KIND_LABEL: Record<ApprovalKind, string> = {
  port: "Port order",
  layer2: "Layer 2 connection",
  iod: "IO-D service",
  edge: "Edge port order",
};

/** The status in plain words, as the message's status line says it (the fallback text). */
/** The status line's headline in plain words (for the fallback text). */
function statusWords(record: ApprovalRequest, progress?: OrderProgress): string {
  return stateHeadline(record, progress)
    .replace(/:[a-z_]+:\s*/g, "")
    .replace(/\*/g, "");
}

function kindLabel(record: ApprovalRequest): string {
  return ORDER_KIND_LABEL[record.kind];
}

/** The state (a withdrawal said as such); for a placed order, how it ended (tracking) or its latest status. */
function stateHeadline(record: ApprovalRequest, progress?: OrderProgress): string {
  if (isWithdrawn(record)) return ":leftwards_arrow_with_hook: *Withdrawn by the requester*";
  const ended = record.status === "placed" ? trackedOutcomeLine(progress) : undefined;
  const tracked =
    record.status === "placed" && !ended && progress?.status
      ? `${STATUS_LINE.placed} · now *${escapeMrkdwn(progress.status)}*`
      : undefined;
  return ended ?? tracked ?? STATUS_LINE[record.status];
}

/**
 * The status line alone (also used in thread replies). A placed order whose tracking ended
 * shows how it ended (done, failed, cancelled), not "Ordered" forever; while it is tracked, its
 * latest status.
 */
export function approvalStatusLine(record: ApprovalRequest, progress?: OrderProgress): string {
  const parts = [stateHeadline(record, progress)];
  if (record.decision) {
    // A request approved by several people names them all, in the order they approved.
    const approvers =
      record.decision.action === "approve" && (record.approvals?.length ?? 0) > 1
        ? listOfMentions(record.approvals!.map((approval) => approval.by))
        : `<@${record.decision.by}>`;
    parts.push(`${record.decision.action === "approve" ? "approved" : "rejected"} by ${approvers}`);
  }
  if (record.decision?.reason) parts.push(`reason: ${escapeMrkdwn(record.decision.reason)}`);
  if (record.status === "placed" && record.result?.providerId) {
    const what = record.result.resource === "port" ? "port" : "provider id";
    parts.push(`${what} \`${escapeMrkdwn(record.result.providerId)}\``);
  }
  if ((record.status === "failed" || record.status === "unknown") && record.error) {
    parts.push(escapeMrkdwn(record.error.message));
  }
  return parts.join(" · ");
}

/**
 * The approval request in the approvals channel: who asked, exactly what will be ordered
 * (every field that goes to the provider), the price, the state, and the buttons that fit it.
 * Buttons live on this message only: a click is honoured only from here (issue 20).
 */
export function approvalMessageView(
  record: ApprovalRequest,
  options: { lastLookUp?: LookUpOutcome; progress?: OrderProgress } = {},
): Reply {
  const blocks: KnownBlock[] = [
    header(`${kindLabel(record)}: ${record.title}`),
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
  if (record.requirement) blocks.push(section(requirementText(record.requirement, record)));
  blocks.push({
    ...section(approvalStatusLine(record, options.progress)),
    block_id: stateBlockId(record, options.progress),
  });
  const buttons = approverButtons(record, options.lastLookUp);
  if (buttons.length > 0) blocks.push(actions(`approval_${record.id}`, buttons));
  return {
    text: truncate(
      `${kindLabel(record)}: ${escapeMrkdwn(record.title)} · Requested by <@${record.requester.userId}> · ${statusWords(record, options.progress)}`,
      3000,
    ),
    blocks: withSandboxLabel(blocks, record.sandbox),
  };
}

/**
 * The policy rule a request was created under, and its progress: "*Rule:* 1,000 a month or
 * more — 2 approvals from network or finance, at least one from finance" then
 * "1 of 2 approvals: <@U…>" (or "0 of 2 approvals" before the first).
 */
export function requirementText(
  requirement: ApprovalRequirement,
  record: Pick<ApprovalRequest, "approvals" | "status">,
): string {
  const rule = `*Rule:* ${escapeMrkdwn(requirement.rule)} — ${requirementWords(requirement)}`;
  const approvals = record.approvals ?? [];
  // A single approval's record keeps no list: its decision says who.
  if (requirement.approvals <= 1) return rule;
  const who = approvals.length > 0 ? `: ${listOfMentions(approvals.map((a) => a.by))}` : "";
  let progress = `${approvals.length} of ${requirement.approvals} approvals${who}`;
  const group = requirement.atLeastOneFrom;
  if (record.status === "pending" && group && !approvals.some((a) => a.inGroup)) {
    progress += ` · one must come from *${escapeMrkdwn(group.name)}*`;
  }
  return `${rule}\n${progress}`;
}

/** "2 approvals from network or finance, at least one from finance", from the rule as written. */
export function requirementWords(requirement: ApprovalRequirement): string {
  const count = requirement.approvals === 1 ? "1 approval" : `${requirement.approvals} approvals`;
  const from =
    requirement.from.length > 0
      ? ` from ${requirement.from.map(approverRefText).join(" or ")}`
      : "";
  const group = requirement.atLeastOneFrom
    ? `, at least one from ${approverRefText(requirement.atLeastOneFrom.name)}`
    : "";
  return `${count}${from}${group}`;
}

/**
 * A group name in bold, a Slack user id as a mention, a user group id as its id: a user group
 * mention would notify every member each time a request is posted.
 */
export function approverRefText(ref: string): string {
  if (/^[UW][A-Z0-9]{2,}$/.test(ref)) return `<@${ref}>`;
  if (/^S[A-Z0-9]{2,}$/.test(ref)) return `user group \`${ref}\``;
  return `*${escapeMrkdwn(ref)}*`;
}

/** "<@A>", "<@A> and <@B>", "<@A>, <@B> and <@C>". Ids only (never text a person typed). */
function listOfMentions(userIds: readonly string[]): string {
  const mentions = userIds.map((id) => `<@${escapeMrkdwn(id)}>`);
  if (mentions.length <= 1) return mentions.join("");
  return `${mentions.slice(0, -1).join(", ")} and ${mentions.at(-1)}`;
}

/** The way forward from each state that needs a person; none where nothing is left to decide. */
function approverButtons(record: ApprovalRequest, lastLookUp: LookUpOutcome | undefined) {
  switch (record.status) {
    case "pending":
      return [
        record.kind === "iod"
          ? iodApproveButton(record)
          : button("Approve", ACTION_APPROVE, record.id, "primary"),
        rejectButton(record),
      ];
    case "failed":
      return [button("Retry placing the order", ACTION_RETRY, record.id)];
    case "unknown": {
      const buttons = [button("Look up again", ACTION_LOOK_UP_AGAIN, record.id, "primary")];
      if (lastLookUp === "not-found") buttons.push(placeAgainButton(record));
      buttons.push(markFailedButton(record));
      return buttons;
    }
    default:
      return [];
  }
}

/**
 * IO-D has no price to approve, only a way of billing: Approve asks once more, saying how the
 * service is billed and where its rate is shown, before anything is ordered.
 */
function iodApproveButton(record: ApprovalRequest) {
  return {
    ...button("Approve", ACTION_APPROVE, record.id, "primary"),
    confirm: {
      title: { type: "plain_text" as const, text: "Approve this IO-D service?" },
      text: {
        type: "mrkdwn" as const,
        text: truncate(escapeMrkdwn(record.price?.text ?? iodBillingText()), 300),
      },
      confirm: { type: "plain_text" as const, text: "Approve" },
      deny: { type: "plain_text" as const, text: "Cancel" },
    },
  };
}

/** Reject asks first, in red (Slack's `danger` confirm), then opens the form for the reason. */
function rejectButton(record: ApprovalRequest) {
  return {
    ...button("Reject", ACTION_REJECT, record.id, "danger"),
    confirm: {
      title: { type: "plain_text" as const, text: "Reject this request?" },
      text: {
        type: "mrkdwn" as const,
        text: truncate(
          `Nothing will be ordered for *${escapeMrkdwn(record.title)}*. Next you give a reason, which <@${record.requester.userId}> receives.`,
          300,
        ),
      },
      confirm: { type: "plain_text" as const, text: "Reject" },
      deny: { type: "plain_text" as const, text: "Cancel" },
      style: "danger" as const,
    },
  };
}

function placeAgainButton(record: ApprovalRequest) {
  return {
    ...button("Place again", ACTION_PLACE_AGAIN, record.id, "danger"),
    confirm: {
      title: { type: "plain_text" as const, text: "Place the order again?" },
      text: {
        type: "mrkdwn" as const,
        text: truncate(
          `The first order was sent, and the provider never answered. A look-up did not find it, but it may still have reached the provider. Placing again can create a *second order* (and a second bill) for *${escapeMrkdwn(record.reconcileKey ?? record.title)}*. Check the provider's portal first.`,
          300,
        ),
      },
      confirm: { type: "plain_text" as const, text: "Place again" },
      deny: { type: "plain_text" as const, text: "Cancel" },
      style: "danger" as const,
    },
  };
}

function markFailedButton(record: ApprovalRequest) {
  return {
    ...button("Mark as failed", ACTION_MARK_FAILED, record.id),
    confirm: {
      title: { type: "plain_text" as const, text: "Mark as failed?" },
      text: {
        type: "mrkdwn" as const,
        text: truncate(
          `Nothing more will be done for this request and its name *${escapeMrkdwn(record.reconcileKey ?? record.title)}* can be asked for again. If the order did reach the provider, it will not be followed here.`,
          300,
        ),
      },
      confirm: { type: "plain_text" as const, text: "Mark as failed" },
      deny: { type: "plain_text" as const, text: "Cancel" },
    },
  };
}

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

/**
 * `/connect approvals` (waiting for a decision, oldest first) and `/connect approvals all` (the
 * audit trail: every request with its decision and outcome, newest first).
 */
export function approvalsListView(
  records: readonly ApprovalRequest[],
  links: ReadonlyMap<string, string>,
  scope: "pending" | "all",
  /** What tracking said of placed orders, by request id (their final outcome once ended). */
  progress: ReadonlyMap<string, OrderProgress> = new Map(),
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
    header(
      scope === "pending"
        ? `${count} waiting for approval`
        : `${count} of the last 90 days, newest first`,
    ),
  ];
  for (const record of records.slice(0, 40)) {
    const link = links.get(record.id);
    // The link is the message's permalink from Slack's own API, never text from a person.
    const title = link ? `<${link}|${escapeMrkdwn(record.title)}>` : escapeMrkdwn(record.title);
    const price = record.price ? ` · ${escapeMrkdwn(record.price.text)}` : "";
    const state = scope === "all" ? `\n${approvalStatusLine(record, progress.get(record.id))}` : "";
    blocks.push(
      section(
        `*${kindLabel(record)}:* ${title}\nby <@${record.requester.userId}> ${slackDate(record.createdAt)}${price} · \`${record.id}\`${state}`,
      ),
    );
  }
  if (records.length > 40) blocks.push(context(`…and ${records.length - 40} more.`));
  if (scope === "pending")
    blocks.push(context("Every request, decided or not: `/connect approvals all`."));
  return {
    text:
      scope === "pending"
        ? `${count} waiting for approval`
        : `${count} of the last 90 days, newest first`,
    blocks,
  };
}

/** A Slack date token, shown in each reader's time zone: "today at 03:41". */
function slackDate(iso: string): string {
  const seconds = Math.floor(Date.parse(iso) / 1000);
  const shown = escapeMrkdwn(iso);
  return Number.isFinite(seconds)
    ? `<!date^${seconds}^{date_short_pretty} at {time}|${shown}>`
    : shown;
}

/*
 * The approvals thread: one line per step of the request, in the order the steps happened
 * (src/orders posts them through the notifier's per-channel queue).
 */

/** The thread line for a person's step (a history entry), or undefined for a worker's step. */
export function personStepText(record: ApprovalRequest, entry: HistoryEntry): string | undefined {
  const who = `<@${entry.actor}>`;
  const name = `*${escapeMrkdwn(record.reconcileKey ?? record.title)}*`;
  const needed = record.requirement?.approvals ?? 1;
  if (entry.from === "pending" && entry.to === "pending") {
    // One approval of several: the count is this entry's place among the approvals.
    const at = record.history.indexOf(entry);
    const count = record.history
      .slice(0, at >= 0 ? at + 1 : undefined)
      .filter((step) => step.from === "pending" && step.to === "pending").length;
    const left = needed - count;
    const group = record.requirement?.atLeastOneFrom;
    const fromGroup =
      group && !record.approvals?.some((a) => a.inGroup)
        ? `, from *${escapeMrkdwn(group.name)}*`
        : "";
    return `:white_check_mark: Approved by ${who} (${count} of ${needed}). Waiting for ${left} more approval${left === 1 ? "" : "s"}${fromGroup}.`;
  }
  if (entry.to === "cancelled" && entry.note === WITHDRAWN_NOTE) {
    return `:leftwards_arrow_with_hook: ${who} withdrew the request. Nothing will be ordered, and the name ${name} can be asked for again.`;
  }
  if (entry.to === "approved") {
    if (entry.from === "pending")
      return needed > 1
        ? `:white_check_mark: Approved by ${who} (${needed} of ${needed}). Placing the order now.`
        : `:white_check_mark: Approved by ${who}. Placing the order now.`;
    if (entry.from === "failed") return `:repeat: ${who} asked to place the order again.`;
    if (entry.from === "unknown")
      return `:repeat: ${who} chose to place the order again after a look-up found nothing. Placing it now.`;
  }
  if (entry.to === "rejected" && entry.from === "pending") {
    return `:no_entry: Rejected by ${who}: ${escapeMrkdwn(record.decision?.reason ?? entry.note ?? "")}`;
  }
  if (entry.to === "failed" && entry.from === "unknown" && /^[UW][A-Z0-9]{2,}$/.test(entry.actor)) {
    return `:heavy_multiplication_x: ${who} marked the request as failed. Nothing more will be done here, and the name ${name} can be asked for again.`;
  }
  return undefined;
}

/** The requester's direct message when their request is rejected. */
export function rejectedRequesterText(record: ApprovalRequest): string {
  const by = record.decision?.by ? ` by <@${record.decision.by}>` : "";
  return `:no_entry: Your request *${escapeMrkdwn(record.title)}* was rejected${by}: ${escapeMrkdwn(record.decision?.reason ?? "no reason given")}`;
}

/** The thread line once the order is placed (or found at the provider). */
export function placedThreadText(record: ApprovalRequest, nextSteps: string): string {
  return `${approvalStatusLine(record)}\n${nextSteps}`;
}

/** The requester's direct message once the order is placed. */
export function placedRequesterText(record: ApprovalRequest): string {
  const id = record.result?.providerId ? ` (\`${escapeMrkdwn(record.result.providerId)}\`)` : "";
  return `:rocket: Your request *${escapeMrkdwn(record.title)}* was approved and ordered${id}.`;
}

/** The provider refused: nothing was ordered. */
export function failedThreadText(error: PlacementError): string {
  return `:x: The provider refused the order: ${escapeMrkdwn(error.message)}\nNothing was ordered. An approver can fix the cause and press *Retry placing the order*.`;
}

/**
 * The order was sent and no answer came back: say what the look-up found, and what approvers
 * can do with the buttons on the request. Never "the provider could not be asked" when it was.
 */
export function escalationText(
  record: ApprovalRequest,
  cause: EscalationView,
  options: { again?: boolean } = {},
): string {
  const name = `*${escapeMrkdwn(record.reconcileKey ?? record.title)}*`;
  const detail = cause.detail ? ` (${escapeMrkdwn(cause.detail)})` : "";
  const again = options.again ? "An approver had me look the order up again. " : "";
  const opening = `:rotating_light: ${again}I sent the order for ${name} but got no answer, so I could not tell whether the order reached the provider. I will not send it again on my own.`;
  switch (cause.kind) {
    case "not-found":
      return `${opening}\nA look-up at the provider found nothing by that name${detail}; it may still appear. Approvers: *Look up again* later, or, once you have checked the provider's portal, *Place again* (a second order if the first did arrive) or *Mark as failed*.`;
    case "lookup-failed":
      return `${opening}\nLooking it up at the provider failed${detail}. Approvers: *Look up again* in a few minutes, or check the provider's portal and *Mark as failed* if it is not there.`;
    case "not-lookable":
      return `${opening}\nThis order cannot be looked up until the provider has created it${detail}. Approvers: check the provider's portal for ${name}; *Look up again* later, or *Mark as failed* if it is not there.`;
  }
}

// ---------------------------------------------------------------------------------------------
// Everything a person or the provider wrote — title, reason, port name, error text — is escaped
// here, in the builders of these messages.

/** The requester's answer once the request is posted for approval. */
export function submittedText(title: string, permalink: string | undefined): string {
  // The permalink comes from Slack's chat.getPermalink, not from a person.
  const where = permalink ? `<${permalink}|in the approvals channel>` : "in the approvals channel";
  return `:inbox_tray: Your request *${escapeMrkdwn(title)}* is waiting for approval ${where}. I'll post progress in its thread.`;
}

/**
 * The requester's confirmation: where the request is, its id, and a Withdraw button (the
 * request can be withdrawn while it waits; `/connect withdraw <id>` does the same).
 */
export function submittedView(
  request: Pick<ApprovalRequest, "id" | "title" | "sandbox">,
  permalink: string | undefined,
): Reply {
  const text = submittedText(request.title, permalink);
  const blocks: KnownBlock[] = [
    section(text),
    context(
      `Request \`${request.id}\` · changed your mind? *Withdraw* it while it waits, or \`/connect withdraw ${request.id}\``,
    ),
    actions(`withdraw_${request.id}`, [withdrawButton(request)]),
  ];
  return { text, blocks: withSandboxLabel(blocks, request.sandbox) };
}

/** The Withdraw button, asking first (withdrawing cannot be undone). */
export function withdrawButton(request: Pick<ApprovalRequest, "id" | "title">) {
  return {
    ...button("Withdraw", ACTION_WITHDRAW, request.id),
    confirm: {
      title: { type: "plain_text" as const, text: "Withdraw the request?" },
      text: {
        type: "mrkdwn" as const,
        text: truncate(
          `*${escapeMrkdwn(request.title)}* will not be ordered, and approvers will see it was withdrawn.`,
          300,
        ),
      },
      confirm: { type: "plain_text" as const, text: "Withdraw" },
      deny: { type: "plain_text" as const, text: "Keep it" },
    },
  };
}

/** The requester's answer once their request is withdrawn (replaces their confirmation). */
export function withdrawnView(record: ApprovalRequest): Reply {
  const name = escapeMrkdwn(record.reconcileKey ?? record.title);
  const text = `:leftwards_arrow_with_hook: You withdrew *${escapeMrkdwn(record.title)}* (\`${record.id}\`). Nothing will be ordered, and the name *${name}* can be asked for again.`;
  return { text, blocks: withSandboxLabel([section(text)], record.sandbox) };
}

/** Why a withdrawal changed nothing, said to the person who tried. */
export function withdrawRefusedText(refusal: Refusal): string {
  if (refusal.ok === false && "record" in refusal && refusal.reason === "not-pending") {
    const record = refusal.record;
    const decided = record.decision ? ` by <@${record.decision.by}>` : "";
    const why =
      record.status === "rejected"
        ? `it was already rejected${decided}`
        : record.status === "cancelled"
          ? "it was already withdrawn"
          : `it was already approved${decided}, and the order is ${record.status === "placed" ? "placed" : record.status === "failed" ? "not placed (it failed)" : "being placed"}`;
    return `:no_entry: You can't withdraw *${escapeMrkdwn(record.title)}*: ${why}. Only a request still waiting for approval can be withdrawn.`;
  }
  return `:no_entry: ${describeRefusal(refusal)}`;
}
