import type { ViewOutput, ViewStateValue } from "@slack/bolt";
import type { Block, KnownBlock, MessageMetadata, Option } from "@slack/types";

/**
 * The shapes the stand-in keeps and hands out. Where Slack has a documented shape (a view as
 * Slack returns it, a state value), Bolt's own types are used so that a test reads what the app
 * reads.
 */

export type { Option, ViewOutput, ViewStateValue };
export type SlackBlock = KnownBlock | Block;

/** Arguments of a Web API call after decoding (form fields, nested JSON decoded). */
export type SlackArgs = Record<string, unknown>;

/** A Web API answer: `{ok: true, …}` or `{ok: false, error}` like Slack's. */
export type SlackResult =
  | ({ ok: true } & Record<string, unknown>)
  | ({ ok: false; error: string } & Record<string, unknown>);

export type ViewStateValues = Record<string, Record<string, ViewStateValue>>;

export interface StandinTeam {
  id: string;
  domain: string;
  name: string;
}

export interface StandinUser {
  id: string;
  team_id: string;
  name: string;
  real_name: string;
  tz: string;
  tz_label: string;
  /** Seconds east of UTC, as Slack gives it (changes with daylight saving time). */
  tz_offset: number;
  is_bot: boolean;
  is_admin: boolean;
  deleted: boolean;
  profile: { real_name: string; display_name: string; email: string };
}

export interface StandinUserGroup {
  id: string;
  team_id: string;
  handle: string;
  name: string;
  users: string[];
  /** Disabled in Slack: listed only with `include_disabled`, with `date_delete` set. */
  disabled?: boolean;
}

export interface StandinChannel {
  id: string;
  name: string;
  is_channel: boolean;
  is_private: boolean;
  is_im: boolean;
  /** For a DM (`D…`): the user on the other side. */
  user?: string;
  created: number;
  is_member: boolean;
}

/** Who the app is in the workspace (what auth.test answers). */
export interface StandinBot {
  userId: string;
  botId: string;
  appId: string;
  name: string;
}

export interface StandinMessage {
  type: "message";
  channel: string;
  ts: string;
  /** The bot's user id for the app's messages; a person's for messages posted as a user. */
  user: string;
  bot_id?: string;
  app_id?: string;
  team: string;
  text: string;
  blocks?: SlackBlock[];
  attachments?: unknown[];
  metadata?: MessageMetadata;
  /** Files shared with the message (files.completeUploadExternal): ids, names and titles. */
  files?: Array<{ id: string; name: string; title?: string }>;
  thread_ts?: string;
  reply_count?: number;
  reply_users?: string[];
  latest_reply?: string;
  edited?: { user: string; ts: string };
  deleted?: boolean;
  /** How it got here: a Web API method, a response_url post, or a command's ack body. */
  via: string;
}

export interface StandinEphemeral {
  channel: string;
  /** The only person who sees it. */
  user: string;
  ts: string;
  text: string;
  blocks?: SlackBlock[];
  thread_ts?: string;
  deleted?: boolean;
  via: string;
}

/** What a response_url post (or a command ack body) asked for, and what the stand-in did. */
export interface StandinResponse {
  responseUrlId: string;
  at: number;
  body: Record<string, unknown>;
  applied: "ephemeral" | "in_channel" | "replaced" | "deleted" | "ignored";
  /** The message created or changed. */
  ts?: string;
}

/** A view the app opened, pushed or published, in the shape Slack returns and sends back. */
export interface StandinView {
  view: ViewOutput;
  /** Whose view it is (modals are per user; so is App Home). */
  userId: string;
  /** What the person entered so far, by block_id then action_id. */
  entered: ViewStateValues;
  /** The last `response_action: errors` the app gave for this view. */
  errors?: Record<string, string>;
  closed: boolean;
}

export interface RecordedCall {
  method: string;
  args: SlackArgs;
  at: number;
  /** The token the call carried (stand-in tokens only; never a real secret). */
  token: string | undefined;
  /** The HTTP status and body the stand-in answered with. */
  status: number;
  ok: boolean;
  error?: string;
}
