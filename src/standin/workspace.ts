import { EventEmitter } from "node:events";
import type { MessageMetadata } from "@slack/types";
import { withSlackIds } from "./blockKit.js";
import { FileStore } from "./files.js";
import { MessageClock, slackId, triggerId, viewHash } from "./ids.js";
import { viewStateValues } from "./modal.js";
import type { WorkspaceSeed } from "./seed.js";
import type {
  SlackBlock,
  StandinBot,
  StandinChannel,
  StandinEphemeral,
  StandinMessage,
  StandinResponse,
  StandinTeam,
  StandinUser,
  StandinUserGroup,
  StandinView,
  ViewOutput,
  ViewStateValue,
} from "./types.js";

/**
 * The workspace's state: people, user groups, channels, messages with threads, ephemeral
 * messages, views per person, trigger ids and response URLs. No HTTP here and no argument
 * checking (the Web API layer does that, with Slack's errors); every change is announced as an
 * event so that waiting code never polls.
 */

type Json = Record<string, unknown>;

export interface WorkspaceEvents {
  message: [StandinMessage];
  ephemeral: [StandinEphemeral];
  view: [StandinView];
  response: [StandinResponse];
}

export interface NewMessage {
  channel: string;
  text?: string;
  blocks?: SlackBlock[];
  attachments?: unknown[];
  metadata?: MessageMetadata;
  thread_ts?: string;
  /** Files shared with the message (files.completeUploadExternal). */
  files?: StandinMessage["files"];
  /** Posted by a person rather than the app. */
  user?: string;
  via: string;
}

export interface MessageChange {
  text?: string;
  blocks?: SlackBlock[];
  attachments?: unknown[];
  metadata?: MessageMetadata;
}

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

export class Workspace extends EventEmitter<WorkspaceEvents> {
  readonly team: StandinTeam;
  readonly bot: StandinBot;
  readonly users = new Map<string, StandinUser>();
  readonly userGroups = new Map<string, StandinUserGroup>();
  readonly channels = new Map<string, StandinChannel>();
  /** Files uploaded with files.getUploadURLExternal + files.completeUploadExternal. */
  readonly files = new FileStore();
  /** The stand-in's own address, for response URLs and permalinks; set once it listens. */
  baseUrl = "http://127.0.0.1";

  private readonly clock = new MessageClock();
  private readonly messagesByChannel = new Map<string, StandinMessage[]>();
  private readonly ephemeralList: StandinEphemeral[] = [];
  private readonly viewsById = new Map<string, StandinView>();
  private readonly modalStacks = new Map<string, string[]>();
  private readonly homeViews = new Map<string, string>();
  private readonly triggers = new Map<string, TriggerRecord>();
  private readonly responseUrls = new Map<string, ResponseUrlContext>();
  private readonly responseList: StandinResponse[] = [];

  constructor(seed: WorkspaceSeed) {
    super();
    this.setMaxListeners(0);
    this.team = seed.team;
    this.bot = seed.bot;
    for (const user of seed.users) this.users.set(user.id, user);
    for (const group of seed.userGroups) this.userGroups.set(group.id, group);
    for (const channel of seed.channels) this.channels.set(channel.id, channel);
  }

  // ---- conversations ----------------------------------------------------------------------

  /** The direct-message conversation with a person (created on first use, as Slack does). */
  directMessage(userId: string): StandinChannel | undefined {
    if (!this.users.has(userId)) return undefined;
    const id = `D${userId.slice(1)}`;
    let dm = this.channels.get(id);
    if (!dm) {
      dm = {
        id,
        name: userId,
        is_channel: false,
        is_private: true,
        is_im: true,
        user: userId,
        created: Math.floor(Date.now() / 1000),
        is_member: true,
      };
      this.channels.set(id, dm);
    }
    return dm;
  }

  /** A channel by id (C…, D…), by `#name` or name, or a person's DM by their user id. */
  resolveChannel(ref: string): StandinChannel | undefined {
    const byId = this.channels.get(ref);
    if (byId) return byId;
    if (/^[UW][A-Z0-9]+$/.test(ref)) return this.directMessage(ref);
    const name = ref.startsWith("#") ? ref.slice(1) : ref;
    for (const channel of this.channels.values()) {
      if (channel.name === name && !channel.is_im) return channel;
    }
    return undefined;
  }

  // ---- messages ---------------------------------------------------------------------------

  private channelList(channel: string): StandinMessage[] {
    let list = this.messagesByChannel.get(channel);
    if (!list) {
      list = [];
      this.messagesByChannel.set(channel, list);
    }
    return list;
  }

  findMessage(channel: string, ts: string): StandinMessage | undefined {
    return this.messagesByChannel.get(channel)?.find((m) => m.ts === ts && !m.deleted);
  }

  /** The messages of a channel in order; with `threadTs`, that thread (parent first). */
  messages(
    channel: string,
    options: { threadTs?: string; includeDeleted?: boolean } = {},
  ): StandinMessage[] {
    const list = this.messagesByChannel.get(channel) ?? [];
    return list
      .filter((m) => options.includeDeleted || !m.deleted)
      .filter(
        (m) =>
          options.threadTs === undefined ||
          m.ts === options.threadTs ||
          m.thread_ts === options.threadTs,
      )
      .map((m) => structuredClone(m));
  }

  /** Every message in every channel, in the order they were posted. */
  allMessages(): StandinMessage[] {
    return [...this.messagesByChannel.values()]
      .flat()
      .filter((m) => !m.deleted)
      .sort((a, b) => (a.ts < b.ts ? -1 : 1))
      .map((m) => structuredClone(m));
  }

  postMessage(input: NewMessage): StandinMessage {
    const ts = this.clock.next();
    const fromApp = input.user === undefined;
    // A reply to a reply lands in the parent's thread, as in Slack.
    const parent = input.thread_ts ? this.findMessage(input.channel, input.thread_ts) : undefined;
    const threadTs = parent?.thread_ts ?? input.thread_ts;
    const message: StandinMessage = {
      type: "message",
      channel: input.channel,
      ts,
      user: input.user ?? this.bot.userId,
      ...(fromApp ? { bot_id: this.bot.botId, app_id: this.bot.appId } : {}),
      team: this.team.id,
      text: input.text ?? "",
      ...(input.blocks ? { blocks: withSlackIds(input.blocks) } : {}),
      ...(input.attachments ? { attachments: input.attachments } : {}),
      ...(input.metadata ? { metadata: input.metadata } : {}),
      ...(input.files ? { files: input.files } : {}),
      ...(threadTs ? { thread_ts: threadTs } : {}),
      via: input.via,
    };
    this.channelList(input.channel).push(message);
    if (threadTs) {
      const root = this.findMessage(input.channel, threadTs);
      if (root) {
        root.thread_ts = threadTs;
        root.reply_count = (root.reply_count ?? 0) + 1;
        root.latest_reply = ts;
        root.reply_users = [...new Set([...(root.reply_users ?? []), message.user])];
      }
    }
    this.emit("message", structuredClone(message));
    return structuredClone(message);
  }

  updateMessage(channel: string, ts: string, change: MessageChange): StandinMessage | undefined {
    const message = this.findMessage(channel, ts);
    if (!message) return undefined;
    if (change.text !== undefined) message.text = change.text;
    // Slack keeps the previous blocks/attachments when an update leaves them out.
    if (change.blocks !== undefined) message.blocks = withSlackIds(change.blocks);
    if (change.attachments !== undefined) message.attachments = change.attachments;
    if (change.metadata !== undefined) message.metadata = change.metadata;
    message.edited = { user: message.user, ts: this.clock.next() };
    this.emit("message", structuredClone(message));
    return structuredClone(message);
  }

  deleteMessage(channel: string, ts: string): boolean {
    const message = this.findMessage(channel, ts);
    if (!message) return false;
    message.deleted = true;
    this.emit("message", structuredClone(message));
    return true;
  }

  postEphemeral(input: {
    channel: string;
    user: string;
    text?: string;
    blocks?: SlackBlock[];
    thread_ts?: string;
    via: string;
  }): StandinEphemeral {
    const ephemeral: StandinEphemeral = {
      channel: input.channel,
      user: input.user,
      ts: this.clock.next(),
      text: input.text ?? "",
      ...(input.blocks ? { blocks: withSlackIds(input.blocks) } : {}),
      ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
      via: input.via,
    };
    this.ephemeralList.push(ephemeral);
    this.emit("ephemeral", structuredClone(ephemeral));
    return structuredClone(ephemeral);
  }

  /** Ephemeral messages in the order they appeared; only one person's when `userId` is given. */
  ephemerals(userId?: string): StandinEphemeral[] {
    return this.ephemeralList
      .filter((e) => !e.deleted && (userId === undefined || e.user === userId))
      .map((e) => structuredClone(e));
  }

  findEphemeral(ts: string): StandinEphemeral | undefined {
    return this.ephemeralList.find((e) => e.ts === ts && !e.deleted);
  }

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

  private buildView(
    input: Json,
    id: string,
    links: { rootViewId: string | null; previousViewId: string | null },
  ): ViewOutput {
    const type = input.type === "home" ? "home" : "modal";
    const plain = (value: unknown) =>
      typeof value === "object" && value !== null
        ? (value as { type: "plain_text"; text: string; emoji?: boolean })
        : null;
    return {
      id,
      team_id: this.team.id,
      type,
      callback_id: typeof input.callback_id === "string" ? input.callback_id : "",
      external_id: typeof input.external_id === "string" ? input.external_id : "",
      title: plain(input.title) ?? { type: "plain_text", text: "App Home" },
      submit: plain(input.submit),
      close: plain(input.close),
      blocks: withSlackIds(Array.isArray(input.blocks) ? input.blocks : []),
      private_metadata: typeof input.private_metadata === "string" ? input.private_metadata : "",
      state: { values: {} },
      hash: viewHash(),
      root_view_id: links.rootViewId,
      previous_view_id: links.previousViewId,
      clear_on_close: input.clear_on_close === true,
      notify_on_close: input.notify_on_close === true,
      app_id: this.bot.appId,
      app_installed_team_id: this.team.id,
      bot_id: this.bot.botId,
    };
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
    return this.storeView({
      view: this.buildView(input, id, { rootViewId: id, previousViewId: null }),
      userId,
      entered: {},
      closed: false,
    });
  }

  /** Pushes a modal onto the person's stack; undefined when no modal is open. */
  pushView(userId: string, input: Json): StandinView | undefined {
    const stack = this.modalStacks.get(userId) ?? [];
    const previous = stack[stack.length - 1];
    if (!previous) return undefined;
    const id = slackId("V");
    stack.push(id);
    return this.storeView({
      view: this.buildView(input, id, { rootViewId: stack[0] ?? id, previousViewId: previous }),
      userId,
      entered: {},
      closed: false,
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
    const next = this.buildView(withExternal, id, {
      rootViewId: stored.view.root_view_id,
      previousViewId: stored.view.previous_view_id,
    });
    const kept: Record<string, Record<string, ViewStateValue>> = {};
    const nextIds = new Set<string>();
    for (const block of next.blocks as unknown as Json[]) {
      const elements = [
        block.element,
        block.accessory,
        ...(Array.isArray(block.elements) ? block.elements : []),
      ];
      for (const element of elements) {
        if (typeof element === "object" && element !== null && "action_id" in element) {
          nextIds.add(`${String(block.block_id)}/${String((element as Json).action_id)}`);
        }
      }
    }
    for (const [blockId, actions] of Object.entries(stored.entered)) {
      for (const [actionId, value] of Object.entries(actions)) {
        if (nextIds.has(`${blockId}/${actionId}`))
          kept[blockId] = { ...kept[blockId], [actionId]: value };
      }
    }
    return this.storeView({ ...stored, view: next, entered: kept, errors: undefined });
  }

  publishHome(userId: string, input: Json): StandinView {
    const existing = this.homeViews.get(userId);
    if (existing) {
      const updated = this.updateView(existing, input);
      if (updated) return updated;
    }
    const id = slackId("V");
    this.homeViews.set(userId, id);
    return this.storeView({
      view: this.buildView(input, id, { rootViewId: null, previousViewId: null }),
      userId,
      entered: {},
      closed: false,
    });
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
      if (ephemeralOrigin) {
        ephemeralOrigin.deleted = true;
        this.emit("ephemeral", structuredClone(ephemeralOrigin));
        return record("deleted", ephemeralOrigin.ts);
      }
      if (context.messageTs && this.deleteMessage(context.channel, context.messageTs)) {
        return record("deleted", context.messageTs);
      }
      return record("ignored");
    }
    if (body.replace_original === true || body.replace_original === "true") {
      if (ephemeralOrigin) {
        ephemeralOrigin.text = text ?? "";
        if (blocks) ephemeralOrigin.blocks = withSlackIds(blocks);
        else delete ephemeralOrigin.blocks;
        this.emit("ephemeral", structuredClone(ephemeralOrigin));
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
