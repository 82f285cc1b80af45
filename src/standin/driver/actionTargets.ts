import type { BlockElementAction } from "@slack/bolt";
import type { LocatedElement } from "../modals/elements.js";
import type { SlackBlock, StandinMessage, StandinView, ViewStateValue } from "../types.js";
import { publicMessage } from "../webApi/webApi.js";
import type { Workspace } from "../workspace.js";
import { type ActionSource, actionTs } from "./payloads.js";

/**
 * What a person acts on and what Slack sends about it: a message, an ephemeral message or a
 * view, resolved in the workspace to the `block_actions` source (with a fresh response URL, as
 * Slack gives one per interaction), and the `actions[]` entry for an element. Apart from the
 * driver so that its methods read as the person's actions.
 */

/** A message a person can act on: a stored message, an ephemeral one, or `{channel, ts}`. */
export type MessageRef = Pick<StandinMessage, "channel" | "ts">;

/** A view a person can act on: its id, or the view itself. */
export type ViewRef = string | { id: string } | { view: { id: string } };

export interface ActionTarget {
  userId: string;
  message?: MessageRef;
  view?: ViewRef;
  actionId: string;
  blockId?: string;
}

function viewIdOf(ref: ViewRef): string {
  if (typeof ref === "string") return ref;
  return "view" in ref ? ref.view.id : ref.id;
}

/** The block_actions `actions[]` entry for a change of this element to `value`. */
export function actionFor(
  located: LocatedElement,
  value: ViewStateValue | undefined,
): BlockElementAction {
  const { element } = located;
  const base = { action_id: located.actionId, block_id: located.blockId, action_ts: actionTs() };
  if (element.type === "button") {
    return {
      ...base,
      type: "button",
      text: element.text as { type: "plain_text"; text: string },
      ...(typeof element.value === "string" ? { value: element.value } : {}),
      ...(typeof element.style === "string" ? { style: element.style } : {}),
    } as BlockElementAction;
  }
  return { ...value, ...base, type: element.type } as BlockElementAction;
}

/** An open view by reference (a test's mistake if it is unknown or closed). */
export function openStoredView(workspace: Workspace, ref: ViewRef): StandinView {
  const id = viewIdOf(ref);
  const stored = workspace.view(id);
  if (!stored) throw new Error(`No view ${id} in the stand-in`);
  if (stored.closed) throw new Error(`View ${id} (${stored.view.callback_id}) is closed`);
  return stored;
}

/** Where an action happens: the view, or a message or ephemeral message the person can see. */
export function actionSource(
  workspace: Workspace,
  target: ActionTarget,
): { source: ActionSource; blocks: SlackBlock[] | undefined } {
  if (target.view !== undefined) {
    const stored = openStoredView(workspace, target.view);
    return { source: { kind: "view", view: stored.view }, blocks: stored.view.blocks };
  }
  if (target.message === undefined) throw new Error("An action needs a message or a view");
  const { channel: channelId, ts } = target.message;
  const channel = workspace.resolveChannel(channelId);
  if (!channel) throw new Error(`No channel ${channelId} in the stand-in workspace`);
  const message = workspace.findMessage(channel.id, ts);
  if (message) {
    const responseUrl = workspace.createResponseUrl({
      channel: channel.id,
      userId: target.userId,
      messageTs: ts,
    });
    return {
      source: {
        kind: "message",
        channel,
        message: { ...publicMessage(message), ts },
        responseUrl,
      },
      blocks: message.blocks,
    };
  }
  const ephemeral = workspace.findEphemeral(ts);
  if (ephemeral && ephemeral.user === target.userId) {
    const responseUrl = workspace.createResponseUrl({
      channel: channel.id,
      userId: target.userId,
      ephemeralTs: ts,
    });
    return {
      source: { kind: "ephemeral", channel, messageTs: ts, responseUrl },
      blocks: ephemeral.blocks,
    };
  }
  throw new Error(`No message ${ts} in ${channelId} that ${target.userId} can see`);
}
