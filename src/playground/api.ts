import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { z } from "zod";
import type { SlackAppDriver } from "../standin/driver.js";
import {
  type FieldInput,
  findElement,
  type LocatedElement,
  stateValueFor,
  untouchedStateValue,
} from "../standin/modal.js";
import type { SlackStandin } from "../standin/server.js";
import type { Option, StandinView, ViewStateValue } from "../standin/types.js";
import { MAX_ADVANCE_MS, type SandboxTime } from "./sandboxTime.js";
import { buildState, visibleChannels } from "./state.js";

/**
 * The playground page's JSON API, on the stand-in's server (same origin as the page). Each call
 * is a person doing something in Slack's client, carried out through the stand-in's driver, so
 * the bot receives exactly what Slack would send (signed slash commands and interactions).
 * Bad input is answered 400 with `{ok: false, error}`; nothing a browser sends can crash the
 * process.
 */

export interface PlaygroundApiOptions {
  /** The driver towards the bot; undefined while the bot is still starting. */
  driver: () => SlackAppDriver | undefined;
  sandbox: boolean;
  /**
   * The embedded sandbox's clock control ("Advance sandbox time"); absent with a real provider,
   * where the page hides the control and the API refuses it.
   */
  sandboxTime?: SandboxTime;
  logger?: Pick<Logger, "info">;
}

/** The only slash command the app has (docs/DESIGN.md, pinned). */
export const PLAYGROUND_COMMAND = "/connect";

const userId = z.string().regex(/^[UW][A-Z0-9]{2,20}$/, "a Slack user id (U…)");
const channelId = z.string().regex(/^[CDG][A-Z0-9]{2,20}$/, "a Slack channel id (C…, D…)");
const messageTs = z.string().regex(/^\d{1,12}\.\d{1,8}$/, "a message ts");
const viewId = z.string().regex(/^V[A-Z0-9]{2,30}$/, "a view id (V…)");
// Slack's own limit for block_id and action_id.
const elementId = z.string().min(1).max(255);

/** What a person gives an element: text, an option's value, several values, or a typed query. */
const fieldInput = z.union([
  z.string().max(3000),
  z.number().finite(),
  z.array(z.string().max(2000)).max(100),
  z.object({ query: z.string().max(200), pick: z.string().max(2000).optional() }),
]);

const stateQuery = z.object({
  user: userId,
  since: z.coerce.number().int().min(0).optional(),
});

const commandBody = z.object({
  user: userId,
  channel: channelId,
  /** The line as typed: `/connect price port`. */
  text: z.string().trim().min(1).max(4000),
});

const messageBody = z.object({
  user: userId,
  channel: channelId,
  // Slack's msg_too_long limit.
  text: z.string().trim().min(1).max(40_000),
  threadTs: messageTs.optional(),
});

const clickBody = z
  .object({
    user: userId,
    channel: channelId.optional(),
    ts: messageTs.optional(),
    viewId: viewId.optional(),
    blockId: elementId,
    actionId: elementId,
    /** For anything but a button: what was picked or entered. */
    value: fieldInput.optional(),
  })
  .refine((b) => (b.viewId === undefined) !== (b.channel === undefined || b.ts === undefined), {
    error: "give either channel and ts (a message) or viewId (a modal)",
  });

const viewInputBody = z.object({
  user: userId,
  viewId,
  blockId: elementId,
  actionId: elementId,
  /** null: the person cleared the element. */
  value: fieldInput.nullable(),
});

const submitBody = z.object({
  user: userId,
  viewId,
  values: z
    .record(elementId, z.record(elementId, fieldInput.nullable()))
    .refine((v) => Object.keys(v).length <= 100, { error: "at most 100 blocks" })
    .default({}),
});

const closeBody = z.object({ user: userId, viewId });
const homeBody = z.object({ user: userId });

const advanceBody = z.object({
  user: userId,
  /** How far to move the sandbox's clock forward (the page offers an hour, a day, a week). */
  ms: z.number().int().min(60_000).max(MAX_ADVANCE_MS),
});

const suggestQuery = z.object({
  user: userId,
  viewId,
  blockId: elementId,
  actionId: elementId,
  query: z.string().max(200).default(""),
});

/** A refusal the page shows to the person (an unknown message, an option not offered, …). */
class RequestProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * A value the field refuses ("not a whole number", an option not offered). It is the person's
 * input being checked, as Slack's client does next to the field, not a bad request: the API
 * answers it 200 with `{ok: false, fieldErrors}`, so the browser logs no failed request.
 */
class FieldProblem extends Error {}

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) throw new RequestProblem(400, z.prettifyError(result.error));
  return result.data;
}

/** What the person cleared an element to: Slack's empty value for its type. */
function clearedValue(located: LocatedElement): ViewStateValue {
  const withoutInitial = Object.fromEntries(
    Object.entries(located.element).filter(([key]) => !key.startsWith("initial_")),
  ) as LocatedElement["element"];
  return untouchedStateValue(withoutInitial);
}

const isExternal = (located: LocatedElement) =>
  located.element.type === "external_select" || located.element.type === "multi_external_select";

export class PlaygroundApi {
  private version = 1;

  constructor(
    private readonly standin: SlackStandin,
    private readonly options: PlaygroundApiOptions,
  ) {
    const bump = () => {
      this.version += 1;
    };
    for (const event of ["message", "ephemeral", "view", "response"] as const) {
      standin.workspace.on(event, bump);
    }
  }

  private driver(): SlackAppDriver {
    const driver = this.options.driver();
    if (!driver) throw new RequestProblem(503, "The bot is still starting; try again in a moment.");
    return driver;
  }

  private person(id: string): string {
    if (!this.standin.workspace.users.has(id)) {
      throw new RequestProblem(400, `No person ${id} in the playground workspace`);
    }
    return id;
  }

  /** A channel this person can see (a DM only when it is theirs), as its id. */
  private channelFor(user: string, channel: string): string {
    const id = this.standin.workspace.resolveChannel(channel)?.id;
    if (!id || !visibleChannels(this.standin, user).some((c) => c.id === id)) {
      throw new RequestProblem(404, `No channel ${channel} that ${user} can see`);
    }
    return id;
  }

  /** The person's open modal with this id (another person's modal is not theirs to touch). */
  private openView(user: string, id: string): StandinView {
    const stored = this.standin.view(id);
    if (!stored || stored.userId !== user || stored.closed) {
      throw new RequestProblem(404, `No open modal ${id} for ${user}`);
    }
    return stored;
  }

  state(query: unknown) {
    const { user, since } = parse(stateQuery, query);
    this.person(user);
    if (since === this.version) return { version: this.version, changed: false as const };
    const time = this.sandboxTime();
    return {
      changed: true as const,
      ...buildState(this.standin, user, this.version, this.options.sandbox),
      ...(time ? { sandboxTime: time.status() } : {}),
    };
  }

  /** Only with the embedded sandbox: a real provider's orders run on real time. */
  private sandboxTime(): SandboxTime | undefined {
    return this.options.sandbox ? this.options.sandboxTime : undefined;
  }

  /** Moves the sandbox's clock forward; every open tracker then reads its order at once. */
  async advanceSandboxTime(body: unknown) {
    const time = this.sandboxTime();
    if (!time) {
      throw new RequestProblem(
        403,
        "Sandbox time can be moved only with the embedded sandbox, not with a real provider.",
      );
    }
    const { user, ms } = parse(advanceBody, body);
    this.person(user);
    this.options.logger?.info({ user, ms }, "playground: sandbox time advanced");
    const result = await time.advance(ms);
    // The page shows how far ahead the sandbox is: a new version makes it fetch the state.
    this.version += 1;
    return result;
  }

  /** The person opens the app's Home tab: the app gets `app_home_opened` (a signed event). */
  async openHome(body: unknown) {
    const { user } = parse(homeBody, body);
    this.person(user);
    const ack = await this.driver().openAppHome(user);
    if (ack.status !== 200) {
      throw new RequestProblem(502, `The app answered HTTP ${ack.status}`);
    }
    return { ok: true as const };
  }

  async command(body: unknown) {
    const { user, channel, text } = parse(commandBody, body);
    this.person(user);
    const match = /^(\/\S+)(?:\s+([\s\S]*))?$/.exec(text);
    if (!match) {
      throw new RequestProblem(400, `Commands start with a slash, e.g. ${PLAYGROUND_COMMAND} help`);
    }
    const [, command = "", rest = ""] = match;
    if (command !== PLAYGROUND_COMMAND) {
      throw new RequestProblem(
        400,
        `${command} is not a valid command. This workspace has ${PLAYGROUND_COMMAND}.`,
      );
    }
    const outcome = await this.driver().command(
      user,
      this.channelFor(user, channel),
      command,
      rest.trim(),
    );
    if (outcome.status !== 200) {
      // What Slack's client says when an app fails to acknowledge a command.
      throw new RequestProblem(502, `${command} failed: the app answered HTTP ${outcome.status}`);
    }
    return { ok: true as const };
  }

  message(body: unknown) {
    const { user, channel, text, threadTs } = parse(messageBody, body);
    this.person(user);
    const id = this.channelFor(user, channel);
    if (threadTs !== undefined && !this.standin.workspace.findMessage(id, threadTs)) {
      throw new RequestProblem(404, `No message ${threadTs} in ${channel} to reply to`);
    }
    const posted = this.standin.postAsUser(user, id, text, { threadTs });
    return { ok: true as const, ts: posted.ts };
  }

  async click(body: unknown) {
    const input = parse(clickBody, body);
    this.person(input.user);
    const driver = this.driver();
    const where =
      input.viewId !== undefined
        ? { view: this.openView(input.user, input.viewId).view.id }
        : {
            message: {
              channel: this.channelFor(input.user, input.channel ?? ""),
              ts: input.ts ?? "",
            },
          };
    const target = {
      userId: input.user,
      actionId: input.actionId,
      blockId: input.blockId,
      ...where,
    };
    const ack =
      input.value === undefined
        ? await driver.clickButton(target)
        : await driver.changeElement({ ...target, input: input.value as FieldInput });
    if (ack.status !== 200) {
      throw new RequestProblem(502, `The app answered HTTP ${ack.status}`);
    }
    return { ok: true as const };
  }

  /** Enters what the person gave one element of their modal; dispatches when the input asks. */
  private async enter(
    user: string,
    stored: StandinView,
    blockId: string,
    actionId: string,
    input: FieldInput | null,
  ): Promise<{ located: LocatedElement; value: ViewStateValue }> {
    const located = findElement(stored.view.blocks, actionId, blockId);
    let value: ViewStateValue;
    if (input === null) {
      value = clearedValue(located);
    } else {
      let suggestions: Option[] | undefined;
      if (isExternal(located)) {
        // The app decides what an external select offers: ask it again rather than trust the page.
        const query = typeof input === "object" && "query" in input ? input.query : String(input);
        suggestions = await this.driver().suggest(user, stored.view.id, actionId, blockId, query);
      }
      try {
        value = stateValueFor(located, input, suggestions);
      } catch (error) {
        throw new FieldProblem(error instanceof Error ? error.message : String(error));
      }
    }
    this.standin.workspace.enterValue(stored.view.id, blockId, actionId, value);
    this.version += 1;
    return { located, value };
  }

  async viewInput(body: unknown) {
    const input = parse(viewInputBody, body);
    this.person(input.user);
    const stored = this.openView(input.user, input.viewId);
    let entered: Awaited<ReturnType<PlaygroundApi["enter"]>>;
    try {
      entered = await this.enter(
        input.user,
        stored,
        input.blockId,
        input.actionId,
        input.value as FieldInput | null,
      );
    } catch (error) {
      if (!(error instanceof FieldProblem)) throw error;
      return {
        ok: false as const,
        error: error.message,
        fieldErrors: { [input.blockId]: error.message },
      };
    }
    const { located, value } = entered;
    if (located.dispatchAction) {
      await this.driver().modalSession(input.user, stored.view.id).dispatch(located, value);
    }
    return { ok: true as const };
  }

  async submit(body: unknown) {
    const input = parse(submitBody, body);
    this.person(input.user);
    const stored = this.openView(input.user, input.viewId);
    const fieldErrors: Record<string, string> = {};
    for (const [blockId, actions] of Object.entries(input.values)) {
      for (const [actionId, value] of Object.entries(actions)) {
        try {
          await this.enter(input.user, stored, blockId, actionId, value as FieldInput | null);
        } catch (error) {
          fieldErrors[blockId] = (error as Error).message;
        }
      }
    }
    if (Object.keys(fieldErrors).length > 0) {
      // Answered, not refused: the page shows each under its field (see FieldProblem).
      return { ok: false as const, error: "Some fields need a look.", fieldErrors };
    }
    const outcome = await this.driver().submitView(input.user, stored.view.id);
    return {
      ok: outcome.status === 200,
      ...(outcome.responseAction ? { responseAction: outcome.responseAction } : {}),
      errors: outcome.errors ?? {},
      problems: outcome.problems,
    };
  }

  async close(body: unknown) {
    const input = parse(closeBody, body);
    this.person(input.user);
    const stored = this.openView(input.user, input.viewId);
    await this.driver().closeView(input.user, stored.view.id);
    return { ok: true as const };
  }

  async suggest(query: unknown) {
    const input = parse(suggestQuery, query);
    this.person(input.user);
    const stored = this.openView(input.user, input.viewId);
    const located = findElement(stored.view.blocks, input.actionId, input.blockId);
    if (!isExternal(located)) {
      throw new RequestProblem(
        400,
        `"${input.actionId}" is a ${located.element.type}, not an external select`,
      );
    }
    const options = await this.driver().suggest(
      input.user,
      stored.view.id,
      input.actionId,
      input.blockId,
      input.query,
    );
    return { ok: true as const, options };
  }
}

function sendProblem(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof RequestProblem) {
    return reply.code(error.status).send({
      ok: false,
      error: error.message,
      ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
    });
  }
  // fetch() rejects with a TypeError when the bot cannot be reached at all.
  if (error instanceof TypeError && /fetch failed/.test(error.message)) {
    return reply.code(502).send({ ok: false, error: "The bot did not answer." });
  }
  // The driver refuses what Slack's client would not let a person do; say why.
  const message = error instanceof Error ? error.message : "Something went wrong.";
  return reply.code(400).send({ ok: false, error: message.slice(0, 500) });
}

/**
 * A page on another site must not drive the playground from the person's browser: posts must be
 * JSON (a cross-site form cannot send that without a CORS preflight, which is never granted),
 * and a request that names an Origin must come from this server's own.
 */
function checkSameOrigin(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${request.headers.host ?? ""}`) {
    return reply.code(403).send({ ok: false, error: "cross-origin requests are not allowed" });
  }
  if (request.method === "POST") {
    const type = request.headers["content-type"] ?? "";
    if (!type.toLowerCase().startsWith("application/json")) {
      return reply
        .code(415)
        .send({ ok: false, error: "send JSON (content-type: application/json)" });
    }
  }
  return undefined;
}

/** Registers `/playground/api/*` on the stand-in's fastify instance (before it listens). */
export function registerPlaygroundApi(
  server: FastifyInstance,
  standin: SlackStandin,
  options: PlaygroundApiOptions,
): PlaygroundApi {
  const api = new PlaygroundApi(standin, options);
  const handle =
    (work: (request: FastifyRequest) => unknown) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header("cache-control", "no-store");
      const refused = checkSameOrigin(request, reply);
      if (refused) return refused;
      try {
        return reply.send(await work(request));
      } catch (error) {
        return sendProblem(reply, error);
      }
    };
  const base = "/playground/api";
  server.get(
    `${base}/state`,
    handle((r) => api.state(r.query)),
  );
  server.get(
    `${base}/suggest`,
    handle((r) => api.suggest(r.query)),
  );
  server.post(
    `${base}/command`,
    handle((r) => api.command(r.body)),
  );
  server.post(
    `${base}/message`,
    handle((r) => api.message(r.body)),
  );
  server.post(
    `${base}/click`,
    handle((r) => api.click(r.body)),
  );
  server.post(
    `${base}/view/input`,
    handle((r) => api.viewInput(r.body)),
  );
  server.post(
    `${base}/view/submit`,
    handle((r) => api.submit(r.body)),
  );
  server.post(
    `${base}/view/close`,
    handle((r) => api.close(r.body)),
  );
  server.post(
    `${base}/home/open`,
    handle((r) => api.openHome(r.body)),
  );
  server.post(
    `${base}/sandbox/advance`,
    handle((r) => api.advanceSandboxTime(r.body)),
  );
  return api;
}
