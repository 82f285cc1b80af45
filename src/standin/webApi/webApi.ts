import type { MessageMetadata } from "@slack/types";
import { isObject } from "../json.js";
import type {
  SlackArgs,
  SlackBlock,
  SlackResult,
  StandinChannel,
  StandinMessage,
  StandinView,
} from "../types.js";
import { MAX_MODAL_STACK, type Workspace } from "../workspace.js";
import { blockProblems, viewProblems } from "./blockKit.js";
import { UPLOAD_PATH } from "./files.js";

/**
 * The Web API methods the bot calls, answered from the workspace state with Slack's result
 * shapes and error codes. Authentication, faults and rate limits are applied before a handler
 * runs (see webApiGate.ts); a handler only checks its arguments.
 */

export type MethodHandler = (args: SlackArgs, workspace: Workspace) => SlackResult;

/** Slack refuses message text longer than this (`msg_too_long`). */
export const MAX_MESSAGE_TEXT = 40_000;

/** Form fields that @slack/web-api sends as JSON strings (it JSON-encodes every non-scalar). */
const JSON_FIELDS = new Set([
  "blocks",
  "attachments",
  "view",
  "metadata",
  "unfurls",
  "user_auth_blocks",
  "files",
  // functions.completeSuccess
  "outputs",
]);

/** Decodes a form-encoded call's fields: nested JSON fields become objects again. */
export function decodeFormArgs(fields: Record<string, string | string[] | undefined>): SlackArgs {
  const args: SlackArgs = {};
  for (const [key, raw] of Object.entries(fields)) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value === undefined) continue;
    if (JSON_FIELDS.has(key)) {
      try {
        args[key] = JSON.parse(value);
      } catch {
        // Left as text: the method then answers invalid_blocks / invalid_arguments, like Slack.
        args[key] = value;
      }
    } else {
      args[key] = value;
    }
  }
  return args;
}

const fail = (error: string, extra: Record<string, unknown> = {}): SlackResult => ({
  ok: false,
  error,
  ...extra,
});

function text(value: unknown): string | undefined {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number") return String(value);
  return undefined;
}

/** A message as the Web API shows it (without the stand-in's bookkeeping). */
export function publicMessage(message: StandinMessage): Record<string, unknown> {
  const { channel: _channel, via: _via, deleted: _deleted, ...shown } = message;
  return shown;
}

function publicView(stored: StandinView): Record<string, unknown> {
  return stored.view as unknown as Record<string, unknown>;
}

interface MessageContent {
  text?: string;
  blocks?: SlackBlock[];
  attachments?: unknown[];
  metadata?: MessageMetadata;
}

/** Checks text, blocks, attachments and metadata the way chat.* methods do. */
function messageContent(args: SlackArgs, requireSomething: boolean): MessageContent | SlackResult {
  const content: MessageContent = {};
  if (args.text !== undefined) {
    if (typeof args.text !== "string") return fail("invalid_arguments");
    if (args.text.length > MAX_MESSAGE_TEXT) return fail("msg_too_long");
    content.text = args.text;
  }
  if (args.blocks !== undefined) {
    const problems = blockProblems(args.blocks, "message");
    if (problems.length > 0)
      return fail("invalid_blocks", { response_metadata: { messages: problems } });
    content.blocks = args.blocks as SlackBlock[];
  }
  if (args.attachments !== undefined) {
    if (!Array.isArray(args.attachments)) return fail("invalid_attachments");
    content.attachments = args.attachments;
  }
  if (args.metadata !== undefined) {
    const m = args.metadata;
    if (!isObject(m) || typeof m.event_type !== "string" || !isObject(m.event_payload)) {
      return fail("invalid_metadata_format");
    }
    content.metadata = m as unknown as MessageMetadata;
  }
  const hasSomething =
    (content.text ?? "") !== "" ||
    (content.blocks?.length ?? 0) > 0 ||
    (content.attachments?.length ?? 0) > 0;
  if (requireSomething && !hasSomething) return fail("no_text");
  return content;
}

const isResult = (value: unknown): value is SlackResult => isObject(value) && "ok" in value;

/** The message a chat.* call names by channel and `ts` (or `message_ts`), or Slack's error. */
function namedMessage(
  args: SlackArgs,
  ws: Workspace,
  tsField: "ts" | "message_ts",
): { channel: StandinChannel; ts: string; message: StandinMessage } | SlackResult {
  const channel = ws.resolveChannel(text(args.channel) ?? "");
  if (!channel) return fail("channel_not_found");
  const ts = text(args[tsField]);
  const message = ts ? ws.findMessage(channel.id, ts) : undefined;
  if (!ts || !message) return fail("message_not_found");
  return { channel, ts, message };
}

function checkView(
  args: SlackArgs,
  expected: "modal" | "home" | "any",
): Record<string, unknown> | SlackResult {
  const problems = viewProblems(args.view, expected);
  if (problems.length > 0)
    return fail("invalid_arguments", { response_metadata: { messages: problems } });
  return args.view as Record<string, unknown>;
}

/**
 * A modal opened by an interaction (views.open, views.push): a trigger id, a valid modal, and
 * the trigger redeemed once, as Slack checks them; the person it belongs to, or Slack's error.
 */
function triggeredModal(
  args: SlackArgs,
  ws: Workspace,
): { userId: string; view: Record<string, unknown> } | SlackResult {
  const trigger = text(args.trigger_id);
  if (!trigger) return fail("invalid_arguments");
  const view = checkView(args, "modal");
  if (isResult(view)) return view;
  const redeemed = ws.redeemTrigger(trigger);
  if ("error" in redeemed) return fail(redeemed.error);
  return { userId: redeemed.userId, view };
}

function checkHash(args: SlackArgs, stored: StandinView): SlackResult | undefined {
  const hash = text(args.hash);
  return hash !== undefined && hash !== stored.view.hash ? fail("hash_conflict") : undefined;
}

export const METHODS: Record<string, MethodHandler> = {
  "api.test": (args) => ({ ok: true, args }),

  "auth.test": (_args, ws) => ({
    ok: true,
    url: `${ws.baseUrl}/`,
    team: ws.team.name,
    user: ws.bot.name,
    team_id: ws.team.id,
    user_id: ws.bot.userId,
    bot_id: ws.bot.botId,
    app_id: ws.bot.appId,
    is_enterprise_install: false,
  }),

  "chat.postMessage": (args, ws) => {
    const channel = ws.resolveChannel(text(args.channel) ?? "");
    if (!channel) return fail("channel_not_found");
    // As Slack without chat:write.public: the bot posts only where it is a member.
    if (!channel.is_im && !channel.is_member) return fail("not_in_channel");
    const content = messageContent(args, true);
    if (isResult(content)) return content;
    const message = ws.postMessage({
      channel: channel.id,
      ...content,
      thread_ts: text(args.thread_ts),
      via: "chat.postMessage",
    });
    return { ok: true, channel: channel.id, ts: message.ts, message: publicMessage(message) };
  },

  "chat.postEphemeral": (args, ws) => {
    const channel = ws.resolveChannel(text(args.channel) ?? "");
    if (!channel) return fail("channel_not_found");
    const userId = text(args.user);
    if (!userId || !ws.users.has(userId)) return fail("user_not_found");
    const content = messageContent(args, true);
    if (isResult(content)) return content;
    const ephemeral = ws.postEphemeral({
      channel: channel.id,
      user: userId,
      text: content.text,
      blocks: content.blocks,
      thread_ts: text(args.thread_ts),
      via: "chat.postEphemeral",
    });
    return { ok: true, message_ts: ephemeral.ts };
  },

  "chat.update": (args, ws) => {
    const named = namedMessage(args, ws, "ts");
    if (isResult(named)) return named;
    const { channel, ts, message: existing } = named;
    if (existing.user !== ws.bot.userId) return fail("cant_update_message");
    const content = messageContent(args, false);
    if (isResult(content)) return content;
    const updated = ws.updateMessage(channel.id, ts, content);
    if (!updated) return fail("message_not_found");
    return {
      ok: true,
      channel: channel.id,
      ts,
      text: updated.text,
      message: publicMessage(updated),
    };
  },

  "chat.delete": (args, ws) => {
    const named = namedMessage(args, ws, "ts");
    if (isResult(named)) return named;
    const { channel, ts, message: existing } = named;
    if (existing.user !== ws.bot.userId) return fail("cant_delete_message");
    ws.deleteMessage(channel.id, ts);
    return { ok: true, channel: channel.id, ts };
  },

  "chat.getPermalink": (args, ws) => {
    const named = namedMessage(args, ws, "message_ts");
    if (isResult(named)) return named;
    const { channel, ts, message } = named;
    const thread =
      message.thread_ts && message.thread_ts !== ts
        ? `?thread_ts=${message.thread_ts}&cid=${channel.id}`
        : "";
    return {
      ok: true,
      channel: channel.id,
      permalink: `${ws.baseUrl}/archives/${channel.id}/p${ts.replace(".", "")}${thread}`,
    };
  },

  "conversations.info": (args, ws) => {
    const channel = ws.resolveChannel(text(args.channel) ?? "");
    if (!channel) return fail("channel_not_found");
    return { ok: true, channel };
  },

  "conversations.open": (args, ws) => {
    const users = (text(args.users) ?? "").split(",").filter((u) => u !== "");
    const [only] = users;
    if (users.length !== 1 || !only)
      return fail(users.length === 0 ? "users_list_not_supplied" : "not_supported");
    const dm = ws.directMessage(only);
    if (!dm) return fail("user_not_found");
    return { ok: true, channel: { id: dm.id } };
  },

  "conversations.history": (args, ws) => {
    const channel = ws.resolveChannel(text(args.channel) ?? "");
    if (!channel) return fail("channel_not_found");
    const top = ws.messages(channel.id).filter((m) => !m.thread_ts || m.thread_ts === m.ts);
    return { ok: true, messages: top.reverse().map(publicMessage), has_more: false };
  },

  "conversations.replies": (args, ws) => {
    const channel = ws.resolveChannel(text(args.channel) ?? "");
    if (!channel) return fail("channel_not_found");
    const ts = text(args.ts);
    if (!ts || !ws.findMessage(channel.id, ts)) return fail("thread_not_found");
    const parent = ws.findMessage(channel.id, ts);
    const threadTs = parent?.thread_ts ?? ts;
    return {
      ok: true,
      messages: ws.messages(channel.id, { threadTs }).map(publicMessage),
      has_more: false,
    };
  },

  "users.info": (args, ws) => {
    const user = ws.users.get(text(args.user) ?? "");
    return user ? { ok: true, user } : fail("user_not_found");
  },

  "usergroups.users.list": (args, ws) => {
    const group = ws.userGroups.get(text(args.usergroup) ?? "");
    return group && !group.disabled
      ? { ok: true, users: [...group.users] }
      : fail("no_such_subteam");
  },

  // The same groups usergroups.users.list answers for: members only with include_users, disabled
  // groups (date_delete set) only with include_disabled, as Slack lists them. A step's error names
  // user groups by handle from here too (src/stepWiring.ts slackGroupHandle).
  "usergroups.list": (args, ws) => {
    const flag = (value: unknown) => value === true || text(value) === "true";
    const withUsers = flag(args.include_users);
    const withDisabled = flag(args.include_disabled);
    const usergroups = [...ws.userGroups.values()]
      .filter((group) => withDisabled || !group.disabled)
      .map((group) => ({
        id: group.id,
        team_id: group.team_id,
        is_usergroup: true,
        name: group.name,
        handle: group.handle,
        date_delete: group.disabled ? 1 : 0,
        user_count: group.users.length,
        ...(withUsers ? { users: [...group.users] } : {}),
      }));
    return { ok: true, usergroups };
  },

  "views.open": (args, ws) => {
    const opened = triggeredModal(args, ws);
    if (isResult(opened)) return opened;
    const { userId, view } = opened;
    if (typeof view.external_id === "string" && ws.viewByExternalId(view.external_id)) {
      return fail("duplicate_external_id");
    }
    return { ok: true, view: publicView(ws.openView(userId, view)) };
  },

  "views.push": (args, ws) => {
    const pushing = triggeredModal(args, ws);
    if (isResult(pushing)) return pushing;
    const { userId, view } = pushing;
    if (ws.stackDepth(userId) >= MAX_MODAL_STACK) return fail("push_limit_reached");
    const pushed = ws.pushView(userId, view);
    return pushed ? { ok: true, view: publicView(pushed) } : fail("not_found");
  },

  "views.update": (args, ws) => {
    const viewId = text(args.view_id);
    const externalId = text(args.external_id);
    if (!viewId && !externalId) return fail("invalid_arguments");
    const stored = viewId ? ws.view(viewId) : ws.viewByExternalId(externalId ?? "");
    if (!stored || stored.closed) return fail("not_found");
    const view = checkView(args, stored.view.type === "home" ? "home" : "modal");
    if (isResult(view)) return view;
    const conflict = checkHash(args, stored);
    if (conflict) return conflict;
    const updated = ws.updateView(stored.view.id, view);
    return updated ? { ok: true, view: publicView(updated) } : fail("not_found");
  },

  "files.getUploadURLExternal": (args, ws) => {
    const filename = text(args.filename);
    const length = Number(text(args.length));
    if (!filename)
      return fail("invalid_arguments", {
        response_metadata: { messages: ["[ERROR] missing required field: filename"] },
      });
    // Slack answers missing_argument for a length of 0.
    if (!Number.isInteger(length) || length < 1) return fail("missing_argument");
    const { file, token } = ws.files.create(filename, length);
    return { ok: true, upload_url: `${ws.baseUrl}${UPLOAD_PATH}/${token}`, file_id: file.id };
  },

  "files.completeUploadExternal": (args, ws) => {
    const items = args.files;
    if (
      !Array.isArray(items) ||
      items.length === 0 ||
      !items.every((item) => isObject(item) && typeof item.id === "string")
    ) {
      return fail("invalid_arguments", {
        response_metadata: { messages: ["[ERROR] files must be an array of {id, title}"] },
      });
    }
    const channelId = text(args.channel_id);
    // Slack takes channel, group and DM ids here, never a user id (open the DM first).
    if (channelId !== undefined && !/^[CGDZ][A-Z0-9]{8,}$/.test(channelId)) {
      return fail("invalid_arguments", {
        response_metadata: {
          messages: [
            "[ERROR] input must match regex pattern: ^[CGDZ][A-Z0-9]{8,}$ [json-pointer:/channel_id]",
          ],
        },
      });
    }
    const channel = channelId === undefined ? undefined : ws.channels.get(channelId);
    if (channelId !== undefined && !channel) return fail("channel_not_found");
    const comment = text(args.initial_comment);
    const content =
      comment === undefined && args.blocks !== undefined
        ? messageContent({ blocks: args.blocks }, false)
        : {};
    if (isResult(content)) return content;
    const done = ws.files.complete(
      items.map((item) => ({
        id: String(item.id),
        ...(typeof item.title === "string" ? { title: item.title } : {}),
      })),
      channel?.id,
    );
    if (typeof done === "string") return fail(done);
    if (channel) {
      ws.postMessage({
        channel: channel.id,
        text: comment ?? "",
        ...(content.blocks ? { blocks: content.blocks } : {}),
        files: done.map((f) => ({
          id: f.id,
          name: f.name,
          ...(f.title ? { title: f.title } : {}),
        })),
        via: "files.completeUploadExternal",
      });
    }
    return {
      ok: true,
      files: done.map((f) => ({
        id: f.id,
        name: f.name,
        title: f.title ?? f.name,
        size: f.bytes?.length ?? 0,
      })),
    };
  },

  "views.publish": (args, ws) => {
    const userId = text(args.user_id);
    if (!userId || !ws.users.has(userId)) return fail("user_not_found");
    const view = checkView(args, "home");
    if (isResult(view)) return view;
    const existing = ws.homeView(userId);
    if (existing) {
      const conflict = checkHash(args, existing);
      if (conflict) return conflict;
    }
    return { ok: true, view: publicView(ws.publishHome(userId, view)) };
  },
};

/** Whether a method needs a bot token (every method here but the Socket Mode one). */
export function needsAppToken(method: string): boolean {
  return method === "apps.connections.open";
}

export function answerMethod(method: string, args: SlackArgs, workspace: Workspace): SlackResult {
  const handler = METHODS[method];
  if (!handler) return fail("unknown_method", { req_method: method });
  return handler(args, workspace);
}
