import { CARD_FOOTER } from "../../views/requestCard.js";

/**
 * Issue 24: the request card and the approval message never disagree on the last state. Both
 * carry the state line in a block whose block_id is `state_<key>` (src/orders/readModel.ts, views/requestState.ts) and
 * the line "Requested by <@U…> · request `<id>`", which ties a card to its approval message; the
 * card alone ends with CARD_FOOTER.
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
    isCard: texts.includes(CARD_FOOTER),
  };
}

/**
 * The requests whose card and approval message, as they stand (the last version of each),
 * show different states. A request with only one of the two is not compared.
 */
export function cardDisagreements(messages: readonly StoredMessage[]): CardDisagreement[] {
  const cards = new Map<string, string[]>();
  const approvals = new Map<string, string[]>();
  for (const message of messages) {
    const shown = shownState(message);
    if (!shown) continue;
    const into = shown.isCard ? cards : approvals;
    into.set(shown.requestId, [...(into.get(shown.requestId) ?? []), shown.state]);
  }
  const problems: CardDisagreement[] = [];
  for (const [requestId, cardStates] of cards) {
    for (const approvalState of approvals.get(requestId) ?? []) {
      for (const cardState of cardStates) {
        if (cardState !== approvalState) problems.push({ requestId, cardState, approvalState });
      }
    }
  }
  return problems;
}

export function describeDisagreements(problems: readonly CardDisagreement[]): string {
  return [
    `${problems.length} request(s) whose card and approval message disagree on the last state (once the notifier was idle):`,
    ...problems.map(
      (p) =>
        `- request ${p.requestId}: card shows ${p.cardState}, approval message shows ${p.approvalState}`,
    ),
  ].join("\n");
}
