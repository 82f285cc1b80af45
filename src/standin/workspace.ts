import { slackId, triggerId } from "./ids.js";
import type { Json } from "./json.js";
import { buildView, enteredKeptAcross, type ViewLinks } from "./modals/viewRecord.js";
import { viewStateValues } from "./modals/viewState.js";
import type { SlackBlock, StandinResponse, StandinView, ViewStateValue } from "./types.js";
import { Conversations } from "./webApi/conversations.js";
import { FunctionExecutions } from "./webApi/functions.js";

/**
 * The stand-in's workspace: its conversations (conversations.ts) plus what interactions act on:
 * trigger ids, views per person (modal stacks and App Home) and response URLs. Like the
 * conversations, no HTTP and no argument checking here; every change is an event.
 */

interface TriggerRecord {
  userId: string;
  createdAt: number;
  used: boolean;
}

/** Where a response_url leads: the conversation, the person, and the message it came from. */
export interface ResponseUrlContext {
  channel: string;
  userId: string;
  /** The channel message the interaction came from (replace_original/delete_original). */
  messageTs?: string;
  /** The ephemeral message the interaction came from. */
  ephemeralTs?: string;
  uses: number;
}

/** Slack allows five posts to one response_url. */
export const RESPONSE_URL_MAX_USES = 5;

/** Modals stack at most three deep in Slack. */
export const MAX_MODAL_STACK = 3;

export class Workspace extends Conversations {
  /** Workflow Builder step runs (functions.ts). */
  readonly functions = new FunctionExecutions();
  private readonly viewsById = new Map<string, StandinView>();
  private readonly modalStacks = new Map<string, string[]>();
  private readonly homeViews = new Map<string, string>();
  private readonly triggers = new Map<string, TriggerRecord>();
  private readonly responseUrls = new Map<string, ResponseUrlContext>();
  private readonly responseList: StandinResponse[] = [];

  // ---- trigger ids ------------------------------------------------------------------------

  /** A trigger id for an interaction by this person (Slack's are valid for 3 s; not enforced). */
  issueTrigger(userId: string): string {
    const id = triggerId();
    this.triggers.set(id, { userId, createdAt: Date.now(), used: false });
    return id;
  }

  /** The person a trigger id belongs to, or Slack's error for an unknown or reused one. */
  redeemTrigger(id: string): { userId: string } | { error: string } {
    const trigger = this.triggers.get(id);
    if (!trigger) return { error: "invalid_trigger_id" };
    if (trigger.used) return { error: "exchanged_trigger_id" };
    trigger.used = true;
    return { userId: trigger.userId };
  }

  // ---- views ------------------------------------------------------------------------------

  /** A new view for this person, built from what the app sent, with nothing entered yet. */
  private storeNewView(userId: string, id: string, input: Json, links: ViewLinks): StandinView {
    return this.storeView({
      view: buildView(input, id, links, this),
      userId,
      entered: {},
      closed: false,
    });
  }

  private refreshState(stored: StandinView): void {
    stored.view.state = { values: viewStateValues(stored.view.blocks, stored.entered) };
  }

  private storeView(stored: StandinView): StandinView {
    this.refreshState(stored);
    this.viewsById.set(stored.view.id, stored);
    this.emit("view", structuredClone(stored));
    return structuredClone(stored);
  }

  view(id: string): StandinView | undefined {
    const stored = this.viewsById.get(id);
    return stored ? structuredClone(stored) : undefined;
  }

  viewByExternalId(externalId: string): StandinView | undefined {
    for (const stored of this.viewsById.values()) {
      if (!stored.closed && stored.view.external_id === externalId) return structuredClone(stored);
    }
    return undefined;
  }

  /** The modal on top of this person's stack (the one they see), if any. */
  currentView(userId: string): StandinView | undefined {
    const stack = this.modalStacks.get(userId) ?? [];
    const top = stack[stack.length - 1];
    return top ? this.view(top) : undefined;
  }

  /** This person's open modals, bottom first. */
  modalStack(userId: string): StandinView[] {
    return (this.modalStacks.get(userId) ?? []).flatMap((id) => this.view(id) ?? []);
  }

  homeView(userId: string): StandinView | undefined {
    const id = this.homeViews.get(userId);
    return id ? this.view(id) : undefined;
  }

  /** Opens a modal as a new stack (whatever was open is replaced, as a new trigger does). */
  openView(userId: string, input: Json): StandinView {
    for (const id of this.modalStacks.get(userId) ?? []) this.markClosed(id);
    const id = slackId("V");
    this.modalStacks.set(userId, [id]);
    return this.storeNewView(userId, id, input, { rootViewId: id, previousViewId: null });
  }

  /** Pushes a modal onto the person's stack; undefined when no modal is open. */
  pushView(userId: string, input: Json): StandinView | undefined {
    const stack = this.modalStacks.get(userId) ?? [];
    const previous = stack[stack.length - 1];
    if (!previous) return undefined;
    const id = slackId("V");
    stack.push(id);
    return this.storeNewView(userId, id, input, {
      rootViewId: stack[0] ?? id,
      previousViewId: previous,
    });
  }

  stackDepth(userId: string): number {
    return this.modalStacks.get(userId)?.length ?? 0;
  }

  /**
   * Replaces a view's content; the id stays, the hash changes, and what the person entered is
   * kept for inputs whose block_id and action_id did not change (Slack's rule; changing a
   * block_id is how an app clears an input).
   */
  updateView(id: string, input: Json): StandinView | undefined {
    const stored = this.viewsById.get(id);
    if (!stored) return undefined;
    // An update that names no external_id keeps the one the view has.
    const withExternal =
      input.external_id === undefined && stored.view.external_id
        ? { ...input, external_id: stored.view.external_id }
        : input;
    const links = {
      rootViewId: stored.view.root_view_id,
      previousViewId: stored.view.previous_view_id,
    };
    const next = buildView(withExternal, id, links, this);
    const entered = enteredKeptAcross(stored.entered, next);
    return this.storeView({ ...stored, view: next, entered, errors: undefined });
  }

  publishHome(userId: string, input: Json): StandinView {
    const existing = this.homeViews.get(userId);
    if (existing) {
      const updated = this.updateView(existing, input);
      if (updated) return updated;
    }
    const id = slackId("V");
    this.homeViews.set(userId, id);
    return this.storeNewView(userId, id, input, { rootViewId: null, previousViewId: null });
  }

  /** Records what the person entered in an element of a view. */
  enterValue(viewId: string, blockId: string, actionId: string, value: ViewStateValue): void {
    const stored = this.viewsById.get(viewId);
    if (!stored) throw new Error(`No view ${viewId}`);
    stored.entered[blockId] = { ...stored.entered[blockId], [actionId]: value };
    this.refreshState(stored);
  }

  setViewErrors(viewId: string, errors: Record<string, string>): void {
    const stored = this.viewsById.get(viewId);
    if (!stored) return;
    stored.errors = errors;
    this.emit("view", structuredClone(stored));
  }

  private markClosed(id: string): void {
    const stored = this.viewsById.get(id);
    if (stored && !stored.closed) {
      stored.closed = true;
      this.emit("view", structuredClone(stored));
    }
  }

  /** Closes one modal (submitted or cancelled); the one below it becomes current. */
  closeView(userId: string, viewId: string): void {
    const stack = this.modalStacks.get(userId) ?? [];
    const index = stack.indexOf(viewId);
    if (index >= 0) stack.splice(index, 1);
    this.markClosed(viewId);
  }

  /** Closes every modal of this person (`response_action: clear`, or a close with clear_on_close). */
  clearModals(userId: string): void {
    for (const id of this.modalStacks.get(userId) ?? []) this.markClosed(id);
    this.modalStacks.set(userId, []);
  }

  // ---- response URLs ----------------------------------------------------------------------

  createResponseUrl(context: Omit<ResponseUrlContext, "uses">): string {
    const id = slackId("R", 16);
    this.responseUrls.set(id, { ...context, uses: 0 });
    return `${this.baseUrl}/response/${id}`;
  }

  responseUrlContext(id: string): ResponseUrlContext | undefined {
    return this.responseUrls.get(id);
  }

  /**
   * Does what a post to a response_url (or a command's ack body) asks: delete or replace the
   * message the interaction came from, post in the channel (`in_channel`), or show the person an
   * ephemeral message (the default).
   */
  applyResponse(id: string, body: Json, via: "response_url" | "ack"): StandinResponse {
    const context = this.responseUrls.get(id);
    const record = (applied: StandinResponse["applied"], ts?: string): StandinResponse => {
      const response: StandinResponse = {
        responseUrlId: id,
        at: Date.now(),
        body,
        applied,
        ...(ts ? { ts } : {}),
      };
      this.responseList.push(response);
      this.emit("response", structuredClone(response));
      return structuredClone(response);
    };
    if (!context) return record("ignored");
    if (via === "response_url") context.uses += 1;
    const text = typeof body.text === "string" ? body.text : undefined;
    const blocks = Array.isArray(body.blocks) ? (body.blocks as SlackBlock[]) : undefined;
    const ephemeralOrigin = context.ephemeralTs
      ? this.findEphemeral(context.ephemeralTs)
      : undefined;

    if (body.delete_original === true || body.delete_original === "true") {
      if (ephemeralOrigin && this.deleteEphemeral(ephemeralOrigin.ts)) {
        return record("deleted", ephemeralOrigin.ts);
      }
      if (context.messageTs && this.deleteMessage(context.channel, context.messageTs)) {
        return record("deleted", context.messageTs);
      }
      return record("ignored");
    }
    if (body.replace_original === true || body.replace_original === "true") {
      if (ephemeralOrigin && this.replaceEphemeral(ephemeralOrigin.ts, text ?? "", blocks)) {
        return record("replaced", ephemeralOrigin.ts);
      }
      if (context.messageTs) {
        const updated = this.updateMessage(context.channel, context.messageTs, {
          text: text ?? "",
          blocks: blocks ?? [],
        });
        if (updated) return record("replaced", updated.ts);
      }
    }
    const threadTs = typeof body.thread_ts === "string" ? body.thread_ts : undefined;
    if (body.response_type === "in_channel") {
      const message = this.postMessage({
        channel: context.channel,
        text,
        blocks,
        thread_ts: threadTs,
        via,
      });
      return record("in_channel", message.ts);
    }
    const ephemeral = this.postEphemeral({
      channel: context.channel,
      user: context.userId,
      text,
      blocks,
      thread_ts: threadTs,
      via,
    });
    return record("ephemeral", ephemeral.ts);
  }

  responses(): StandinResponse[] {
    return this.responseList.map((r) => structuredClone(r));
  }
}
