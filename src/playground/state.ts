import type { SlackStandin } from "../standin/server.js";
import type {
  SlackBlock,
  StandinEphemeral,
  StandinMessage,
  StandinUser,
  StandinView,
  ViewStateValues,
} from "../standin/types.js";
import type { FaultsStatus } from "./sandboxFaults.js";
import type { SandboxTimeStatus } from "./sandboxTime.js";

/**
 * What the playground page shows one person: the channels they can read, the messages with their
 * threads, the ephemeral messages only they see, and their open modals. Built fresh from the
 * stand-in's workspace on every poll; the page never sees another person's ephemerals or
 * modals, as in Slack.
 */

export interface PlaygroundPerson {
  id: string;
  name: string;
  realName: string;
  /** What this person is for in the demo (requester, approver, …). */
  role: string;
  tz: string;
}

export interface PlaygroundChannel {
  id: string;
  name: string;
  kind: "channel" | "dm";
}

export interface PlaygroundMessage {
  ts: string;
  channel: string;
  /** The author's user id (the app's bot user for the app's messages). */
  user: string;
  author: string;
  fromApp: boolean;
  /** Only the viewing person sees it ("Only visible to you"). */
  ephemeral: boolean;
  text: string;
  blocks?: SlackBlock[];
  threadTs?: string;
  replyCount: number;
  replyUsers: string[];
  edited: boolean;
  /** Files shared with the message (files.completeUploadExternal), downloadable from the page. */
  files?: PlaygroundFile[];
}

export interface PlaygroundFile {
  id: string;
  name: string;
  title: string;
  /** Bytes. */
  size: number;
}

export interface PlaygroundModal {
  id: string;
  hash: string;
  callbackId: string;
  title: string;
  submit?: string;
  close?: string;
  blocks: SlackBlock[];
  /** `view.state.values` as the app would receive them (entered and initial values). */
  values: ViewStateValues;
  /** The app's last `response_action: errors`, by block_id. */
  errors: Record<string, string>;
}

export interface PlaygroundState {
  /** Changes whenever the workspace changes; the page passes it back as `since`. */
  version: number;
  /** The provider is the embedded sandbox: nothing is really ordered. */
  sandbox: boolean;
  me: PlaygroundPerson;
  people: PlaygroundPerson[];
  directory: {
    users: Record<string, string>;
    userGroups: Record<string, string>;
    channels: Record<string, string>;
  };
  channels: PlaygroundChannel[];
  /** Top-level messages and ephemerals per channel id, oldest first. */
  messages: Record<string, PlaygroundMessage[]>;
  /** Replies (and ephemerals in a thread) by `channel:thread_ts`, oldest first, parent excluded. */
  threads: Record<string, PlaygroundMessage[]>;
  /** The person's modal stack, bottom first; the last one is the one they see. */
  modals: PlaygroundModal[];
  /** The app's Home tab as last published for this person (`views.publish`), if ever. */
  home?: PlaygroundHome;
  /** With the embedded sandbox only: its clock, which the page can move forward. */
  sandboxTime?: SandboxTimeStatus;
  /** With the embedded sandbox only: the fault knobs armed ("Try a failure"). */
  sandboxFaults?: FaultsStatus;
  /** This run of the playground (set by the API): a new one means everything was reset. */
  runId?: string;
}

export interface PlaygroundHome {
  id: string;
  hash: string;
  blocks: SlackBlock[];
  values: ViewStateValues;
}

/** A browser tab of a busy demo stays fast: older messages are left out of each poll. */
export const MAX_MESSAGES_PER_CHANNEL = 200;

const ROLES: Record<string, string> = {
  U0REQUEST1: "requester",
  U0APPROVE1: "approver",
  U0APPROVE2: "group approver",
  U0OUTSIDE1: "outsider",
};

function person(user: StandinUser): PlaygroundPerson {
  return {
    id: user.id,
    name: user.profile.display_name || user.name,
    realName: user.real_name,
    role: ROLES[user.id] ?? "member",
    tz: user.tz,
  };
}

/** The people one can act as: everyone in the workspace but bots. */
export function playgroundPeople(standin: SlackStandin): PlaygroundPerson[] {
  return [...standin.workspace.users.values()].filter((u) => !u.is_bot).map(person);
}

export const threadKey = (channel: string, ts: string) => `${channel}:${ts}`;

function fromMessage(standin: SlackStandin, message: StandinMessage): PlaygroundMessage {
  const fromApp = message.bot_id !== undefined || message.user === standin.workspace.bot.userId;
  const author = fromApp
    ? standin.workspace.bot.name
    : (standin.workspace.users.get(message.user)?.real_name ?? message.user);
  return {
    ts: message.ts,
    channel: message.channel,
    user: message.user,
    author,
    fromApp,
    ephemeral: false,
    text: message.text,
    ...(message.blocks ? { blocks: message.blocks } : {}),
    ...(message.thread_ts ? { threadTs: message.thread_ts } : {}),
    replyCount: message.reply_count ?? 0,
    replyUsers: message.reply_users ?? [],
    edited: message.edited !== undefined,
    ...(message.files?.length ? { files: filesOf(standin, message.files) } : {}),
  };
}

function filesOf(
  standin: SlackStandin,
  files: NonNullable<StandinMessage["files"]>,
): PlaygroundFile[] {
  return files.map((f) => ({
    id: f.id,
    name: f.name,
    title: f.title ?? f.name,
    size: standin.workspace.files.file(f.id)?.bytes?.length ?? 0,
  }));
}

function fromEphemeral(standin: SlackStandin, message: StandinEphemeral): PlaygroundMessage {
  return {
    ts: message.ts,
    channel: message.channel,
    user: standin.workspace.bot.userId,
    author: standin.workspace.bot.name,
    fromApp: true,
    ephemeral: true,
    text: message.text,
    ...(message.blocks ? { blocks: message.blocks } : {}),
    ...(message.thread_ts ? { threadTs: message.thread_ts } : {}),
    replyCount: 0,
    replyUsers: [],
    edited: false,
  };
}

function fromView(stored: StandinView): PlaygroundModal {
  const { view } = stored;
  return {
    id: view.id,
    hash: view.hash,
    callbackId: view.callback_id,
    title: view.title.text,
    ...(view.submit ? { submit: view.submit.text } : {}),
    ...(view.close ? { close: view.close.text } : {}),
    blocks: view.blocks as SlackBlock[],
    values: view.state.values as ViewStateValues,
    errors: stored.errors ?? {},
  };
}

const byTs = (a: { ts: string }, b: { ts: string }) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0);

/** The channels this person sees: every public or private channel, and their DM with the app. */
export function visibleChannels(standin: SlackStandin, userId: string): PlaygroundChannel[] {
  const channels: PlaygroundChannel[] = [];
  for (const channel of standin.workspace.channels.values()) {
    if (!channel.is_im) channels.push({ id: channel.id, name: channel.name, kind: "channel" });
    else if (channel.user === userId)
      channels.push({ id: channel.id, name: standin.workspace.bot.name, kind: "dm" });
  }
  return channels;
}

export function buildState(
  standin: SlackStandin,
  userId: string,
  version: number,
  sandbox: boolean,
): PlaygroundState {
  const { workspace } = standin;
  const me = workspace.users.get(userId);
  if (!me) throw new Error(`No user ${userId} in the stand-in workspace`);
  const channels = visibleChannels(standin, userId);
  const messages: Record<string, PlaygroundMessage[]> = {};
  const threads: Record<string, PlaygroundMessage[]> = {};
  const ephemerals = standin.ephemerals(userId);

  for (const channel of channels) {
    const all = standin.messages(channel.id);
    const topLevel: PlaygroundMessage[] = [];
    for (const message of all) {
      const shown = fromMessage(standin, message);
      if (message.thread_ts && message.thread_ts !== message.ts) {
        const key = threadKey(channel.id, message.thread_ts);
        threads[key] ??= [];
        threads[key].push(shown);
      } else {
        topLevel.push(shown);
      }
    }
    for (const ephemeral of ephemerals.filter((e) => e.channel === channel.id)) {
      const shown = fromEphemeral(standin, ephemeral);
      if (ephemeral.thread_ts) {
        const key = threadKey(channel.id, ephemeral.thread_ts);
        threads[key] ??= [];
        threads[key].push(shown);
      } else {
        topLevel.push(shown);
      }
    }
    messages[channel.id] = topLevel.sort(byTs).slice(-MAX_MESSAGES_PER_CHANNEL);
  }
  for (const list of Object.values(threads)) list.sort(byTs);

  const users: Record<string, string> = {};
  for (const user of workspace.users.values()) users[user.id] = user.real_name;
  users[workspace.bot.userId] = workspace.bot.name;
  const userGroups: Record<string, string> = {};
  for (const group of workspace.userGroups.values()) userGroups[group.id] = group.handle;
  const channelNames: Record<string, string> = {};
  for (const channel of workspace.channels.values()) {
    if (!channel.is_im) channelNames[channel.id] = channel.name;
  }

  return {
    version,
    sandbox,
    me: person(me),
    people: playgroundPeople(standin),
    directory: { users, userGroups, channels: channelNames },
    channels,
    messages,
    threads,
    modals: standin.modalStack(userId).map(fromView),
    ...homeOf(standin, userId),
  };
}

function homeOf(standin: SlackStandin, userId: string): { home?: PlaygroundHome } {
  const stored = standin.homeView(userId);
  if (!stored) return {};
  const { view } = stored;
  return {
    home: {
      id: view.id,
      hash: view.hash,
      blocks: view.blocks as SlackBlock[],
      values: view.state.values as ViewStateValues,
    },
  };
}
