import type { Button, KnownBlock } from "@slack/types";
import type {
  ApprovalKind,
  ApprovalRequest,
  ApprovalRequirement,
  Refusal,
} from "../../src/approvals/index.js";
import {
  type ApproveConfirmation,
  approveConfirmation,
  DEFAULT_APPROVE_CONFIRM_FROM,
} from "../../src/domain/approveConfirm.js";
import { iodBillingText } from "../../src/domain/catalog/iod.js";
import { DEFAULT_CURRENCY, formatMoney } from "../../src/domain/money.js";
import { ORDER_KIND_LABEL as KIND_LABELS } from "../../src/domain/orderKinds.js";
import { isSlackUserGroupId, isSlackUserId } from "../../src/domain/slackIds.js";
import type { NextStep, RequestReadModel } from "../../src/orders/readModel.js";
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
} from "../blocks.js";
import type { Reply } from "../reply.js";
import { listOfMentions, stateBlockIdOf, stateDm, stateLine } from "../requestState.js";
import { describeRefusal } from "./refusals.js";

/**
 * The approval message in the approvals channel (what will be ordered, its state, the buttons
 * that fit it), its status line and the rule it was created under, and the requester's
 * confirmation and withdrawal answers. The thread lines are in approvalThread.ts, the lists in
 * approvalsList.ts, the reject reason modal in rejectModal.ts.
 */

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

/** What the last look-up of an unknown outcome found: src/orders/readModel.ts owns the shape. */
export type { LookUpOutcome } from "../../src/orders/readModel.js";

/** Each order kind in words: src/domain/orderKinds.ts, re-exported for the views that use it. */
export const ORDER_KIND_LABEL: Record<ApprovalKind, string> = KIND_LABELS;

/**
 * The status line (also `/connect approvals all`): the state as every surface words it
 * (views/requestState.ts), from the read model.
 */
export function approvalStatusLine(model: RequestReadModel): string {
  return stateLine(model);
}

/**
 * The approval request in the approvals channel: who asked, exactly what will be ordered
 * (every field that goes to the provider), the price, the state, and the buttons that fit it.
 * Buttons live on this message only: a click is honoured only from here (issue 20). Rendered
 * from the read model (src/orders/readModel.ts), as the card and App Home are.
 */
export function approvalMessageView(
  model: RequestReadModel,
  options: {
    /** APPROVE_CONFIRM_FROM: Approve asks first from this monthly amount (default 1,000). */
    approveConfirmFrom?: number;
  } = {},
): Reply {
  const blocks: KnownBlock[] = [
    header(`${model.kindLabel}: ${model.title}`),
    context(`Requested by <@${model.requester}> · request \`${model.id}\``),
  ];
  for (let i = 0; i < model.summary.length; i += LIMITS.sectionFields) {
    blocks.push(
      fields(
        model.summary
          .slice(i, i + LIMITS.sectionFields)
          .map((line) => [escapeMrkdwn(line.label), escapeMrkdwn(line.value)] as const),
      ),
    );
  }
  if (model.money.text) blocks.push(section(`*Price:* ${escapeMrkdwn(model.money.text)}`));
  if (model.requirement) {
    blocks.push(
      section(
        requirementText(model.requirement, {
          approvals: [...model.approvalsSoFar],
          status: model.status,
        }),
      ),
    );
  }
  blocks.push({ ...section(stateLine(model)), block_id: stateBlockIdOf(model) });
  const buttons = approverButtons(model, options.approveConfirmFrom);
  if (buttons.length > 0) blocks.push(actions(`approval_${model.id}`, buttons));
  return {
    text: truncate(
      `${model.kindLabel}: ${escapeMrkdwn(model.title)} · Requested by <@${model.requester}> · ${escapeMrkdwn(model.state.detail ? `${model.state.words}: ${model.state.detail}` : model.state.words)}`,
      3000,
    ),
    blocks: withSandboxLabel(blocks, model.sandbox),
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

/**
 * "2 approvals from network or finance, at least one from finance", from the rule as written.
 * `refText` words each group or id (the approval message's own, which never pings a group, by
 * default).
 */
export function requirementWords(
  requirement: ApprovalRequirement,
  refText: (ref: string) => string = approverRefText,
): string {
  const count = requirement.approvals === 1 ? "1 approval" : `${requirement.approvals} approvals`;
  const from =
    requirement.from.length > 0 ? ` from ${requirement.from.map(refText).join(" or ")}` : "";
  const group = requirement.atLeastOneFrom
    ? `, at least one from ${refText(requirement.atLeastOneFrom.name)}`
    : "";
  return `${count}${from}${group}`;
}

/**
 * A group name in bold, a Slack user id as a mention, a user group id as its id: a user group
 * mention would notify every member each time a request is posted.
 */
export function approverRefText(ref: string): string {
  if (isSlackUserId(ref)) return `<@${ref}>`;
  if (isSlackUserGroupId(ref)) return `user group \`${ref}\``;
  return `*${escapeMrkdwn(ref)}*`;
}

/** Each next step as a sentence names it: "look it up again, place it again or mark it as failed". */
const STEP_WORDS: Record<NextStep["action"], string> = {
  approve: "approve it",
  reject: "reject it",
  withdraw: "withdraw it",
  retry: "retry placing it once the cause is fixed",
  "look-up-again": "look it up again",
  "place-again": "place it again",
  "mark-failed": "mark it as failed",
};

/**
 * What an approver is asked to do next, in plain words, from the read model's next steps (the
 * approvers' lists: `/connect approvals`, App Home): "*Needs an approver:* look it up again,
 * place it again or mark it as failed". Empty where it offers approvers nothing.
 */
export function approverNextStepText(model: Pick<RequestReadModel, "next">): string {
  const words = model.next
    .filter((step) => step.by === "approvers")
    .map((s) => STEP_WORDS[s.action]);
  if (words.length === 0) return "";
  const last = words.pop();
  return `*Needs an approver:* ${words.length > 0 ? `${words.join(", ")} or ${last}` : last}`;
}

/**
 * The way forward the read model offers approvers, as the approval message shows it (App Home
 * offers the same buttons); none where nothing is left to decide.
 */
export function approverButtons(
  model: RequestReadModel,
  approveConfirmFrom: number | undefined,
): Button[] {
  const buttons = [];
  for (const step of model.next) {
    if (step.by !== "approvers") continue;
    switch (step.action) {
      case "approve":
        buttons.push(approveButton(model, approveConfirmFrom));
        break;
      case "reject":
        buttons.push(rejectButton(model));
        break;
      case "retry":
        buttons.push(button("Retry placing the order", ACTION_RETRY, model.id));
        break;
      case "look-up-again":
        buttons.push(button("Look up again", ACTION_LOOK_UP_AGAIN, model.id, "primary"));
        break;
      case "place-again":
        buttons.push(placeAgainButton(model));
        break;
      case "mark-failed":
        buttons.push(markFailedButton(model));
        break;
    }
  }
  return buttons;
}

/**
 * Approve, wherever it is shown (the approval message, App Home): from APPROVE_CONFIRM_FROM a
 * month (src/domain/approveConfirm.ts) it asks "Place this order for 14,400.00 USD?" first, as
 * Reject asks before it opens its form; IO-D asks how it is billed.
 */
export function approveButton(
  request: Pick<RequestReadModel, "kind" | "id" | "title" | "money">,
  approveConfirmFrom: number = DEFAULT_APPROVE_CONFIRM_FROM,
) {
  if (request.kind === "iod") return iodApproveButton(request);
  const plain = button("Approve", ACTION_APPROVE, request.id, "primary");
  const asked = approveConfirmation(request.money, approveConfirmFrom);
  if (!asked) return plain;
  const currency = request.money.currency ?? DEFAULT_CURRENCY;
  const total = formatMoney(asked.total, currency);
  const monthly = formatMoney(asked.monthly, currency);
  const question = total
    ? `Place this order for ${total}?`
    : monthly
      ? `Place this order for ${monthly} a month?`
      : "Place this order? Its price is not known.";
  const term =
    total && monthly && asked.termMonths !== undefined
      ? ` That is ${totalExplained(monthly, asked.termMonths, asked, currency)}.`
      : "";
  return askingFirst(plain, {
    title: "Approve this order?",
    text: `${escapeMrkdwn(question)}${escapeMrkdwn(term)} *${escapeMrkdwn(request.title)}* is ordered from the provider once the approvals it needs are in.`,
    confirm: "Approve",
    deny: "Cancel",
  });
}

/**
 * "1,146.24 USD a month for 12 months, plus 1,500.00 USD once": the parts of a total, adding up
 * to it — the one-off charge named, and whatever else the total holds (a record older than its
 * one-off, a provider total with other parts) said as such rather than left out.
 */
function totalExplained(
  monthly: string,
  termMonths: number,
  asked: Pick<ApproveConfirmation, "oneOff" | "rest">,
  currency: string,
): string {
  const parts = [`${monthly} a month for ${termMonths} month${termMonths === 1 ? "" : "s"}`];
  const once = asked.oneOff ? formatMoney(asked.oneOff, currency) : undefined;
  if (once) parts.push(`plus ${once} once`);
  const rest = asked.rest ?? 0;
  const restMoney = rest !== 0 ? formatMoney(Math.abs(rest), currency) : undefined;
  if (restMoney) parts.push(rest > 0 ? `plus ${restMoney} in other charges` : `less ${restMoney}`);
  return parts.join(", ");
}

/**
 * IO-D has no price to approve, only a way of billing: Approve asks once more, saying how the
 * service is billed and where its rate is shown, before anything is ordered.
 */
function iodApproveButton(model: Pick<RequestReadModel, "id" | "money">) {
  return askingFirst(button("Approve", ACTION_APPROVE, model.id, "primary"), {
    title: "Approve this IO-D service?",
    text: escapeMrkdwn(model.money.text ?? iodBillingText()),
    confirm: "Approve",
    deny: "Cancel",
  });
}

/**
 * Reject asks first, in red (Slack's `danger` confirm), then opens the form for the reason; the
 * same button wherever an approver may reject (the approval message, App Home).
 */
export function rejectButton(model: Pick<RequestReadModel, "id" | "title" | "requester">) {
  return askingFirst(button("Reject", ACTION_REJECT, model.id, "danger"), {
    title: "Reject this request?",
    text: `Nothing will be ordered for *${escapeMrkdwn(model.title)}*. Next you give a reason, which <@${model.requester}> receives.`,
    confirm: "Reject",
    deny: "Cancel",
    danger: true,
  });
}

function placeAgainButton(model: RequestReadModel) {
  return askingFirst(button("Place again", ACTION_PLACE_AGAIN, model.id, "danger"), {
    title: "Place the order again?",
    text: `The first order was sent, and the provider never answered. A look-up did not find it, but it may still have reached the provider. Placing again can create a *second order* (and a second bill) for *${escapeMrkdwn(model.name)}*. Check the provider's portal first.`,
    confirm: "Place again",
    deny: "Cancel",
    danger: true,
  });
}

function markFailedButton(model: RequestReadModel) {
  return askingFirst(button("Mark as failed", ACTION_MARK_FAILED, model.id), {
    title: "Mark as failed?",
    text: `Nothing more will be done for this request and its name *${escapeMrkdwn(model.name)}* can be asked for again. If the order did reach the provider, it will not be followed here.`,
    confirm: "Mark as failed",
    deny: "Cancel",
  });
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
  return askingFirst(button("Withdraw", ACTION_WITHDRAW, request.id), {
    title: "Withdraw the request?",
    text: `*${escapeMrkdwn(request.title)}* will not be ordered, and approvers will see it was withdrawn.`,
    confirm: "Withdraw",
    deny: "Keep it",
  });
}

/**
 * The requester's answer once their request is withdrawn: it replaces their confirmation, or is
 * their DM (a Withdraw in App Home), marked with the state it tells as every state DM is.
 */
export function withdrawnView(
  model: Pick<RequestReadModel, "id" | "title" | "name" | "state" | "sandbox">,
): Reply {
  const text = `:leftwards_arrow_with_hook: You withdrew *${escapeMrkdwn(model.title)}* (\`${model.id}\`). Nothing will be ordered, and the name *${escapeMrkdwn(model.name)}* can be asked for again.`;
  return stateDm(model, text);
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

/**
 * A button that asks first, in Slack's confirm dialog (`danger`: its confirm in red); the
 * dialog's mrkdwn text is cut to Slack's 300 characters.
 */
function askingFirst<Button extends object>(
  base: Button,
  dialog: { title: string; text: string; confirm: string; deny: string; danger?: boolean },
) {
  return {
    ...base,
    confirm: {
      title: { type: "plain_text" as const, text: dialog.title },
      text: { type: "mrkdwn" as const, text: truncate(dialog.text, 300) },
      confirm: { type: "plain_text" as const, text: dialog.confirm },
      deny: { type: "plain_text" as const, text: dialog.deny },
      ...(dialog.danger ? { style: "danger" as const } : {}),
    },
  };
}

/**
 * A second approval message of one request (src/orders/approvalMessages.ts: a late one lost to
 * the place kept first): no buttons, so nobody decides where the record does not look.
 */
export function supersededApprovalView(): Reply {
  const text =
    "This request was posted twice; it is decided in its other approval message in this channel.";
  return { text, blocks: [section(text)] };
}
