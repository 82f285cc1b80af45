import type { App, RespondFn } from "@slack/bolt";
import type { KnownBlock } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import {
  actions,
  button,
  capBlocks,
  LIMITS,
  sandboxLabelledBlocks,
  section,
  withoutSandboxLabel,
  withSandboxLabel,
} from "../../views/blocks.js";
import { describeFailure } from "../../views/failures.js";
import { commandGroupReply, unknownCommandReply } from "../../views/help.js";
import { problemReply, type Reply, sharedByContext } from "../../views/reply.js";
import type { GroupMembers } from "../approvals/index.js";
import { newRequestId, withRequestId } from "../context.js";
import { COMMAND, type CommandName, parseCommand } from "../domain/commands.js";
import { isCodedError } from "../domain/errors.js";
import type { Logger } from "../log.js";
import type { Metrics } from "../metrics.js";
import type { OrderRequests } from "../orders/requests.js";
import { BUSY_TEXT, FollowUpLane } from "./followUps.js";
import { groupMembersVia, modalOpener, type OpenModal, recordCommand } from "./kit/index.js";
import type { ListenerRegistry } from "./listenerTable.js";

export const ACTION_SHARE = "connect_share";
export const ACTION_PAGE = "connect_page";

export type Outcome = "succeeded" | "failed" | "errored" | "blocked";

/**
 * What a subcommand handler gets: plain inputs, the lifecycle API and narrow ways to answer and
 * to ask Slack — never the raw client. What else a command uses its feature hands it (CommandOf).
 */
export interface CommandContext {
  name: CommandName;
  args: string[];
  /** Zero-based page of a paged list. */
  page: number;
  userId: string;
  channelId: string;
  triggerId?: string;
  /**
   * The lifecycle API (src/orders/requests.ts): submit, approve, reject, withdraw, stop
   * tracking, who may request, who sees the money — every front door's one call per step.
   */
  requests: OrderRequests;
  /** Members of a Slack user group (a policy may name groups), read with the app's client. */
  groups: GroupMembers;
  /** A message's permalink; undefined when Slack will not say. */
  permalink(channel: string, ts: string): Promise<string | undefined>;
  /** The user's IANA time zone from Slack, when it can be had. */
  timeZone(): Promise<string | undefined>;
  /** Answers the person (ephemeral), with Share and paging buttons added. */
  reply(reply: Reply): Promise<void>;
  /**
   * Opens a modal (needs the trigger id of the request, valid for 3 seconds), labelled sandbox
   * when it is; what it returns replaces the view later (a form filled after "loading").
   */
  openModal: OpenModal;
}

export type CommandHandler = (ctx: CommandContext) => Promise<void>;
export type CommandHandlers = Record<CommandName, CommandHandler>;

/** A feature's subcommand: the context, and the parts its feature hands it (`deps`). */
export type CommandOf<D> = (ctx: CommandContext, deps: D) => Promise<void>;
/** A feature's table of the subcommands it answers. */
export type CommandTable<D> = Partial<Record<CommandName, CommandOf<D>>>;

/** A feature's table with its parts handed over: handlers the router can call. */
export function withDeps<K extends CommandName, D>(
  table: Record<K, CommandOf<D>>,
  deps: D,
): Record<K, CommandHandler> {
  const bound = {} as Record<K, CommandHandler>;
  for (const [name, handler] of Object.entries(table) as [K, CommandOf<D>][])
    bound[name] = (ctx) => handler(ctx, deps);
  return bound;
}

/** What the router itself uses: the log, the metrics, the sandbox flag, the lifecycle API. */
export interface RouterDeps {
  sandbox: boolean;
  logger: Logger;
  metrics: Metrics;
  requests: OrderRequests;
}

/** Button payload to re-run a read command: "prompt, then re-invoke". */
interface Reinvoke {
  c: string;
  p: number;
}

function reinvokeValue(text: string, page: number): string | undefined {
  const value = JSON.stringify({ c: text, p: page } satisfies Reinvoke);
  return value.length <= LIMITS.actionValue ? value : undefined;
}

function parseReinvoke(value: string | undefined): Reinvoke | undefined {
  try {
    const parsed = JSON.parse(value ?? "") as Partial<Reinvoke>;
    return typeof parsed.c === "string" && Number.isInteger(parsed.p) && (parsed.p ?? 0) >= 0
      ? { c: parsed.c, p: parsed.p ?? 0 }
      : undefined;
  } catch {
    return undefined;
  }
}

function decorate(reply: Reply, text: string, services: RouterDeps, shared: boolean): KnownBlock[] {
  const buttons = [];
  if (reply.page) {
    const { index, hasNext } = reply.page;
    const prev = reinvokeValue(text, index - 1);
    const next = reinvokeValue(text, index + 1);
    if (index > 0 && prev) buttons.push(button("◀ Previous", `${ACTION_PAGE}_prev`, prev));
    if (hasNext && next) buttons.push(button("Next ▶", `${ACTION_PAGE}_next`, next));
  }
  const share = reinvokeValue(text, reply.page?.index ?? 0);
  if (!shared && !reply.problem && !reply.keepPrivate && share)
    buttons.push(button("Share in channel", ACTION_SHARE, share));
  // Slack shows a message's blocks, not its fallback text: an answer written as text alone
  // would reach the person as an empty message (only the sandbox label).
  // The label once, last: an answer built from the read model (a withdrawal's) carries it.
  const blocks =
    reply.blocks.length > 0 ? withoutSandboxLabel(reply.blocks) : [section(reply.text)];
  if (buttons.length > 0) blocks.push(actions("connect_reply_actions", buttons));
  return capBlocks(withSandboxLabel(blocks, services.sandbox));
}

interface RunInput {
  text: string;
  page: number;
  userId: string;
  channelId: string;
  triggerId?: string;
  respond: RespondFn;
  client: WebClient;
  /** Share: post in the channel for everyone instead of answering privately. */
  mode: "ephemeral" | "replace" | "share";
}

export function createConnectRouter(
  handlers: CommandHandlers,
  services: RouterDeps,
  lane: FollowUpLane = new FollowUpLane(),
) {
  const timeZones = new Map<string, string | undefined>();

  async function run(input: RunInput): Promise<Outcome> {
    const parsed = parseCommand(input.text);
    const started = performance.now();
    const name = parsed.kind === "command" ? parsed.name : "unknown";
    let outcome: Outcome = "succeeded";
    try {
      if (parsed.kind === "unknown" || parsed.kind === "group") {
        // A word that names no command: said in blocks like every answer, with the sandbox label.
        const reply =
          parsed.kind === "unknown"
            ? unknownCommandReply(parsed.input, parsed.suggestions)
            : commandGroupReply(parsed.prefix, parsed.commands, parsed.unmatched);
        if (reply.problem) outcome = "failed";
        await input.respond({
          response_type: "ephemeral",
          replace_original: input.mode === "replace",
          text: reply.text,
          blocks: decorate({ ...reply, problem: true }, input.text, services, true),
        });
        return outcome;
      }
      const handler = handlers[parsed.name as CommandName];
      const ctx: CommandContext = {
        name: parsed.name as CommandName,
        args: parsed.args,
        page: input.page,
        userId: input.userId,
        channelId: input.channelId,
        triggerId: input.triggerId,
        requests: services.requests,
        groups: groupMembersVia(input.client),
        permalink: (channel, ts) =>
          input.client.chat
            .getPermalink({ channel, message_ts: ts })
            .then((r) => r.permalink)
            .catch(() => undefined),
        timeZone: async () => {
          if (!timeZones.has(input.userId)) {
            const info = await input.client.users
              .info({ user: input.userId })
              .catch(() => undefined);
            timeZones.set(input.userId, info?.user?.tz);
          }
          return timeZones.get(input.userId);
        },
        reply: async (reply) => {
          if (reply.problem) outcome = "failed";
          if (input.mode === "share" && reply.keepPrivate) {
            outcome = "failed";
            await input.respond({
              response_type: "ephemeral",
              replace_original: false,
              text: reply.keepPrivate,
              blocks: decorate(problemReply(reply.keepPrivate), input.text, services, true),
            });
            return;
          }
          const blocks = decorate(reply, input.text, services, input.mode === "share");
          if (input.mode === "share") {
            await input.respond({
              response_type: "in_channel",
              replace_original: false,
              text: reply.text,
              blocks: [
                ...blocks,
                sharedByContext(input.userId, `${COMMAND} ${ctx.name}`, ctx.args),
              ],
            });
          } else {
            await input.respond({
              response_type: "ephemeral",
              replace_original: input.mode === "replace",
              text: reply.text,
              blocks,
            });
          }
        },
        openModal: async (view) => {
          if (!input.triggerId) throw new Error("no trigger id to open a modal with");
          return modalOpener(input.client, input.triggerId, services.sandbox)(view);
        },
      };
      await handler(ctx);
    } catch (error) {
      outcome = isCodedError(error, "blocked")
        ? "blocked"
        : isCodedError(error, "provider")
          ? "failed"
          : "errored";
      const log = outcome === "errored" ? services.logger.error : services.logger.warn;
      log.call(services.logger, { err: error, command: name }, "command failed");
      const text = describeFailure(error);
      const blocks = sandboxLabelledBlocks({ text }, services.sandbox);
      await input
        .respond({
          response_type: "ephemeral",
          replace_original: false,
          text,
          ...(blocks ? { blocks } : {}),
        })
        .catch((respondError: unknown) =>
          services.logger.warn({ err: respondError }, "could not tell the user"),
        );
    } finally {
      recordCommand(services, {
        command: name,
        userId: input.userId,
        channelId: input.channelId,
        outcome,
        startedAt: started,
      });
    }
    return outcome;
  }

  /**
   * Queues a request's work in the lane and returns without waiting for it.
   *
   * Why not await it in the listener: Bolt keeps everything of a request (the HTTP request and
   * response, the parsed body, the listener's arguments and context) alive until the listener
   * returns. Awaited, a follow-up that waits its turn in the lane for a minute holds all of that
   * for a minute, and in a burst hundreds of such requests survive the young generation's
   * collections, which then copy them over and over before they are promoted (`npm run bench --
   * ack`, concurrency 16, 2,000 requests: the bot's scavenges took 762 ms awaited, 607 ms not).
   * Only `input` is kept here. `run` answers its own failures; anything that throws anyway is
   * logged, never left as an unhandled rejection (which would end the process).
   */
  function followUp(input: RunInput): void {
    lane
      .run(() => withRequestId(newRequestId(), () => run(input)))
      .catch((error: unknown) => services.logger.error({ err: error }, "follow-up failed"));
  }

  function register(app: ListenerRegistry): void {
    app.command(COMMAND, async ({ command, ack, respond, client }) => {
      if (!lane.hasRoom()) {
        await ack({ response_type: "ephemeral", text: BUSY_TEXT });
        return;
      }
      // Ack first (Slack's 3 seconds), then work: provider calls may be slow.
      await ack();
      followUp({
        text: command.text ?? "",
        page: 0,
        userId: command.user_id,
        channelId: command.channel_id,
        triggerId: command.trigger_id,
        respond,
        client,
        mode: "ephemeral",
      });
    });

    const rerun =
      (mode: "replace" | "share") =>
      async ({
        ack,
        body,
        action,
        respond,
        client,
      }: Parameters<Parameters<App["action"]>[1]>[0]) => {
        await ack();
        const value = "value" in action ? (action.value as string | undefined) : undefined;
        const reinvoke = parseReinvoke(value);
        if (!reinvoke || body.type !== "block_actions") return;
        if (!lane.hasRoom()) {
          const blocks = sandboxLabelledBlocks({ text: BUSY_TEXT }, services.sandbox);
          await respond({
            response_type: "ephemeral",
            replace_original: false,
            text: BUSY_TEXT,
            ...(blocks ? { blocks } : {}),
          });
          return;
        }
        followUp({
          text: reinvoke.c,
          page: reinvoke.p,
          userId: body.user.id,
          channelId: body.channel?.id ?? body.container?.channel_id ?? "",
          triggerId: body.trigger_id,
          respond,
          client,
          mode,
        });
      };
    app.action(ACTION_SHARE, rerun("share"));
    app.action(new RegExp(`^${ACTION_PAGE}_`), rerun("replace"));
  }

  return { run, register };
}
