import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { WebClient } from "@slack/web-api";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { ApprovalStore } from "../../src/approvals/index.js";
import type { RunningBot } from "../../src/bot.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { Prng } from "../../src/sandbox/random.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import {
  type HttpTransport,
  type SlackAppDriver,
  type SlackStandin,
  STANDIN_IDS,
} from "../../src/standin/index.js";
import { waitFor, waitWhileProgressing, within } from "../harness/index.js";
import { portOrderRequest } from "../harness/portOrders.js";
import { connect, deleteKeys, runPrefix } from "../jobs/support.js";
import { clickOffered, offeredButtons } from "./approverActions.js";
import { WINDOW_LINE } from "./fixtures/answerWindow.js";
import { startFaultFront } from "./front.js";
import { messageLagFigures, neverCaughtUp, watchMessageLag } from "./messageLag.js";
import {
  type ApprovalTally,
  figures,
  type OrderedApproval,
  quiet,
  settled,
  tallyApproval,
  tallySources,
} from "./placementTally.js";
import { type FinishedTask, verdictOf, writeReliabilityResult } from "./reliabilityResults.js";
import { faultScale } from "./scale.js";
import { type LoadedWorker, loadWorkerProcess, type WorkerProcess } from "./workerProcess.js";

const SCALE = faultScale();
/** Issue 19: at least 24 kills of the placing process in CI, 200 with FAULTS_SCALE=full. */
const TRIALS = SCALE === "full" ? 200 : 24;
/** Orders to place: about one and a half per worker life, so most lives have work in hand. */
const PLACEMENTS = Math.round(TRIALS * 1.5);
/** Every random choice (kill moments and modes, which orders the provider refuses). */
const SEED = Number(process.env.FAULTS_SEED ?? 20_261_126);
/** Share of kills aimed at an answer held in the placing process (the 200 → Redis window). */
const ANSWER_KILL_SHARE = 0.5;
/** The placing process holds each provider answer this long before the bot sees it (ms). */
const HOLD_ANSWER_MS = 400;
/** An aimed kill lands this long after the answer was reported (uniform, ms): inside the hold. */
const AIMED_KILL_MS = [0, 150] as const;
/** Other kills land this long after the worker is ready (uniform, ms). */
const RANDOM_KILL_MS = [50, 900] as const;
/** The provider answers a port order this late: kills land while calls are in flight too. */
const PROVIDER_LATENCY_MS = 250;
/** Share of orders the provider refuses (a speed it does not offer): the definite-failure path. */
const REFUSED_SHARE = 0.1;
/**
 * The settling after the kills ends when every approval is told, or is stuck: nothing changed
 * for this long. Its length grows with the run (hundreds of requests told through one paced
 * approvals channel at full size), so it is bounded by progress, not by a fixed time. Longer
 * than the placement callback lease as deployed (120 s, src/orders/placement/outcomes.ts; 5 s in
 * the fixture), after which a tell cut off mid-way is told again.
 */
const SETTLE_IDLE_MS = 150_000;
/** A bound on each waiting phase however long progress goes on (the test's own timeout). */
const PHASE_BOUND_MS = SCALE === "full" ? 1_800_000 : 300_000;
/** Sandbox time moved forward after the kills: every on-net port order is done, its port live. */
const PORTS_EXIST_AFTER_MS = 25 * 3600_000;
/**
 * The approver keeps going back to requests still unknown until none is left or nothing changed
 * for this long. A request escalated late (its last worker settled it after the approver's first
 * pass, on a loaded machine) is met on a later pass, as a person watching the channel would.
 */
const APPROVER_IDLE_MS = 120_000;
/** Requests the approver works on at once (at full size, one at a time would take an hour). */
const APPROVER_PARALLEL = 8;
/** A person looks at the channel again this long after a pass that found nothing to click. */
const APPROVER_LOOK_AGAIN_MS = 1_000;

/** Lives of the placing process kept loaded ahead: loading, not the trial, is a life's cost. */
const LOADED_AHEAD = 3;

const FIXTURE = fileURLToPath(new URL("./fixtures/placementWorker.ts", import.meta.url));
const CHANNEL = STANDIN_IDS.approvals;
const APPROVER = STANDIN_IDS.approver;

/**
 * Issue 19: the process that places orders (what `npm run worker` runs) is SIGKILLed at random
 * moments — half of the kills aimed at the window between the provider's 200 and the write of
 * that answer to Redis, which the fixture holds open (fixtures/answerWindow.ts) — while
 * approved port orders are placed and handed over to tracking. The provider sandbox and the
 * Slack stand-in live in this process and survive the kills; approvals are clicked in Slack and
 * queued by the bot's HTTP front, as in production. Afterwards sandbox time moves on a day, so
 * every order's port exists and can be found by name, and an approver uses whatever way forward
 * the approval message offers for a request left unknown. Then every approval is counted from
 * Redis, from the provider's own orders, ports and reads, and from its Slack thread.
 */
describe("placement survives SIGKILLs of the placing process", () => {
  /** The tests as they finished, for the verdict written with the figures. */
  const finished: FinishedTask[] = [];
  const prefix = runPrefix("placement-kills");
  let redis: Redis;
  let sandbox: Sandbox;
  let standin: SlackStandin;
  let slack: SlackAppDriver<HttpTransport>;
  let front: RunningBot;
  let store: ApprovalStore;
  let worker: WorkerProcess | undefined;
  /** Lives loaded ahead, in the order they will start. */
  const ahead: Array<{ id: string; loaded: Promise<LoadedWorker> }> = [];
  let lifeNumber = 0;
  let botEnv: Record<string, string>;
  const approvals: OrderedApproval[] = [];
  let approvedCount = 0;
  const run = {
    placements: 0,
    refusedByProvider: 0,
    kills: 0,
    killsAimedAtAnswer: 0,
    killsWithAnswerHeld: 0,
    killsWithRequestInFlight: 0,
    killsMidPlacement: 0,
    workerStarts: 0,
    approverLookUps: 0,
    approverPlaceAgain: 0,
    approverPasses: 0,
    runSeconds: 0,
    /** Where the run's time went: the kills, the settling after, the look-ups, the approver. */
    killingSeconds: 0,
    settlingSeconds: 0,
    lookUpSeconds: 0,
    approverSeconds: 0,
    // Issue 29: how long each approval message (and card) stayed behind its record through the
    // kills and the mass settlement after them (./messageLag.ts).
    messagesChecked: 0,
    messagesBehindAfter10s: 0,
    /** …counted from the last life's start where the change came before it (messageLag.ts). */
    messagesBehind10sIntoSettling: 0,
    messagesNeverCaughtUp: 0,
    maxMessageLagMs: 0,
    maxLagIntoSettlingMs: 0,
  };
  const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;
  let counted: ReturnType<typeof figures> | undefined;

  beforeAll(async () => {
    redis = connect();
    sandbox = await startSandbox({
      seed: SEED,
      faults: [{ match: "PUT /api/company/*/ports/orders", latencyMs: PROVIDER_LATENCY_MS }],
    });
    ({ standin, botEnv, front, store, slack } = await startFaultFront(
      sandbox,
      prefix,
      "placement-kills-key",
    ));
    await submitOrders();
  }, 60_000);

  afterAll(async () => {
    writeReliabilityResult({
      verdict: verdictOf(finished),
      suite: "faults-placement-kills",
      checks:
        "the placing process SIGKILLed at random moments, half of them between the provider's 200 and the Redis write, while approved port orders are placed and tracked; then the ports come into existence and an approver uses what the message offers: each approval ends placed once (tracked, told, a port found by name recorded as a port) or failed with nothing ordered; no duplicates, nobody left untold",
      figures: { ...run, ...counted },
      settings: {
        seed: SEED,
        scale: SCALE,
        trials: TRIALS,
        answerKillShare: ANSWER_KILL_SHARE,
        holdAnswerMs: HOLD_ANSWER_MS,
        randomKillMs: RANDOM_KILL_MS.join("-"),
        providerLatencyMs: PROVIDER_LATENCY_MS,
        refusedShare: REFUSED_SHARE,
      },
    });
    await worker?.kill();
    for (const life of ahead.splice(0)) await (await life.loaded.catch(() => undefined))?.discard();
    await front?.stop();
    await deleteKeys(redis, prefix);
    await standin?.close();
    await sandbox?.close();
    redis?.disconnect();
  });

  /** Port order requests shaped as the port order flow submits them, posted for approval. */
  async function submitOrders(): Promise<void> {
    const rng = Prng.derive(SEED, "orders");
    // On-net only: their ports exist a day after the order, so a look-up by name can find them.
    const dcfs = sandbox.state.world.dcfs.filter(
      (d) => d.ready && d.kind === "ON_NET" && !d.edge && d.speeds.length > 0,
    );
    const client = new WebClient(standin.botToken, { slackApiUrl: standin.apiUrl });
    for (let i = 0; i < PLACEMENTS; i++) {
      const portName = `kill-test-${String(i).padStart(3, "0")}`;
      const dcf = rng.pick(dcfs);
      const refused = rng.chance(REFUSED_SHARE);
      if (refused) run.refusedByProvider++;
      const outcome = await submitForApproval({
        services: front.services,
        client,
        submission: portOrderRequest({
          portName,
          companyUsername: sandbox.apiUser.companyUsername,
          dataCenterFacility: dcf.username,
          // 25 Gbps is offered nowhere: the provider answers 400 and nothing is ordered.
          speed: refused ? "25000" : String(rng.pick(dcf.speeds)),
        }),
      });
      if (!outcome.ok) throw new Error(outcome.message);
      const threadTs = (await store.get(outcome.approval.id))?.slack.approvalTs;
      if (!threadTs) throw new Error(`approval ${outcome.approval.id} was not posted`);
      approvals.push({ id: outcome.approval.id, portName, threadTs });
    }
    run.placements = approvals.length;
  }

  /** The approver clicks Approve on the next `count` requests. */
  async function approveNext(count: number): Promise<void> {
    for (const approval of approvals.slice(approvedCount, approvedCount + count)) {
      approvedCount++;
      const ack = await slack.clickButton({
        userId: APPROVER,
        message: { channel: CHANNEL, ts: approval.threadTs },
        actionId: "approval_approve",
      });
      if (ack.status !== 200) throw new Error(`approve click answered ${ack.status}`);
    }
  }

  /** A life of the placing process, loaded ahead (its modules take seconds) and named. */
  function loadLife(): { id: string; loaded: Promise<LoadedWorker> } {
    lifeNumber++;
    const id = `placement-kills-life-${lifeNumber}`;
    const loaded = loadWorkerProcess(FIXTURE, {
      ...botEnv,
      BOT_PREFIX: prefix,
      WORKER_ID: id,
      FAULTS_HOLD_ANSWER_MS: String(HOLD_ANSWER_MS),
    });
    loaded.catch(() => undefined); // awaited when its turn comes
    return { id, loaded };
  }

  /** Starts the next loaded life; unless it is the last, more load behind it meanwhile. */
  async function startWorker(last = false): Promise<{ process: WorkerProcess; id: string }> {
    while (!last && ahead.length < LOADED_AHEAD + 1) ahead.push(loadLife());
    const next = ahead.shift() ?? loadLife();
    const child = await (await next.loaded).go();
    run.workerStarts++;
    return { process: child, id: next.id };
  }

  /** Claims the given worker took and never finished: placements a kill cut off. */
  async function claimsHeldBy(workerId: string): Promise<number> {
    const executing = await store.findByStatus("executing");
    return executing.filter((r) => r.claimedBy === workerId).length;
  }

  async function tally(): Promise<ApprovalTally[]> {
    const sources = tallySources({
      sandbox,
      standin,
      channel: CHANNEL,
      record: (id) => store.get(id),
    });
    return Promise.all(
      approvals.slice(0, approvedCount).map((approval) => tallyApproval(sources, approval)),
    );
  }

  /** One life of the placing process, ended by a SIGKILL: at a held answer or at random. */
  async function trial(rng: Prng): Promise<void> {
    const life = await startWorker();
    worker = life.process;
    const windows = new Map<string, string>();
    let answered: () => void = () => undefined;
    const firstAnswer = new Promise<void>((resolve) => {
      answered = resolve;
    });
    life.process.onLine((line) => {
      const match = WINDOW_LINE.exec(line);
      if (!match?.[1] || !match[2]) return;
      if (match[1] === "released") windows.delete(match[2]);
      else windows.set(match[2], match[1]);
      if (match[1] === "answered") answered();
    });
    await approveNext(rng.int(1, 2));
    const aimed = rng.chance(ANSWER_KILL_SHARE);
    if (aimed) {
      // Bounded: a life whose approvals were all refused never holds an answer.
      const held = await within(firstAnswer, 10_000);
      if (held) run.killsAimedAtAnswer++;
      await sleep(rng.int(...AIMED_KILL_MS));
    } else {
      await sleep(rng.int(...RANDOM_KILL_MS));
    }
    const states = [...windows.values()];
    await life.process.kill();
    run.kills++;
    if (states.includes("answered")) run.killsWithAnswerHeld++;
    if (states.includes("sending")) run.killsWithRequestInFlight++;
    // Read after the death, so nothing can finish them: claims this life had in hand.
    if ((await claimsHeldBy(life.id)) > 0) run.killsMidPlacement++;
  }

  /** The statuses of the approvals so far, counted: what "progress" means while waiting. */
  async function statusCounts(): Promise<string> {
    const tallies = await tally();
    const counts = new Map<string, number>();
    for (const t of tallies) {
      const key = `${t.status}${t.told ? "" : " (untold)"}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts].map(([key, n]) => `${n} ${key}`).join(", ");
  }

  /** The approvals' states and every message in the approvals channel so far: what moves. */
  async function deliveredSoFar(): Promise<string> {
    const messages = standin
      .messages(CHANNEL)
      .reduce((n, m) => n + 1 + standin.thread(CHANNEL, m.ts).length, 0);
    return `${await statusCounts()}; ${messages} messages`;
  }

  /** Passes of {@link approverWayForward} until nothing is unknown, or nothing changes any more. */
  async function approverUntilNoneUnknown(): Promise<void> {
    const unknownLeft = async () =>
      (
        await Promise.all(
          approvals.slice(0, approvedCount).map(async (a) => (await store.get(a.id))?.status),
        )
      ).filter((status) => status === "unknown").length;
    let passes = 0;
    await waitWhileProgressing(
      async () => {
        if ((await unknownLeft()) === 0) return true;
        // A pass that clicked nothing is followed by a look a second later, as a person would.
        if ((await approverWayForward()) === 0) await sleep(APPROVER_LOOK_AGAIN_MS);
        passes++;
        return false;
      },
      async () =>
        `${await unknownLeft()} unknown, ${run.approverLookUps + run.approverPlaceAgain} clicks`,
      {
        idleMs: APPROVER_IDLE_MS,
        timeoutMs: PHASE_BOUND_MS,
        description: "no request left unknown",
      },
    ).catch(() => undefined); // what is still unknown is reported by the checks below
    run.approverPasses = passes;
  }

  /**
   * An approver takes what the message offers for each request still unknown, several at once as
   * a team would; counts clicks.
   */
  async function approverWayForward(): Promise<number> {
    let clicks = 0;
    const waiting: OrderedApproval[] = [];
    for (const approval of approvals.slice(0, approvedCount)) {
      if ((await store.get(approval.id))?.status !== "unknown") continue;
      // Only what the message offers now: a request still being looked up shows no buttons.
      if (offeredButtons(standin, CHANNEL, approval.threadTs).length === 0) continue;
      waiting.push(approval);
    }
    const next = () => waiting.shift();
    const hands = Array.from({ length: APPROVER_PARALLEL }, async () => {
      for (let approval = next(); approval; approval = next()) {
        clicks += await wayForward(approval);
      }
    });
    await Promise.all(hands);
    return clicks;
  }

  /** What a person does with one unknown request: look up again, then place again if offered. */
  async function wayForward(approval: OrderedApproval): Promise<number> {
    let clicks = 0;
    const act = (label: RegExp) =>
      clickOffered({
        standin,
        slack,
        userId: APPROVER,
        channel: CHANNEL,
        ts: approval.threadTs,
        label,
      });
    // The look-up's answer: the request leaves unknown, or the thread is told it found nothing.
    const answered = (clickedAt: number) =>
      waitFor(
        async () =>
          (await store.get(approval.id))?.status !== "unknown" ||
          standin.thread(CHANNEL, approval.threadTs).some((m) => Number(m.ts) * 1_000 > clickedAt),
        { timeoutMs: 15_000, description: `the look-up of ${approval.portName}` },
      ).catch(() => false);
    const clickedAt = Date.now();
    if (await act(/look up again/i)) {
      run.approverLookUps++;
      clicks++;
      await answered(clickedAt);
      if ((await store.get(approval.id))?.status !== "unknown") return clicks;
    }
    if (await act(/place again/i)) {
      run.approverPlaceAgain++;
      clicks++;
      await waitFor(
        async () => {
          const status = (await store.get(approval.id))?.status;
          return status === "placed" || status === "failed";
        },
        { timeoutMs: 30_000, description: `${approval.portName} placed again` },
      ).catch(() => undefined);
    }
    return clicks;
  }

  it(
    `places each approved order once through ${TRIALS} SIGKILLs of the placing process, and leaves nobody untold`,
    async () => {
      onTestFinished(({ task }) => {
        finished.push(task);
      });
      const started = Date.now();
      // Each message's lag behind its record, sampled from before the first click.
      const lag = watchMessageLag({ store, standin }, approvals);
      const rng = Prng.derive(SEED, "kills");
      for (let i = 0; i < TRIALS; i++) await trial(rng);
      run.killingSeconds = seconds(started);

      // The last life is not killed: it takes over what the kills left, with the rest approved.
      worker = (await startWorker(true)).process;
      const settlingFrom = Date.now();
      await approveNext(approvals.length);
      await waitWhileProgressing(async () => quiet(await tally()), statusCounts, {
        idleMs: SETTLE_IDLE_MS,
        timeoutMs: PHASE_BOUND_MS,
        description: "every approval placed, failed or escalated, and told",
      }).catch(() => undefined); // what is still unsettled is reported by the checks below

      run.settlingSeconds = seconds(started) - run.killingSeconds;

      // A day later every order's port exists: a look-up by name can now find what a kill hid.
      let phase = Date.now();
      sandbox.clock.advance(PORTS_EXIST_AFTER_MS);
      await waitFor(
        async () =>
          (await tally()).every(
            (t) => t.told && (t.status !== "unknown" || t.providerOrders === 0),
          ),
        { timeoutMs: 30_000, intervalMs: 250, description: "the look-ups to find the ports" },
      ).catch(() => undefined);
      run.lookUpSeconds = seconds(phase);
      phase = Date.now();
      await approverUntilNoneUnknown();
      // Each placed order's id reaches its thread through the one paced approvals channel,
      // behind every other message of the run: at full size that backlog takes minutes. Waited
      // for while it moves; what is still unsettled once nothing moves is reported below.
      await waitWhileProgressing(async () => settled(await tally()), deliveredSoFar, {
        idleMs: SETTLE_IDLE_MS,
        timeoutMs: PHASE_BOUND_MS,
        description: "every approval placed and tracked, or failed, and told",
      }).catch(() => undefined);

      run.approverSeconds = seconds(phase);
      await waitFor(async () => (await front.jobs.notifier.totalOutboxLength()) === 0, {
        timeoutMs: 60_000,
        description: "the notifier's outboxes to drain",
      }).catch(() => undefined); // a message still behind is reported by the checks below
      const lags = await lag.stop(settlingFrom);
      Object.assign(run, messageLagFigures(lags));
      const tallies = await tally();
      counted = figures(tallies);
      run.runSeconds = Math.round((Date.now() - started) / 1_000);

      const broken = tallies
        .filter((t) => t.problems.length > 0)
        .map((t) => `${t.portName} (${t.status}): ${t.problems.join("; ")}`);
      expect(counted.approvals).toBe(PLACEMENTS);
      // Issue 19's counts: provider orders per approved request, exactly 1 or 0 with `failed`…
      expect(counted.providerOrdersTwoOrMore, "approvals ordered twice").toBe(0);
      expect(counted.noOrderNotFailed, "approvals with no order that did not fail").toBe(0);
      // …nobody left executing/unknown without a word in the thread…
      expect(counted.leftExecutingOrUnknownUntold, "left executing/unknown, nobody told").toBe(0);
      // …and a port found by name is recorded as a port, never as an order id.
      expect(counted.portIdAsOrderId, "port ids recorded as order ids").toBe(0);
      expect(broken, "approvals that broke the promise").toEqual([]);
      // Every approval message and card ends showing its record's final state (the 10 s figure
      // is measured and reported in docs/RELIABILITY.md, not asserted: a loaded machine is slower).
      expect(
        neverCaughtUp(lags),
        "messages still behind their record once the notifier was idle",
      ).toEqual([]);
      // Otherwise the run proves nothing: the kills must have hit the windows that matter.
      expect(run.kills).toBe(TRIALS);
      expect(run.killsWithAnswerHeld).toBeGreaterThanOrEqual(Math.ceil(TRIALS / 6));
      expect(run.killsMidPlacement).toBeGreaterThanOrEqual(Math.ceil(TRIALS / 6));
      expect(counted.placedOnce).toBeGreaterThan(0);
      expect(counted.failedNothingOrdered).toBeGreaterThan(0);
    },
    // Bounds for a busy machine (a trial takes 2-4 s when it is quiet); see the phase timings.
    (SCALE === "full" ? 2_400_000 : 300_000) + 3 * PHASE_BOUND_MS + 120_000,
  );
});
