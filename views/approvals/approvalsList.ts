import type { KnownBlock } from "@slack/types";
import type { MoneySight } from "../../src/approvals/moneyAccess.js";
import type { RequestReadModel } from "../../src/orders/readModel.js";
import { context, escapeMrkdwn, header, section } from "../blocks.js";
import { ownOnlyNote } from "../moneyAccess.js";
import type { Reply } from "../reply.js";
import { approvalStatusLine, approverNextStepText } from "./approvals.js";

/** A title in the list: long enough to recognise, short enough to keep every entry whole. */
const TITLE_MAX = 200;

/**
 * The lists of approval requests `/connect approvals` shows: one line per request, in the words
 * of the approval message's status line (views/approvals/approvals.ts), apart from the message itself.
 */

/**
 * `/connect approvals` (what waits on an approver: requests waiting for a decision, oldest first,
 * then placements whose outcome is unknown or that failed and can be retried, each with its
 * state and what an approver is asked to do; src/orders/approverWork.ts) and `/connect approvals
 * all` (the audit trail: every request with its decision and outcome, newest first).
 */
export function approvalsListView(
  /** The requests as the read model shows them (src/orders/readModel.ts). */
  records: readonly RequestReadModel[],
  links: ReadonlyMap<string, string>,
  scope: "pending" | "all",
  /** Who may see what (src/approvals/moneyAccess.ts): "own" lists are the person's own, said so. */
  sight: MoneySight = { sees: "all" },
): Reply {
  const own = sight.sees === "own";
  const note = own ? [ownOnlyNote(sight)] : [];
  if (records.length === 0) {
    const text =
      scope === "pending"
        ? `No ${own ? "request of yours is" : "approval requests are"} waiting.`
        : `No ${own ? "requests of yours" : "approval requests"} in the last 90 days.`;
    return { text, blocks: [section(scope === "pending" ? `${text} :tada:` : text), ...note] };
  }
  const count = `${own ? "Your " : ""}${records.length} request${records.length === 1 ? "" : "s"}`;
  // "Waiting for approval" while every one waits for a decision; a placement that went wrong
  // waits on an approver without asking for an approval.
  const title =
    scope === "all"
      ? `${count} of the last 90 days, newest first`
      : records.every(waitsForDecision)
        ? `${count} waiting for approval`
        : `${count} waiting on an approver`;
  const blocks: KnownBlock[] = [header(title), ...note];
  for (const record of records.slice(0, 40)) {
    const link = links.get(record.id);
    // The link is the message's permalink from Slack's own API, never text from a person.
    // Clipped before escaping: a section cut at Slack's limit must not cut the link's closing ">".
    const title = link
      ? `<${link}|${escapeMrkdwn(record.title, TITLE_MAX)}>`
      : escapeMrkdwn(record.title, TITLE_MAX);
    const price = record.money.text ? ` · ${escapeMrkdwn(record.money.text)}` : "";
    const state =
      scope === "all"
        ? `\n${approvalStatusLine(record)}`
        : waitsForDecision(record)
          ? ""
          : `\n${approvalStatusLine(record)}\n${approverNextStepText(record)}`;
    blocks.push(
      section(
        `*${record.kindLabel}:* ${title}\nby <@${record.requester}> ${slackDate(record.createdAt)}${price} · \`${record.id}\`${state}`,
      ),
    );
  }
  if (records.length > 40) blocks.push(context(`…and ${records.length - 40} more.`));
  if (scope === "pending")
    blocks.push(context("Every request, decided or not: `/connect approvals all`."));
  return { text: title, blocks };
}

/** A request waiting for a decision (its entry needs no state: the list's title says it). */
function waitsForDecision(record: RequestReadModel): boolean {
  return record.state.phase === "waiting";
}

/** A Slack date token, shown in each reader's time zone: "today at 03:41". */
function slackDate(iso: string): string {
  const seconds = Math.floor(Date.parse(iso) / 1000);
  const shown = escapeMrkdwn(iso);
  return Number.isFinite(seconds)
    ? `<!date^${seconds}^{date_short_pretty} at {time}|${shown}>`
    : shown;
}
