import { randomBytes } from "node:crypto";
import type {
  BlockAction,
  BlockElementAction,
  BlockSuggestion,
  SlashCommand,
  ViewClosedAction,
  ViewOutput,
  ViewSubmitAction,
} from "@slack/bolt";
import type { StandinChannel, StandinTeam, StandinUser } from "../types.js";

/**
 * Request bodies in the shape Slack sends them to an app, typed with Bolt's own payload types,
 * each with overrides for the odd field a test wants different. Slash commands are form fields;
 * interactions are one form field, `payload`, holding JSON.
 */

/** Who is acting and in which app: the fields every payload repeats. */
export interface Actor {
  team: StandinTeam;
  user: Pick<StandinUser, "id" | "name">;
  apiAppId: string;
  /** The deprecated verification token Slack still sends in every payload. */
  verificationToken: string;
}

function userField(actor: Actor) {
  return {
    id: actor.user.id,
    username: actor.user.name,
    name: actor.user.name,
    team_id: actor.team.id,
  };
}

function teamField(actor: Actor) {
  return { id: actor.team.id, domain: actor.team.domain };
}

/** The fields every interaction payload opens with: who, in which team and app. */
function interactionFields(actor: Actor) {
  return {
    team: teamField(actor),
    user: userField(actor),
    api_app_id: actor.apiAppId,
    token: actor.verificationToken,
    is_enterprise_install: false,
  };
}

/** A Slack action timestamp (`1700000000.123456`). */
export function actionTs(now = Date.now()): string {
  return `${Math.floor(now / 1000)}.${String((now % 1000) * 1000).padStart(6, "0")}`;
}

export interface SlashCommandInput {
  actor: Actor;
  channel: Pick<StandinChannel, "id" | "name">;
  command: string;
  text: string;
  responseUrl: string;
  triggerId: string;
}

export function slashCommandPayload(
  input: SlashCommandInput,
  overrides: Partial<SlashCommand> = {},
): SlashCommand {
  return {
    token: input.actor.verificationToken,
    team_id: input.actor.team.id,
    team_domain: input.actor.team.domain,
    channel_id: input.channel.id,
    channel_name: input.channel.name,
    user_id: input.actor.user.id,
    user_name: input.actor.user.name,
    command: input.command,
    text: input.text,
    api_app_id: input.actor.apiAppId,
    is_enterprise_install: "false",
    response_url: input.responseUrl,
    trigger_id: input.triggerId,
    ...overrides,
  };
}

/** A slash command as Slack posts it: `application/x-www-form-urlencoded` fields. */
export function slashCommandBody(command: SlashCommand): string {
  const fields = new URLSearchParams();
  for (const [key, value] of Object.entries(command)) {
    if (value !== undefined) fields.set(key, String(value));
  }
  return fields.toString();
}

/** An interaction as Slack posts it: one form field, `payload`, holding the JSON. */
export function interactionBody(payload: object): string {
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/** The HTTP body Slack posts for a slash command or an interaction payload. */
export function requestBody(kind: "command" | "interaction", payload: object): string {
  return kind === "command" ? slashCommandBody(payload as SlashCommand) : interactionBody(payload);
}

/**
 * An Events API delivery (`event_callback`), as Slack posts it: JSON (HTTP, content type
 * `application/json`) or an `events_api` envelope (Socket Mode).
 */
export function eventCallbackPayload(input: {
  actor: Actor;
  event: Record<string, unknown> & { type: string };
}): Record<string, unknown> {
  const now = Date.now();
  return {
    token: input.actor.verificationToken,
    team_id: input.actor.team.id,
    api_app_id: input.actor.apiAppId,
    event: { ...input.event, event_ts: actionTs(now) },
    type: "event_callback",
    event_id: `Ev${randomBytes(6).toString("hex").toUpperCase()}`,
    event_time: Math.floor(now / 1000),
    authorizations: [{ team_id: input.actor.team.id, user_id: input.actor.user.id, is_bot: false }],
    is_ext_shared_channel: false,
  };
}

/** Where a block action happened: in a channel message, an ephemeral message, or a view. */
export type ActionSource =
  | {
      kind: "message";
      channel: Pick<StandinChannel, "id" | "name">;
      /** The message as the Web API shows it (Slack sends it whole). */
      message: Record<string, unknown> & { ts: string };
      responseUrl: string;
    }
  | {
      kind: "ephemeral";
      channel: Pick<StandinChannel, "id" | "name">;
      messageTs: string;
      responseUrl: string;
    }
  | { kind: "view"; view: ViewOutput };

export function blockActionsPayload(
  input: { actor: Actor; source: ActionSource; actions: BlockElementAction[]; triggerId: string },
  overrides: Partial<BlockAction> = {},
): BlockAction {
  const { actor, source } = input;
  const common = {
    type: "block_actions" as const,
    ...interactionFields(actor),
    trigger_id: input.triggerId,
    actions: input.actions,
  };
  if (source.kind === "view") {
    // Slack sends no response_url for actions in a view; Bolt's type insists on one.
    const payload = {
      ...common,
      container: { type: "view", view_id: source.view.id },
      view: source.view,
      state: source.view.state,
      ...overrides,
    };
    return payload as BlockAction;
  }
  const ephemeral = source.kind === "ephemeral";
  return {
    ...common,
    container: {
      type: "message",
      message_ts: ephemeral ? source.messageTs : source.message.ts,
      channel_id: source.channel.id,
      is_ephemeral: ephemeral,
    },
    channel: { id: source.channel.id, name: source.channel.name },
    // Slack does not send the message of an ephemeral message back.
    ...(ephemeral ? {} : { message: { type: "message", ...source.message } }),
    state: { values: {} },
    response_url: source.responseUrl,
    ...overrides,
  } as BlockAction;
}

export function viewSubmissionPayload(
  input: { actor: Actor; view: ViewOutput; triggerId: string },
  overrides: Partial<ViewSubmitAction> = {},
): ViewSubmitAction {
  return {
    type: "view_submission",
    ...interactionFields(input.actor),
    trigger_id: input.triggerId,
    view: input.view,
    response_urls: [],
    ...overrides,
  };
}

export function viewClosedPayload(
  input: { actor: Actor; view: ViewOutput; isCleared: boolean },
  overrides: Partial<ViewClosedAction> = {},
): ViewClosedAction {
  return {
    type: "view_closed",
    ...interactionFields(input.actor),
    view: input.view,
    is_cleared: input.isCleared,
    ...overrides,
  };
}

export function blockSuggestionPayload(
  input: {
    actor: Actor;
    actionId: string;
    blockId: string;
    value: string;
    source:
      | { kind: "view"; view: ViewOutput }
      | { kind: "message"; channel: Pick<StandinChannel, "id" | "name">; messageTs: string };
  },
  overrides: Partial<BlockSuggestion> = {},
): BlockSuggestion {
  const { actor, source } = input;
  const where =
    source.kind === "view"
      ? { container: { type: "view", view_id: source.view.id }, view: source.view }
      : {
          container: {
            type: "message",
            message_ts: source.messageTs,
            channel_id: source.channel.id,
          },
          channel: { id: source.channel.id, name: source.channel.name },
        };
  return {
    type: "block_suggestion",
    ...interactionFields(actor),
    action_id: input.actionId,
    block_id: input.blockId,
    value: input.value,
    ...where,
    ...overrides,
  };
}
