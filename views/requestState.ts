import type { KnownBlock } from "@slack/types";
import { isSlackUserId } from "../src/domain/slackIds.js";
import type { NextStep, RequestPhase, RequestReadModel } from "../src/orders/readModel.js";
import { escapeMrkdwn, textSections, withSandboxLabel } from "./blocks.js";
import type { Reply } from "./reply.js";

/**
 * A request's state as every surface shows it — the approval message, the request card and its
 * thread, DMs, App Home, `/connect approvals all` — from the read model (src/orders/readModel.ts),
 * so no two places word one state differently. Provider and person text is escaped here.
 */

const PHASE_EMOJI: Record<RequestPhase, string> = {
  waiting: ":hourglass_flowing_sand:",
  placing: ":gear:",
  rejected: ":no_entry:",
  withdrawn: ":leftwards_arrow_with_hook:",
  cancelled: ":heavy_multiplication_x:",
  "not-ordered": ":x:",
  "marked-failed": ":heavy_multiplication_x:",
  unknown: ":rotating_light:",
  ordered: ":rocket:",
  tracked: ":satellite:",
  done: ":tada:",
  "failed-at-provider": ":x:",
  "cancelled-at-provider": ":heavy_multiplication_x:",
  stopped: ":pause_button:",
};

/** The state alone, e.g. ":tada: *Done (ACTIVE)*". */
export function stateHeadline(model: Pick<RequestReadModel, "state">): string {
  return `${PHASE_EMOJI[model.state.phase]} *${escapeMrkdwn(model.state.words)}*`;
}

/**
 * The state line: the state, who decided, the reason or error, how tracking ended or when the
 * status changed, and the provider's id of the order. The same line on every surface.
 */
export function stateLine(model: RequestReadModel): string {
  const parts = [stateHeadline(model)];
  if (model.decision) {
    const who =
      model.decision.action === "approve" && model.approvers.length > 1
        ? listOfMentions(model.approvers)
        : listOfMentions([model.decision.by]);
    parts.push(`${model.decision.action === "approve" ? "approved" : "rejected"} by ${who}`);
  }
  if (model.state.detail) {
    const label = model.state.phase === "rejected" ? "reason: " : "";
    parts.push(`${label}${escapeMrkdwn(model.state.detail)}`);
  }
  if (model.state.phase === "stopped" && model.tracking?.stoppedBy) {
    parts.push(`${listOfMentions([model.tracking.stoppedBy])} stopped following it`);
  }
  if (model.state.phase === "marked-failed" && model.actor) {
    // The headline says what; this says who, once, as a real mention.
    parts.push(`marked by ${listOfMentions([model.actor])}`);
  }
  if (model.order) parts.push(orderRef(model.order));
  if (model.state.phase === "tracked" && model.tracking?.changedAt) {
    parts.push(`changed ${slackTime(model.tracking.changedAt)}`);
  }
  return parts.join(" · ");
}

/**
 * What the requester of a request marked as failed can do, the same in their DM and their App
 * Home: it is never sent again (it may exist at the provider), and its name is free again.
 */
export function markedFailedNextStep(name: string): string {
  return `It may exist at the provider, so it is not sent again: submit a new request if you still need it (the name *${escapeMrkdwn(name)}* is free again).`;
}

/** "order `123`", "port `p-1`", "connection `c-1`". */
export function orderRef(order: NonNullable<RequestReadModel["order"]>): string {
  const what =
    order.resource === "port" ? "port" : order.resource === "order" ? "order" : order.resource;
  return `${what} \`${escapeMrkdwn(order.id)}\``;
}

/** A Slack date token: each reader sees it in their own time zone. */
export function slackTime(iso: string): string {
  const seconds = Math.floor(Date.parse(iso) / 1000);
  return Number.isFinite(seconds)
    ? `<!date^${seconds}^{date_short_pretty} {time}|${escapeMrkdwn(iso)}>`
    : escapeMrkdwn(iso);
}

/**
 * "<@A>", "<@A> and <@B>", "<@A>, <@B> and <@C>": THE way views mention people. Ids only;
 * anything not shaped like a Slack user id (a damaged record) is shown as escaped text, so no
 * mention, link or broadcast can be formed from it.
 */
export function listOfMentions(userIds: readonly string[]): string {
  const mentions = userIds.map((id) => (isSlackUserId(id) ? `<@${id}>` : escapeMrkdwn(id)));
  if (mentions.length <= 1) return mentions.join("");
  return `${mentions.slice(0, -1).join(", ")} and ${mentions.at(-1)}`;
}

/** The block_id of a message's state line (how tests compare surfaces). */
export function stateBlockIdOf(model: Pick<RequestReadModel, "state">): string {
  return `state_${model.state.key}`;
}

/**
 * The block_id of a direct message that tells the requester where their request stands:
 * `dm:<request id>:state_<key>`, as App Home's *My requests* carries `mine:<id>:state_<key>`.
 * Invisible to people; it is how the suite-wide agreement check (test/support/cardAgreement.ts)
 * finds the state the requester was last told.
 */
export function dmStateBlockIdOf(model: Pick<RequestReadModel, "id" | "state">): string {
  return `dm:${model.id}:${stateBlockIdOf(model)}`;
}

/**
 * A direct message telling the requester their request's state (placed, not placed, rejected,
 * withdrawn, ended): `text` as Slack shows it, its first block marked with the state it tells
 * (`dmStateBlockIdOf`) from the read model at that step. A DM that tells no state (a reminder)
 * is sent without the mark, so the agreement check leaves it out by construction.
 */
export function stateDm(
  model: Pick<RequestReadModel, "id" | "state" | "sandbox">,
  text: string,
): Reply {
  const [first, ...rest] = textSections(text);
  const blocks: KnownBlock[] = first
    ? [{ ...first, block_id: dmStateBlockIdOf(model) }, ...rest]
    : [];
  return { text, blocks: withSandboxLabel(blocks, model.sandbox) };
}

/** Whether the read model offers `action` next (the buttons follow it). */
export function offers(model: Pick<RequestReadModel, "next">, action: NextStep["action"]): boolean {
  return model.next.some((step) => step.action === action);
}
