import { EventEmitter } from "node:events";
import type { MessageMetadata } from "@slack/types";
import { MessageClock } from "../ids.js";
import type { WorkspaceSeed } from "../seed.js";
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
} from "../types.js";
import { withSlackIds } from "./blockKit.js";
import { FileStore } from "./files.js";

/**
 * The conversations of the stand-in's workspace: people, user groups, channels (a person's DM
 * made on first use), messages with threads, ephemeral messages and shared files. It is the part
 * of the workspace that knows nothing of interactions; Workspace (workspace.ts) adds trigger
 * ids, views and response URLs on top. No HTTP here and no argument checking (the Web API layer
 * does that, with Slack's errors); every change is announced as an event so that waiting code
 * never polls.
 */

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

export class Conversations extends EventEmitter<WorkspaceEvents> {
  readonly team: StandinTeam;
  readonly bot: StandinBot;
  readonly users = new Map<string, StandinUser>();
  readonly userGroups = new Map<string, StandinUserGroup>();
  readonly channels = new Map<string, StandinChannel>();
  /** Files uploaded with files.getUploadURLExternal + files.completeUploadExternal. */
  readonly files = new FileStore();
  /** The stand-in's own address, for response URLs and permalinks; set once it listens. */
  baseUrl = "http://127.0.0.1";

  protected readonly clock = new MessageClock();
  private readonly messagesByChannel = new Map<string, StandinMessage[]>();
  private readonly ephemeralList: StandinEphemeral[] = [];

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

  /** Removes an ephemeral message (`delete_original` on a response URL); false when none. */
  deleteEphemeral(ts: string): boolean {
    const ephemeral = this.findEphemeral(ts);
    if (!ephemeral) return false;
    ephemeral.deleted = true;
    this.emit("ephemeral", structuredClone(ephemeral));
    return true;
  }

  /** Replaces an ephemeral message's content (`replace_original`): no blocks means none. */
  replaceEphemeral(ts: string, text: string, blocks: SlackBlock[] | undefined): boolean {
    const ephemeral = this.findEphemeral(ts);
    if (!ephemeral) return false;
    ephemeral.text = text;
    if (blocks) ephemeral.blocks = withSlackIds(blocks);
    else delete ephemeral.blocks;
    this.emit("ephemeral", structuredClone(ephemeral));
    return true;
  }
}
