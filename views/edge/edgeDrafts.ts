import type { ActionsBlock, Button } from "@slack/types";
import { COMMAND } from "../../src/domain/commands.js";
import { actions, button, escapeMrkdwn, LIMITS, section, truncate } from "../blocks.js";
import { code } from "../format.js";
import type { Message } from "./edgeQuote.js";

/**
 * An Edge draft's messages: saved (with its buttons), the expiry reminder, the buttons of one
 * draft for the `/connect edge drafts` list, and the short answers about a draft (renamed,
 * deleted, refused, gone). Pure functions; ids are exported for listeners and tests.
 */

export const EDGE_DRAFT_BUTTONS = {
  rename: "edge_draft_rename",
  requote: "edge_draft_requote",
  order: "edge_draft_order",
  delete: "edge_draft_delete",
} as const;

/** Block id prefix of a draft's buttons (one block per draft, so ids stay unique in a list). */
export const EDGE_DRAFT_BLOCK_PREFIX = "edge_draft_";

export interface DraftLike {
  id: string;
  name?: string | null;
}

/**
 * The buttons of one draft: Rename, Re-quote, Order, Delete (Delete asks first, and only the
 * person who saved the draft may do it). For the `/connect edge drafts` list, one per draft.
 */
export function draftActionsBlock(draft: DraftLike): ActionsBlock {
  const id = truncate(draft.id, LIMITS.actionValue);
  return actions(truncate(`${EDGE_DRAFT_BLOCK_PREFIX}${draft.id}`, 255), [
    button("Order", EDGE_DRAFT_BUTTONS.order, id, "primary"),
    button("Re-quote", EDGE_DRAFT_BUTTONS.requote, id),
    button("Rename", EDGE_DRAFT_BUTTONS.rename, id),
    deleteDraftButton(draft),
  ]);
}

/** Delete, asking first (only the person who saved the draft may do it). */
function deleteDraftButton(draft: DraftLike): Button {
  const id = truncate(draft.id, LIMITS.actionValue);
  const remove = button("Delete", EDGE_DRAFT_BUTTONS.delete, id, "danger");
  remove.confirm = {
    title: { type: "plain_text", text: "Delete this draft?" },
    text: {
      type: "plain_text",
      text: truncate(`"${draft.name ?? "Draft order"}" is deleted at the provider for good.`, 300),
    },
    confirm: { type: "plain_text", text: "Delete" },
    deny: { type: "plain_text", text: "Keep it" },
    style: "danger",
  };
  return remove;
}

/**
 * The creator's reminder that the provider deletes a draft soon (3 days and 1 day before):
 * Open (the order form, filled from the draft: the draft's own Order action) and Delete.
 */
export function draftExpiryReminder(reminder: {
  draftId: string;
  name: string;
  daysLeft: number;
}): Message {
  const draft = { id: reminder.draftId, name: reminder.name };
  const name = escapeMrkdwn(reminder.name || "Draft order");
  const when = reminder.daysLeft === 1 ? "tomorrow" : `in ${reminder.daysLeft} days`;
  const text = `:hourglass_flowing_sand: Your Edge draft *${name}* (${code(reminder.draftId)}) is deleted by the provider ${when} (drafts are kept 30 days). Open it to order it, or delete it now.`;
  const id = truncate(reminder.draftId, LIMITS.actionValue);
  return {
    text,
    blocks: [
      section(text),
      actions(truncate(`${EDGE_DRAFT_BLOCK_PREFIX}${reminder.draftId}`, 255), [
        button("Open", EDGE_DRAFT_BUTTONS.order, id, "primary"),
        deleteDraftButton(draft),
      ]),
    ],
  };
}

/** After "Save as draft": the draft, with its buttons. */
export function draftSavedMessage(draft: DraftLike & { deleteIn?: number }, by: string): Message {
  const days = typeof draft.deleteIn === "number" ? Math.ceil(draft.deleteIn) : 30;
  const name = escapeMrkdwn(draft.name ?? "Draft order");
  return {
    text: `Saved as Edge draft ${escapeMrkdwn(draft.name ?? draft.id)}`,
    blocks: [
      section(
        `:memo: <@${by}> saved this quote as the draft *${name}* (${code(draft.id)}). The provider deletes it in ${days} days; \`${COMMAND} edge drafts\` lists it.`,
      ),
      draftActionsBlock(draft),
    ],
  };
}

/**
 * A draft that no longer exists, in plain words (not mrkdwn): the refusal a form or a button
 * raises (`QuoteNoLongerOffered`), escaped once where it is shown (views/failures.ts), or shown
 * as a modal field's plain error.
 */
export function draftGoneWords(id: string): string {
  return `The Edge draft ${id} no longer exists (drafts are deleted after 30 days, or when ordered).`;
}

/** A short private answer about a draft (renamed, deleted, refused). */
export function draftNoticeText(
  kind: "renamed" | "deleted" | "not-owner" | "no-owner" | "not-found",
  draft: DraftLike,
): string {
  const name = `*${escapeMrkdwn(draft.name ?? "Draft order")}*`;
  switch (kind) {
    case "renamed":
      return `:pencil2: Renamed the Edge draft to ${name}.`;
    case "deleted":
      return `:wastebasket: Deleted the Edge draft ${name}.`;
    case "not-owner":
      return `:no_entry: Only the person who saved ${name} can delete it.`;
    case "no-owner":
      return `:no_entry: ${name} wasn't saved from Slack, so I can't tell who may delete it; delete it in the provider's portal.`;
    case "not-found":
      return `:grey_question: The Edge draft ${code(draft.id)} no longer exists (drafts are deleted after 30 days, or when ordered).`;
  }
}
