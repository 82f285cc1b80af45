import type { Button, HomeView, KnownBlock } from "@slack/types";
import type { ApprovalKind } from "../../src/approvals/index.js";
import { DEFAULT_CURRENCY, formatMoney } from "../../src/domain/money.js";
import { HOME_PAGE_SIZE } from "../../src/domain/paging.js";
import { TRACK_TARGET_LABEL } from "../../src/domain/tracking/statuses.js";
import { DASH } from "../../src/domain/units.js";
import type { HomeInput, HomeTracked } from "../../src/orders/appHome.js";
import type { RequestReadModel } from "../../src/orders/readModel.js";
import type { SpendFigures } from "../../src/orders/spend/committed.js";
import {
  approveButton,
  approverButtons,
  approverNextStepText,
  ORDER_KIND_LABEL,
  rejectButton,
  withdrawButton,
} from "../approvals/approvals.js";
import {
  actions,
  button,
  context,
  divider,
  escapeMrkdwn,
  header,
  SANDBOX_LABEL,
  section,
} from "../blocks.js";
import { MONEY_AUDIENCE } from "../moneyAccess.js";
import {
  markedFailedNextStep,
  offers,
  slackTime,
  stateBlockIdOf,
  stateLine,
} from "../requestState.js";
import { COMMITTED_SPEND_RULE, payAsYouGoNote, spendWords } from "../spend/spend.js";
import { formatRelative } from "../time.js";

export type { HomeInput, HomeTracked };

/**
 * App Home: the person's own view of their connectivity — what waits on them, what they asked
 * for and where it stands, what is being tracked, and what the team has committed to.
 *
 * The Approve / Reject buttons here are the approval message's own (same action ids, the
 * request id as value), so a click runs the very handler, guards and exactly-once step of the
 * channel buttons (src/slack/features/approvals/).
 */

/** Paging through *My requests*. */
export const ACTION_HOME_PAGE = "home_page";
/** Quick actions: `home_quick_<name>`, the value is the `/connect` command they run. */
export const ACTION_HOME_QUICK = "home_quick";

/**
 * Requests shown in *Waiting on me* (the rest: `/connect approvals`): those waiting for this
 * person's decision, then the placements that went wrong on which they may take the next step
 * (src/orders/approverWork.ts).
 */
export const HOME_WAITING_SHOWN = 10;
/** Trackers shown in *Being tracked*. */
export const HOME_TRACKED_SHOWN = 15;

/** The quick actions: the same forms as the commands. */
export const HOME_QUICK_ACTIONS = [
  { name: "price_port", label: "Price a port", command: "price port" },
  { name: "port_order", label: "Order a port", command: "port order" },
  { name: "l2", label: "Order layer 2", command: "l2" },
  { name: "iod", label: "Order IO-D", command: "iod" },
  { name: "edge_quote", label: "Edge quote", command: "edge quote" },
] as const;

/** The whole Home tab. */
export function homeView(input: HomeInput): HomeView {
  const blocks: KnownBlock[] = [
    header("Your connectivity"),
    context(`For <@${input.userId}>. Refreshed when a request or order you see changes.`),
    ...quickActions(),
    divider(),
    ...waitingOnMe(input),
    divider(),
    ...myRequests(input),
    divider(),
    ...beingTracked(input),
    divider(),
    ...committedSpendBlocks(input),
  ];
  if (input.sandbox) blocks.push(context(SANDBOX_LABEL));
  return { type: "home", callback_id: "connect_home", blocks: blocks.slice(0, 100) };
}

function quickActions(): KnownBlock[] {
  return [
    actions(
      "home_quick",
      HOME_QUICK_ACTIONS.map((quick) =>
        button(quick.label, `${ACTION_HOME_QUICK}_${quick.name}`, quick.command),
      ),
    ),
    // Home cannot hold an answer: say where it goes (issue 32, item 22).
    context(
      "A price, a quote or a request sent from here is answered in your direct messages with the app (its *Messages* tab).",
    ),
  ];
}

function kindLabel(kind: ApprovalKind): string {
  return ORDER_KIND_LABEL[kind];
}

/** A Slack date token: each reader sees it in their own time zone. */
const when = slackTime;

function waitingOnMe(input: HomeInput): KnownBlock[] {
  const blocks: KnownBlock[] = [header("Waiting on me")];
  if (input.waiting.length === 0) {
    blocks.push(section("Nothing is waiting for your decision."));
    return blocks;
  }
  for (const record of input.waiting.slice(0, HOME_WAITING_SHOWN)) {
    const price = record.money.text ? `\n*Price:* ${escapeMrkdwn(record.money.text)}` : "";
    const lines = record.summary
      .slice(0, 4)
      .map((line) => `${escapeMrkdwn(line.label)}: ${escapeMrkdwn(line.value)}`)
      .join(" · ");
    const asked = `*${record.kindLabel}: ${escapeMrkdwn(record.title)}*\nRequested by <@${record.requester}> ${when(record.createdAt)} · \`${record.id}\``;
    if (record.state.phase !== "waiting") {
      // A placement that went wrong: where it stands, what an approver is asked to do, and the
      // approval message's own buttons for it (Look up again, Place again, Mark as failed, Retry).
      blocks.push(
        section(`${asked}\n${stateLine(record)}\n${approverNextStepText(record)}`),
        actions(`home_decide_${record.id}`, approverButtons(record, input.approveConfirmFrom)),
      );
      continue;
    }
    blocks.push(
      section(`${asked}${lines ? `\n${lines}` : ""}${price}`),
      actions(`home_decide_${record.id}`, [
        // The approval message's own Approve (asking first above APPROVE_CONFIRM_FROM).
        approveButton(record, input.approveConfirmFrom),
        rejectButton(record),
      ]),
    );
  }
  const more = input.waiting.length - HOME_WAITING_SHOWN;
  if (more > 0) blocks.push(context(`…and ${more} more: \`/connect approvals\` lists them all.`));
  return blocks;
}

/**
 * What a person reads about their own request: the state line every surface shows (the read
 * model's, views/requestState.ts), and what they can do about it where it needs someone.
 */
export function myRequestStatus(model: RequestReadModel): string {
  const line = stateLine(model);
  switch (model.state.phase) {
    case "not-ordered":
      return offers(model, "retry")
        ? `${line}\n*What to do:* fix the cause and ask an approver to press *Retry* on the request in the approvals channel, or submit a new request.`
        : `${line}\n*What to do:* nothing more here: another request has asked for its name since, so this one can't be placed again.`;
    case "marked-failed":
      return `${line}\n*What to do:* ${markedFailedNextStep(model.name)}`;
    case "unknown":
      return `${line}\n*What to do:* nothing is resent on its own; an approver can *Look up again* (or *Place again* / *Mark as failed*) on the request in the approvals channel.`;
    default:
      return line;
  }
}

/** The buttons a requester has on their own request: Withdraw while the read model offers it. */
export function myRequestButtons(model: RequestReadModel): Button[] {
  // The same button and listener as everywhere.
  return offers(model, "withdraw") ? [withdrawButton(model)] : [];
}

function myRequests(input: HomeInput): KnownBlock[] {
  const { records, page, hasNext, total } = input.mine;
  const blocks: KnownBlock[] = [header("My requests")];
  if (total === 0) {
    blocks.push(section("You have no requests yet. Order something with the buttons above."));
    return blocks;
  }
  for (const record of records) {
    blocks.push({
      ...section(
        `*${record.kindLabel}: ${escapeMrkdwn(record.title)}* · ${when(record.createdAt)} · \`${record.id}\`\n${myRequestStatus(record)}`,
      ),
      // The read model's state key, as on the approval message and the card (`state_<key>`):
      // the suite-wide agreement check compares them (test/support/cardAgreement.ts).
      block_id: `mine:${record.id}:${stateBlockIdOf(record)}`,
    });
    const buttons = myRequestButtons(record);
    if (buttons.length > 0) blocks.push(actions(`home_mine_${record.id}`, buttons));
  }
  const first = page * HOME_PAGE_SIZE + 1;
  const last = page * HOME_PAGE_SIZE + records.length;
  blocks.push(context(`Requests ${first}–${last} of ${total}, newest first.`));
  const paging: Button[] = [];
  if (page > 0) paging.push(button("◀ Newer", `${ACTION_HOME_PAGE}_prev`, String(page - 1)));
  if (hasNext) paging.push(button("Older ▶", `${ACTION_HOME_PAGE}_next`, String(page + 1)));
  if (paging.length > 0) blocks.push(actions("home_mine_paging", paging));
  return blocks;
}

function beingTracked(input: HomeInput): KnownBlock[] {
  const blocks: KnownBlock[] = [header("Being tracked")];
  if (input.tracked.length === 0) {
    blocks.push(section("Nothing of yours is being tracked."));
    return blocks;
  }
  const lines = input.tracked.slice(0, HOME_TRACKED_SHOWN).map((t) => {
    const status = t.status ? `*${escapeMrkdwn(t.status)}*` : "_not read yet_";
    const changed = t.changedAt
      ? `changed ${formatRelative(t.changedAt, input.now)}`
      : `tracked since ${formatRelative(t.startedAt, input.now)}`;
    const name = t.name ? ` *${escapeMrkdwn(t.name)}*` : "";
    return `• ${TRACK_TARGET_LABEL[t.kind]}${name} \`${escapeMrkdwn(t.id)}\` · ${status} · ${changed}`;
  });
  blocks.push(section(lines.join("\n")));
  const more = input.tracked.length - HOME_TRACKED_SHOWN;
  if (more > 0) blocks.push(context(`…and ${more} more: \`/connect track\` lists them all.`));
  return blocks;
}

function figures(f: SpendFigures, currency: string): string {
  if (f.orders === 0) return "nothing placed";
  const money = (amount: number) => escapeMrkdwn(formatMoney(amount, currency) ?? DASH);
  // The same count and words as `/connect spend` (spendWords): pay as you go is never 0.00.
  return spendWords(`${money(f.monthly)} a month · ${money(f.total)} committed in total`, f);
}

/** `/connect spend`'s note on pay-as-you-go orders, as a sentence after another. */
const paygNote = (f: SpendFigures) => (f.payAsYouGo > 0 ? ` ${payAsYouGoNote(f.payAsYouGo)}` : "");

function committedSpendBlocks(input: HomeInput): KnownBlock[] {
  // Amounts are labelled with a currency code (PRICE_CURRENCY), never a symbol.
  const currency = input.currency ?? DEFAULT_CURRENCY;
  const { team, mine } = input.spend;
  if (!team) {
    // Not a spend viewer: their own figures, and who sees the team's.
    return [
      header("Committed spend"),
      section(`*Mine:* ${figures(mine, currency)}`),
      context(
        `What you have committed through the bot.${paygNote(mine)} The team's spend is for ${MONEY_AUDIENCE}. Amounts are in ${escapeMrkdwn(currency)}.`,
      ),
    ];
  }
  const blocks: KnownBlock[] = [
    header("Committed spend"),
    section(`*Team:* ${figures(team, currency)}\n*Mine:* ${figures(mine, currency)}`),
  ];
  const kinds = (Object.keys(team.byKind) as ApprovalKind[]).filter(
    (kind) => team.byKind[kind].orders > 0,
  );
  if (kinds.length > 0) {
    blocks.push(
      section(
        kinds
          .map(
            (kind) =>
              `• ${kindLabel(kind)} — team: ${figures(team.byKind[kind], currency)}; mine: ${figures(mine.byKind[kind], currency)}`,
          )
          .join("\n"),
      ),
    );
  }
  const unpriced = team.withoutMonthly + team.withoutTotal;
  blocks.push(
    context(
      `${COMMITTED_SPEND_RULE}${
        unpriced > 0
          ? ` ${team.withoutMonthly} without a monthly amount and ${team.withoutTotal} without a total add nothing.`
          : ""
      }${paygNote(team)} Amounts are in ${escapeMrkdwn(currency)} (PRICE_CURRENCY: the provider names no currency).`,
    ),
  );
  return blocks;
}
