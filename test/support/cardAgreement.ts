import { TRACKING_OUTCOMES } from "../../src/orders/progress.js";
import {
  CARD_FOOTER,
  CARD_FOOTER_FINISHED,
  CARD_FOOTER_STOPPED,
} from "../../views/approvals/requestCard.js";

/**
 * Issue 24 and 29: the request card, App Home's *My requests*, the requester's direct messages
 * and the approval message never disagree on the last state (all render the read model,
 * src/orders/readModel.ts). The messages carry the state line in a block whose block_id is
 * `state_<key>` (src/orders/readModel.ts, views/requestState.ts) and the line "Requested by
 * <@U…> · request `<id>`", which ties a card to its approval message; the card alone ends with
 * CARD_FOOTER (CARD_FOOTER_FINISHED once its request is over, CARD_FOOTER_STOPPED once its order
 * is no longer followed). A DM that tells the requester a
 * state carries `dm:<id>:state_<key>` (views/requestState.ts `stateDm`); one that tells none (a
 * reminder, a card notice) carries no such block and is not compared.
 */

export interface StoredMessage {
  channel: string;
  ts: string;
  blocks?: unknown[];
}

export interface CardDisagreement {
  requestId: string;
  cardState: string;
  approvalState: string;
  /**
   * Where the other state was shown: the card (default), someone's App Home, or the last DM that
   * told the requester a state.
   */
  where?: "home" | "dm";
}

/** A person's App Home as published (its blocks). */
export interface PublishedHome {
  userId: string;
  blocks?: unknown[];
}

/** *My requests* in App Home: `mine:<request id>:state_<key>` (views/home/home.ts). */
const HOME_STATE = /^mine:([^:]+):state_(.+)$/;

/** A DM telling the requester a state: `dm:<request id>:state_<key>` (views/requestState.ts). */
const DM_STATE = /^dm:([^:]+):state_(.+)$/;

/** The request and state a DM told, if it tells one. */
export function toldState(
  message: StoredMessage,
): { requestId: string; state: string } | undefined {
  for (const block of (message.blocks ?? []) as Array<{ block_id?: unknown }>) {
    const match = typeof block.block_id === "string" ? DM_STATE.exec(block.block_id) : null;
    if (match?.[1] && match[2]) return { requestId: match[1], state: match[2] };
  }
  return undefined;
}

/**
 * Whether the requester's last state DM (`told`) agrees with the approval message (`shown`):
 * the same state, or an order placed (`placed`) that tracking has since read at a status
 * (`placed:<status>`) — each status is said in the card's thread, not by DM, so "ordered" holds
 * until tracking ends (`placed:<outcome>`), which the requester is told again.
 */
export function dmAgrees(told: string, shown: string): boolean {
  if (told === shown) return true;
  const tracked = shown.startsWith("placed:") ? shown.slice("placed:".length) : undefined;
  return told === "placed" && tracked !== undefined && !TRACKING_OUTCOMES.has(tracked);
}

interface Shown {
  requestId: string;
  state: string;
  isCard: boolean;
}

const REQUEST_ID = /· request `([^`]+)`/;

/** Every string shown in a block (its text, fields, elements). */
function strings(node: unknown, into: string[] = []): string[] {
  if (typeof node === "string") into.push(node);
  else if (Array.isArray(node)) for (const item of node) strings(item, into);
  else if (typeof node === "object" && node !== null)
    for (const value of Object.values(node)) strings(value, into);
  return into;
}

/** The request, state and role of a message that shows a request's state; undefined otherwise. */
export function shownState(message: StoredMessage): Shown | undefined {
  const blocks = (message.blocks ?? []) as Array<{ block_id?: unknown }>;
  const stateBlock = blocks.find(
    (block) => typeof block.block_id === "string" && block.block_id.startsWith("state_"),
  );
  if (!stateBlock) return undefined;
  const texts = strings(blocks);
  const requestId = texts.map((text) => REQUEST_ID.exec(text)?.[1]).find(Boolean);
  if (!requestId) return undefined;
  return {
    requestId,
    state: (stateBlock.block_id as string).slice("state_".length),
    isCard: [CARD_FOOTER, CARD_FOOTER_FINISHED, CARD_FOOTER_STOPPED].some((f) => texts.includes(f)),
  };
}

/**
 * The requests whose card — or the App Home of anyone given in `homes`, or the last DM that told
 * the requester a state (`messages` in the order they were posted) — and approval message, as
 * they stand (the last version of each), show different states. A request with only one of
 * them is not compared.
 */
export function cardDisagreements(
  messages: readonly StoredMessage[],
  homes: readonly PublishedHome[] = [],
): CardDisagreement[] {
  const cards = new Map<string, string[]>();
  const approvals = new Map<string, string[]>();
  /** The state each request's last state DM told (later DMs replace earlier ones). */
  const told = new Map<string, string>();
  for (const message of messages) {
    const dm = toldState(message);
    if (dm) told.set(dm.requestId, dm.state);
    const shown = shownState(message);
    if (!shown) continue;
    const into = shown.isCard ? cards : approvals;
    into.set(shown.requestId, [...(into.get(shown.requestId) ?? []), shown.state]);
  }
  const problems: CardDisagreement[] = [];
  for (const home of homes) {
    for (const block of (home.blocks ?? []) as Array<{ block_id?: unknown }>) {
      const match = typeof block.block_id === "string" ? HOME_STATE.exec(block.block_id) : null;
      if (!match?.[1] || !match[2]) continue;
      for (const approvalState of approvals.get(match[1]) ?? []) {
        if (approvalState !== match[2]) {
          problems.push({ requestId: match[1], cardState: match[2], approvalState, where: "home" });
        }
      }
    }
  }
  for (const [requestId, dmState] of told) {
    for (const approvalState of approvals.get(requestId) ?? []) {
      if (!dmAgrees(dmState, approvalState)) {
        problems.push({ requestId, cardState: dmState, approvalState, where: "dm" });
      }
    }
  }
  for (const [requestId, cardStates] of cards) {
    for (const approvalState of approvals.get(requestId) ?? []) {
      for (const cardState of cardStates) {
        if (cardState !== approvalState) problems.push({ requestId, cardState, approvalState });
      }
    }
  }
  return problems;
}

const WHERE = { card: "card", home: "App Home", dm: "the requester's last state DM" } as const;

export function describeDisagreements(problems: readonly CardDisagreement[]): string {
  return [
    `${problems.length} request(s) whose card, App Home or requester's last state DM and approval message disagree on the last state (once the notifier was idle):`,
    ...problems.map(
      (p) =>
        `- request ${p.requestId}: ${WHERE[p.where ?? "card"]} shows ${p.cardState}, approval message shows ${p.approvalState}`,
    ),
  ].join("\n");
}
