import type { CustomRoute } from "@slack/bolt";
import type { Logger } from "pino";
import type { Clock } from "../sandbox/clock.js";
import type { SlackAppDriver } from "../standin/driver/driver.js";
import { type SlackStandin, startSlackStandin } from "../standin/server.js";
import type { PlaygroundApi } from "./api.js";
import { registerPlaygroundApi } from "./apiRoutes.js";
import { registerPlaygroundAssets } from "./assets.js";
import { SandboxFaults } from "./sandboxFaults.js";
import { type DueReminders, type OpenTrackers, SandboxTime } from "./sandboxTime.js";
import { registerWorkflowRoutes, SampleWorkflow } from "./workflows.js";

export { PLAYGROUND_COMMAND, PlaygroundApi } from "./api.js";
export { PLAYGROUND_REDIS_PREFIX, startPlaygroundAfresh } from "./freshStart.js";
export type { FaultKnob, FaultsStatus } from "./sandboxFaults.js";
export type {
  AdvanceResult,
  DueReminders,
  OpenTrackers,
  SandboxTimeStatus,
} from "./sandboxTime.js";
export type {
  PlaygroundChannel,
  PlaygroundMessage,
  PlaygroundModal,
  PlaygroundPerson,
  PlaygroundState,
} from "./state.js";

/**
 * The local Slack playground: a web page that stands in for Slack's client, served by the Slack
 * stand-in next to its Web API, so that `npm start` shows the bot working with no workspace.
 * The bot's own server redirects `/playground` here (see `botRoutes`).
 */

export interface PlaygroundOptions {
  /** The provider is the embedded sandbox (the page says nothing is really ordered). */
  sandbox: boolean;
  /**
   * The embedded sandbox's clock, for "Advance sandbox time". Give it only with the embedded
   * sandbox; the control also stays off unless `sandbox` is true.
   */
  sandboxClock?: Pick<Clock, "advance" | "nowMs">;
  /**
   * The embedded sandbox's address, for "Try a failure" (its admin endpoints). Give it only with
   * the embedded sandbox; the knobs also stay off unless `sandbox` is true.
   */
  sandboxUrl?: string;
  logger?: Logger;
}

/** What the running bot lends the page besides the driver. */
export interface PlaygroundConnection {
  /** The order tracker: after sandbox time moves, every open tracker checks at once. */
  tracker?: OpenTrackers;
  /** Edge draft reminders: after sandbox time moves, those due on its clock are sent. */
  draftReminders?: DueReminders;
}

export interface StartPlaygroundStandinOptions {
  /**
   * The bot's HTTP port. The stand-in takes the next one so that the address stays the same from
   * run to run; 0 (tests) means any free port, and so does a next port already in use.
   */
  botPort: number;
  logger?: Logger;
}

export class Playground {
  private driver: SlackAppDriver | undefined;
  private tracker: OpenTrackers | undefined;
  private draftReminders: DueReminders | undefined;
  private current: SlackStandin | undefined;
  private currentApi: PlaygroundApi | undefined;

  constructor(private readonly options: PlaygroundOptions) {}

  /** Starts the stand-in with the page and its API on it. */
  async startStandin(options: StartPlaygroundStandinOptions): Promise<SlackStandin> {
    const clock = this.options.sandbox ? this.options.sandboxClock : undefined;
    const sandboxTime = clock
      ? new SandboxTime({
          clock,
          tracker: () => this.tracker,
          draftReminders: () => this.draftReminders,
        })
      : undefined;
    const sandboxUrl = this.options.sandbox ? this.options.sandboxUrl : undefined;
    const faults = sandboxUrl
      ? new SandboxFaults({
          sandboxUrl,
          checkOpenOrders: async () => sandboxTime?.checkOpenOrders(),
        })
      : undefined;
    const start = (port: number) =>
      startSlackStandin({
        logger: options.logger,
        port,
        routes: (server, standin) => {
          registerPlaygroundAssets(server);
          this.currentApi = registerPlaygroundApi(server, standin, {
            driver: () => this.driver,
            sandbox: this.options.sandbox,
            sandboxTime,
            faults,
            logger: this.options.logger,
          });
          // The Workflows panel: a sample workflow run on the bot's custom steps (issue 30).
          registerWorkflowRoutes(server, new SampleWorkflow(standin, () => this.driver));
        },
      });
    const preferred = options.botPort > 0 && options.botPort < 65535 ? options.botPort + 1 : 0;
    try {
      this.current = await start(preferred);
    } catch (error) {
      if (preferred === 0 || (error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      this.options.logger?.warn(
        { port: preferred },
        "playground port in use; the stand-in takes a free one (/playground still redirects)",
      );
      this.current = await start(0);
    }
    return this.current;
  }

  /** The bot is listening: the page's commands and clicks now reach it through this driver. */
  connect(driver: SlackAppDriver, connection: PlaygroundConnection = {}): void {
    this.driver = driver;
    this.tracker = connection.tracker;
    this.draftReminders = connection.draftReminders;
  }

  /** The page's address on the stand-in. */
  get url(): string {
    if (!this.current) throw new Error("the playground's stand-in has not started");
    return `${this.current.url}/playground`;
  }

  get api(): PlaygroundApi | undefined {
    return this.currentApi;
  }

  /**
   * Routes for the bot's own HTTP server: `/playground` (and `/`) redirect to the page on the
   * stand-in, so the address printed at start-up is the bot's.
   */
  botRoutes(): CustomRoute[] {
    const redirect: CustomRoute["handler"] = (req, res) => {
      // The query (`?user=U0APPROVE1`, `?channel=…`) is kept: it picks who the page acts as.
      const query = new URL(req.url ?? "/", "http://bot").search;
      res.writeHead(302, { location: `${this.url}${query}`, "cache-control": "no-store" });
      res.end();
    };
    return [
      { path: "/playground", method: ["GET"], handler: redirect },
      { path: "/", method: ["GET"], handler: redirect },
    ];
  }
}

export function createPlayground(options: PlaygroundOptions): Playground {
  return new Playground(options);
}
