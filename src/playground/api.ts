import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { SlackAppDriver } from "../standin/driver/driver.js";
import { findElement, isExternalSelect, type LocatedElement } from "../standin/modals/elements.js";
import {
  type FieldInput,
  stateValueFor,
  typedQuery,
  untouchedStateValue,
} from "../standin/modals/viewState.js";
import type { SlackStandin } from "../standin/server.js";
import type { Option, StandinView, ViewStateValue } from "../standin/types.js";
import {
  advanceBody,
  clickBody,
  closeBody,
  commandBody,
  FieldProblem,
  faultRequest,
  fileQuery,
  homeBody,
  messageBody,
  parse,
  RequestProblem,
  stateQuery,
  submitBody,
  suggestQuery,
  viewInputBody,
} from "./apiRequests.js";
import { type FaultKnob, KnobProblem, type SandboxFaults } from "./sandboxFaults.js";
import type { SandboxTime } from "./sandboxTime.js";
import { buildState, visibleChannels } from "./state.js";

/**
 * The playground page's JSON API, on the stand-in's server (same origin as the page). Each call
 * is a person doing something in Slack's client, carried out through the stand-in's driver, so
 * the bot receives exactly what Slack would send (signed slash commands and interactions).
 * Requests are checked in apiRequests.ts and routed in apiRoutes.ts, where bad input is answered
 * 400 with `{ok: false, error}`; nothing a browser sends can crash the process.
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
  /** The embedded sandbox's fault knobs ("Try a failure"); absent with a real provider. */
  faults?: SandboxFaults;
  logger?: Pick<Logger, "info">;
}

/** The only slash command the app has (docs/DESIGN.md, pinned). */
export const PLAYGROUND_COMMAND = "/connect";

/** What the person cleared an element to: Slack's empty value for its type. */
function clearedValue(located: LocatedElement): ViewStateValue {
  const withoutInitial = Object.fromEntries(
    Object.entries(located.element).filter(([key]) => !key.startsWith("initial_")),
  ) as LocatedElement["element"];
  return untouchedStateValue(withoutInitial);
}

export class PlaygroundApi {
  private version = 1;
  /**
   * This run of the playground. The workspace lives in memory and the bot's Redis keys are
   * removed at start-up, so a page left open across a restart sees a new id and says that
   * everything was reset, rather than quietly showing empty channels.
   */
  readonly runId = randomUUID();

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

  async state(query: unknown) {
    const { user, since } = parse(stateQuery, query);
    this.person(user);
    await this.followArmedFault();
    const runId = this.runId;
    if (since === this.version) return { version: this.version, runId, changed: false as const };
    const time = this.sandboxTime();
    const faults = this.faults();
    return {
      changed: true as const,
      runId,
      ...buildState(this.standin, user, this.version, this.options.sandbox),
      ...(time ? { sandboxTime: time.status() } : {}),
      ...(faults ? { sandboxFaults: faults.current() } : {}),
    };
  }

  /** Only with the embedded sandbox: a real provider's faults are not ours to make. */
  private faults(): SandboxFaults | undefined {
    return this.options.sandbox ? this.options.faults : undefined;
  }

  /** While "fail the next order" waits, the page learns when an order has spent it. */
  private async followArmedFault(): Promise<void> {
    const faults = this.faults();
    if (!faults?.current().nextOrder) return;
    const before = JSON.stringify(faults.current());
    const after = await faults.refresh().catch(() => faults.current());
    if (JSON.stringify(after) !== before) this.version += 1;
  }

  /** A fault knob of the sidebar's "Try a failure" (sandboxFaults.ts). */
  async turnFault(body: unknown) {
    const faults = this.faults();
    if (!faults) {
      throw new RequestProblem(
        403,
        "Faults can be made only in the embedded sandbox, not with a real provider.",
      );
    }
    const { user, ...knob } = parse(faultRequest, body);
    this.person(user);
    try {
      const result = await faults.turn(knob as FaultKnob);
      this.options.logger?.info({ user, knob }, "playground: sandbox fault knob");
      this.version += 1;
      return result;
    } catch (error) {
      if (error instanceof KnobProblem) throw new RequestProblem(error.status, error.message);
      throw error;
    }
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

  /** A file shared in a channel this person can see (Export CSV's file), with its bytes. */
  file(query: unknown): { name: string; bytes: Buffer } {
    const { user, id } = parse(fileQuery, query);
    this.person(user);
    const file = this.standin.workspace.files.file(id);
    const visible =
      file?.channel !== undefined &&
      visibleChannels(this.standin, user).some((c) => c.id === file.channel);
    if (!file?.completed || !file.bytes || !visible) {
      throw new RequestProblem(404, `No file ${id} that ${user} can see`);
    }
    return { name: file.name, bytes: file.bytes };
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
      if (isExternalSelect(located)) {
        // The app decides what an external select offers: ask it again rather than trust the page.
        const query = typedQuery(input);
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
    if (!isExternalSelect(located)) {
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
