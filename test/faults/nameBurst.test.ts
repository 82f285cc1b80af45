import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBot, startBot } from "../../src/bot.js";
import { loadConfig } from "../../src/config.js";
import { dcfRef } from "../../src/domain/catalog/dcfs.js";
import { createLogger } from "../../src/log.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import {
  type AppAck,
  interactionBody,
  type SlackStandin,
  STANDIN_IDS,
  type StandinView,
  startSlackStandin,
  viewSubmissionPayload,
} from "../../src/standin/index.js";
import { PORT_ORDER_BLOCKS, PORT_ORDER_VIEW } from "../../views/portOrder/portOrderModal.js";
import { deleteKeys } from "../harness/botEnv.js";
import { watchFallbackText } from "../harness/fallbackWatch.js";

/**
 * Issue 29, item 7: ten concurrent submissions of one port name on one replica were sometimes
 * ALL refused ("Checking that this port name is new took too long" / "The provider took too long
 * to confirm this data center"): each of the ten form checks asked the provider for the same data
 * center, ports and price, and forty-odd calls at the shared 10 a second cannot finish within
 * Slack's 3 s. Identical reads in flight are now sent once (src/provider/client.ts), so the
 * checks finish and the name reservation decides: exactly one request every round, the other
 * nine refused at the name field as taken — with the provider rate limit ON, on one replica and
 * on two replicas sharing Redis (and so the limit).
 */
const ROUNDS = 20;
const SUBMISSIONS = 10;
const USER = STANDIN_IDS.requester;
const FILLED_NAME = "burst-form-filled";

describe("a burst of one port name", () => {
  let sandbox: Sandbox;
  let standin: SlackStandin;
  const replicas: RunningBot[] = [];
  const drivers: Array<ReturnType<SlackStandin["connectApp"]>> = [];
  const redisPrefix = `test:${randomBytes(6).toString("hex")}`;
  let form: StandinView;

  beforeAll(async () => {
    sandbox = await startSandbox();
    standin = await startSlackStandin();
    watchFallbackText(standin);
    const signingSecret = randomBytes(16).toString("hex");
    const env = {
      SLACK_BOT_TOKEN: standin.botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: standin.apiUrl,
      PROVIDER_BASE_URL: sandbox.url,
      PROVIDER_API_KEY: "burst-test-key",
      APPROVALS_CHANNEL: STANDIN_IDS.approvals,
      APPROVERS: STANDIN_IDS.approver,
    };
    for (let i = 0; i < 2; i++) {
      // The provider rate limit is the default one (10 a second), shared through Redis.
      const bot = await startBot({
        config: { ...loadConfig(env), port: 0 },
        logger: createLogger({ level: "silent" }),
        redisPrefix,
        jobs: {
          notifierSettings: { perChannelIntervalMs: 5, updateIntervalMs: 5 },
          maintenanceEveryMs: 0,
        },
      });
      replicas.push(bot);
      drivers.push(standin.connectApp({ url: `${bot.url}/slack/events`, signingSecret }));
    }
    // A person fills the port order form once; every round submits it under a new name.
    const driver = drivers[0]!;
    expect((await driver.command(USER, STANDIN_IDS.general, "/connect", "port order")).status).toBe(
      200,
    );
    await standin.waitForView(USER, (v) => v.view.callback_id === PORT_ORDER_VIEW);
    const dcf = sandbox.state.world.dcfs.find(
      (d) => d.ready && d.kind === "ON_NET" && !d.edge && d.speeds.includes(10_000),
    );
    if (!dcf) throw new Error("the sandbox has no ready on-net DCF with 10G");
    await driver.fillView(USER, { "Data center": { query: dcf.name, pick: dcfRef(dcf.record) } });
    await standin.waitForView(USER, (v) => JSON.stringify(v.view.blocks).includes("10G"));
    await driver.fillView(USER, { Speed: "10G", "Port name": FILLED_NAME });
    const view = standin.currentView(USER);
    if (!view) throw new Error("the form closed");
    form = view;
  }, 60_000);

  afterAll(async () => {
    for (const bot of replicas) await bot.stop();
    await standin?.close();
    await sandbox?.close();
    await deleteKeys(redisPrefix);
  });

  /** The filled form's submission under `name`, signed for the stand-in's workspace. */
  function submissionOf(name: string) {
    const workspace = standin.workspace;
    const user = workspace.users.get(USER);
    if (!user) throw new Error("no requester in the stand-in workspace");
    const view = JSON.parse(JSON.stringify(form.view).split(FILLED_NAME).join(name));
    return interactionBody(
      viewSubmissionPayload({
        actor: { team: workspace.team, user, apiAppId: workspace.bot.appId, verificationToken: "" },
        view,
        triggerId: workspace.issueTrigger(USER),
      }),
    );
  }

  /** One round: ten submissions at once; what the replies and the store say. */
  async function round(name: string, replicasUsed: number) {
    const acks: AppAck[] = await Promise.all(
      Array.from({ length: SUBMISSIONS }, (_, i) =>
        drivers[i % replicasUsed]!.transport.postRaw(submissionOf(name)),
      ),
    );
    const nameErrors = acks
      .map((a) => (a.body as { errors?: Record<string, string> } | undefined)?.errors)
      .filter((errors) => errors !== undefined);
    // The one accepted submission is posted for approval after its ack.
    await standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => !m.thread_ts && m.text.includes(name),
      {
        timeoutMs: 15_000,
      },
    );
    const records = (await replicas[0]!.services.approvals.store.list({ limit: 1000 })).filter(
      (r) => r.reconcileKey === name,
    );
    return { acks, nameErrors, created: records.length };
  }

  for (const replicasUsed of [1, 2]) {
    it(`creates exactly one request in each of ${ROUNDS} rounds of ${SUBMISSIONS} concurrent submissions, on ${replicasUsed} replica(s)`, async () => {
      const created: number[] = [];
      const otherRefusals: string[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const name = `burst-${replicasUsed}-${r}`;
        const result = await round(name, replicasUsed);
        expect(result.acks.every((a) => a.status === 200)).toBe(true);
        created.push(result.created);
        for (const errors of result.nameErrors) {
          const keys = Object.keys(errors);
          if (keys.length !== 1 || keys[0] !== PORT_ORDER_BLOCKS.portName) {
            otherRefusals.push(JSON.stringify(errors));
          } else if (!/already waiting or being ordered/.test(errors[keys[0]!]!)) {
            otherRefusals.push(errors[keys[0]!]!);
          }
        }
        expect(result.nameErrors).toHaveLength(SUBMISSIONS - 1);
      }
      expect(created, "requests created per round").toEqual(Array(ROUNDS).fill(1));
      expect(otherRefusals, "every loser refused at the name field as taken").toEqual([]);
    }, 120_000);
  }
});
