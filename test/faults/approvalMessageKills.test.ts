import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { ApprovalRequest, ApprovalStore } from "../../src/approvals/index.js";
import { holdsItsName, normalizedName } from "../../src/approvals/names.js";
import type { RunningBot } from "../../src/bot.js";
import { RECONCILED_MESSAGE_KEY } from "../../src/orders/approvalMessages.js";
import { scopeOf } from "../../src/orders/index.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { Prng } from "../../src/sandbox/random.js";
import {
  type HttpTransport,
  type SlackAppDriver,
  type SlackStandin,
  STANDIN_IDS,
} from "../../src/standin/index.js";
import { supersededApprovalView } from "../../views/approvals/approvals.js";
import { waitWhileProgressing, within } from "../harness/index.js";
import { connect, deleteKeys, runPrefix } from "../jobs/support.js";
import { offeredButtons } from "./approverActions.js";
import { WINDOW_LINE } from "./fixtures/answerWindow.js";
import { startFaultFront } from "./front.js";
import { type FinishedTask, verdictOf, writeReliabilityResult } from "./reliabilityResults.js";
import { faultScale } from "./scale.js";
import { type LoadedWorker, loadWorkerProcess, type WorkerProcess } from "./workerProcess.js";

const SCALE = faultScale();
/** Lives of the submitting process, each ended by a SIGKILL: 16 in CI, 100 with FAULTS_SCALE=full. */
const LIVES = SCALE === "full" ? 100 : 16;
/** Port orders each life is asked to submit, one after another (uniform). */
const SUBMITS_PER_LIFE = [1, 3] as const;
/** Every random choice (how many orders, kill moments, which requests are approved where). */
const SEED = Number(process.env.FAULTS_SEED ?? 20_261_128);
/**
 * The form's post of the approval message is held this long in the process (ms): after Slack
 * answered it (the message posted, its place not kept) or, in every other aimed life, before it
 * leaves (never posted).
 */
const HOLD_MS = 400;
/** An aimed kill lands this long after the post was held (uniform, ms): inside the hold. */
const AIMED_KILL_MS = [0, 150] as const;
/**
 * Other kills land this long after the first submission was asked for (uniform, ms): before a
 * store, between a store and its post, in a post, after its place was kept, in a later
 * submission, or while the life's maintenance reconciles what an earlier life left.
 */
const RANDOM_KILL_MS = [0, 2_500] as const;
/**
 * In every fourth life, the form's post is held before it leaves until the reconciler's own
 * message for that request has been posted and its place kept (awaited on the record in the
 * child, at most this long, ms), so the form's late post must lose to it
 * (src/orders/approvalMessages.ts: the first kept place wins, the other message loses its
 * buttons). That life is killed after its first late post was sent and answered, within
 * LATE_KILL_MS of it.
 */
const LATE_HOLD_CAP_MS = 60_000;
const LATE_KILL_MS = [0, 500] as const;
/** The reconciler's grace in each life: a request this old without a message is posted (ms). */
const GRACE_MS = 1_000;
/** Share of the requests left without a message that an approver approves from App Home. */
const HOME_SHARE = 0.5;
/** Share of the pending requests, once messaged, approved from their message. */
const MESSAGE_SHARE = 0.5;
/** Settling ends when all is settled, or nothing changed for this long (then the checks say what). */
const SETTLE_IDLE_MS = 30_000;
const PHASE_BOUND_MS = SCALE === "full" ? 600_000 : 120_000;

const FIXTURE = fileURLToPath(new URL("./fixtures/submittingBot.ts", import.meta.url));
const CHANNEL = STANDIN_IDS.approvals;
const APPROVER = STANDIN_IDS.approver;

/**
 * Issue 29 (docs/RELIABILITY.md, "A pending request with no approval message"): the bot that
 * submits port orders — the real one, in a child process (fixtures/submittingBot.ts) — is
 * SIGKILLed at random moments of submission, half of the kills while the form's post of the
 * approval message is held in it: after Slack answered it (Slack has the message, the record has
 * no place for it) or before it left. In every fourth life the post is held until the
 * reconciler's own post of it is kept, so the form's must lose its buttons. Each life restarts with a
 * short grace for the approval messages' reconciler (src/orders/approvalMessages.ts) and runs
 * the maintenance every second. After the kills, an approver approves half of the requests still
 * without a message from App Home (they are placed with no thread to track in); the last life
 * reconciles everything; half of the pending ones are approved from their kept message. Then
 * every stored request is counted from Redis, the approvals channel, the tracker and the
 * provider's orders. A form post Slack has and the killed life never kept shows Approve beside
 * the reconciled message until it is clicked (nothing knew its ts): the click must change
 * nothing on the request and take that post's buttons off.
 */
describe("approval messages survive SIGKILLs of the submitting bot", () => {
  const finished: FinishedTask[] = [];
  const prefix = runPrefix("approval-message-kills");
  let redis: Redis;
  let sandbox: Sandbox;
  let standin: SlackStandin;
  let slack: SlackAppDriver<HttpTransport>;
  let front: RunningBot;
  let store: ApprovalStore;
  let child: WorkerProcess | undefined;
  let ahead: Promise<LoadedWorker> | undefined;
  let botEnv: Record<string, string>;
  let dcfs: Array<{ username: string; speeds: number[] }>;
  let submitted = 0;
  const run = {
    kills: 0,
    /** Killed with Slack's answer to an approval message held: posted, its place not kept. */
    killsWithAnswerHeld: 0,
    /** Killed with an approval message's post held before it left, or in flight. */
    killsWithPostInFlight: 0,
    /** Killed with a request stored and its place not kept, Slack's answer not held (yet). */
    killsStoredNotKept: 0,
    /** Killed with no submission in hand: before the first store, or every place kept. */
    killsNothingInHand: 0,
    /** Killed with a reconciled message queued, or sent and its place not kept yet. */
    killsMidReconcile: 0,
    /** Lives whose form posts were held until the reconciler had kept its own message. */
    livesPostingLate: 0,
    submissionsAsked: 0,
    requestsStored: 0,
    keptByForm: 0,
    keptByReconciler: 0,
    cancelledNotPosted: 0,
    lost: 0,
    approvedFromHome: 0,
    approvedFromMessage: 0,
    messageClicks: 0,
    /** Form posts whose place was never kept, found offering Approve and clicked. */
    strayPostsClicked: 0,
    /** Of those clicks, the ones refused with nothing changed. */
    orphanClicksRefused: 0,
    /** Posts other than the kept one still offering Approve at the end (after their click). */
    strayPostsStillOfferingApprove: 0,
    /** Messages that lost to the place kept first (a late form post, or the reconciler's). */
    supersededMessages: 0,
    twoWorkingApproveMessages: 0,
    placed: 0,
    placedUntracked: 0,
    orderedTwice: 0,
    namesWrong: 0,
    runSeconds: 0,
  };
  let checked = false;

  beforeAll(async () => {
    redis = connect();
    sandbox = await startSandbox({ seed: SEED });
    ({ standin, botEnv, front, store, slack } = await startFaultFront(
      sandbox,
      prefix,
      "approval-message-kills-key",
    ));
    // On-net with speeds: the sandbox places these orders.
    dcfs = sandbox.state.world.dcfs.filter(
      (d) => d.ready && d.kind === "ON_NET" && !d.edge && d.speeds.length > 0,
    );
  }, 60_000);

  afterAll(async () => {
    if (checked) {
      writeReliabilityResult({
        verdict: verdictOf(finished),
        suite: "faults-approval-message-kills",
        checks:
          "the bot SIGKILLed while it submits port orders, half of the kills with the form's post of the approval message held (after Slack answered it, or before it left) before its place is kept, in every fourth life held past the reconciler's post of it; restarted with a 1 s grace for the approval messages' reconciler; requests without a message approved from App Home, the others from their message: every stored request ends with one kept message whose Approve works (or cancelled), none lost, every placed one tracked and ordered once, names held exactly by live requests",
        figures: run,
        settings: {
          seed: SEED,
          scale: SCALE,
          lives: LIVES,
          holdMs: HOLD_MS,
          randomKillMs: RANDOM_KILL_MS.join("-"),
          lateHoldCapMs: LATE_HOLD_CAP_MS,
          graceMs: GRACE_MS,
        },
      });
    }
    await child?.kill();
    await (await ahead?.catch(() => undefined))?.discard();
    await front?.stop();
    await deleteKeys(redis, prefix);
    await standin?.close();
    await sandbox?.close();
    redis?.disconnect();
  });

  /**
   * Every other life is aimed at the held post, the last killed one too (it leaves requests
   * without a message for the App Home approvals); every other aimed one holds the post before
   * it leaves, the others after Slack answered it. Of the others, every other one posts late.
   */
  const aimedAt = (life: number) => (LIVES - 1 - life) % 2 === 0;
  const late = (life: number) => (LIVES - 1 - life) % 4 === 1;
  const holdWhere = (life: number) =>
    late(life) ? "late" : (LIVES - 1 - life) % 4 === 2 ? "request" : "answer";

  /** Life `n`, loaded (its modules take seconds) while the one before it runs. */
  function load(n: number): Promise<LoadedWorker> {
    const loaded = loadWorkerProcess(FIXTURE, {
      ...botEnv,
      BOT_PREFIX: prefix,
      FAULTS_GRACE_MS: String(GRACE_MS),
      FAULTS_HOLD_MS: String(late(n) ? LATE_HOLD_CAP_MS : HOLD_MS),
      FAULTS_HOLD_WHERE: holdWhere(n),
    });
    loaded.catch(() => undefined); // awaited when its turn comes
    return loaded;
  }

  /** Starts life `n` (the one after the kills: LIVES), with the next loading behind it. */
  async function startLife(n: number): Promise<WorkerProcess> {
    const next = ahead ?? load(n);
    ahead = n < LIVES ? load(n + 1) : undefined;
    return (await next).go(60_000);
  }

  /** Life `n`: 1-3 submissions, a SIGKILL while a post is held or at random. */
  async function life(rng: Prng, n: number): Promise<void> {
    const aimed = aimedAt(n);
    const bot = await startLife(n);
    child = bot;
    const stored = new Set<string>();
    const kept = new Set<string>();
    const windows = new Map<string, string>();
    let held: () => void = () => undefined;
    const firstHeld = new Promise<void>((resolve) => {
      held = resolve;
    });
    const heldState = holdWhere(n) === "answer" ? "answered" : "sending";
    let posted: () => void = () => undefined;
    const firstPosted = new Promise<void>((resolve) => {
      posted = resolve;
    });
    bot.onLine((line) => {
      const [word, name] = line.split(" ");
      if (word === "stored" && name) stored.add(name);
      if (word === "posted" && name) {
        kept.add(name);
        posted();
      }
      const window = WINDOW_LINE.exec(line);
      if (window?.[1] && window[2]) {
        if (window[1] === "released") windows.delete(window[2]);
        else windows.set(window[2], window[1]);
        if (window[1] === heldState) held();
      }
    });
    const count = rng.int(...SUBMITS_PER_LIFE);
    for (let i = 0; i < count; i++) {
      const name = `msg-kill-${String(submitted++).padStart(3, "0")}`;
      const dcf = rng.pick(dcfs);
      bot.child.stdin?.write(`submit ${name} ${dcf.username} ${rng.pick(dcf.speeds)}\n`);
      run.submissionsAsked++;
    }
    if (aimed) {
      await within(firstHeld, 15_000);
      await sleep(rng.int(...AIMED_KILL_MS));
    } else {
      if (late(n)) {
        // The form's post went out after the reconciler's was kept, and lost to it.
        if (await within(firstPosted, LATE_HOLD_CAP_MS + 30_000)) run.livesPostingLate++;
      }
      const [from, to] = late(n) ? LATE_KILL_MS : RANDOM_KILL_MS;
      await sleep(rng.int(from, to));
    }
    const states = [...windows.values()];
    await bot.kill();
    child = undefined;
    run.kills++;
    if (states.includes("answered")) run.killsWithAnswerHeld++;
    else if (states.includes("sending")) run.killsWithPostInFlight++;
    else if ([...stored].some((name) => !kept.has(name))) run.killsStoredNotKept++;
    else run.killsNothingInHand++;
    if (await reconcilerMidWay()) run.killsMidReconcile++;
  }

  /** Whether a reconciled approval message is queued, or sent with its place not kept yet. */
  async function reconcilerMidWay(): Promise<boolean> {
    for (const record of await store.findByStatus("pending")) {
      if (record.slack.approvalTs) continue;
      const marker = await front.jobs.notifier.status(scopeOf(record), RECONCILED_MESSAGE_KEY);
      if (marker) return true;
    }
    return false;
  }

  async function records(): Promise<ApprovalRequest[]> {
    return store.list({ limit: 1000 });
  }

  /** Top-level messages of the approvals channel about `name`. */
  function postsAbout(name: string) {
    return standin
      .messages(CHANNEL)
      .filter((m) => (m.thread_ts === undefined || m.thread_ts === m.ts) && m.text.includes(name));
  }

  const offersApprove = (ts: string) =>
    offeredButtons(standin, CHANNEL, ts).some((b) => b.actionId === "approval_approve");

  const nameOf = (record: ApprovalRequest) => record.reconcileKey ?? record.title;

  /** Settled: every live request has a kept message, none waits to be placed, every placed one tracked. */
  async function unsettled(): Promise<string[]> {
    const open: string[] = [];
    for (const record of await records()) {
      const name = nameOf(record);
      if (record.status === "cancelled") continue;
      if (!record.slack.approvalTs) open.push(`${name}: no kept message (${record.status})`);
      if (["approved", "executing", "unknown"].includes(record.status)) {
        open.push(`${name}: ${record.status}`);
      }
      const providerId = record.result?.providerId;
      if (record.status === "placed" && providerId) {
        if (!(await front.services.orders.tracker.get(providerId))) {
          open.push(`${name}: placed, not tracked`);
        }
      }
    }
    if ((await front.jobs.notifier.totalOutboxLength()) > 0) open.push("notifier outbox busy");
    return open;
  }

  async function settle(description: string): Promise<void> {
    await waitWhileProgressing(async () => (await unsettled()).length === 0, unsettledSummary, {
      idleMs: SETTLE_IDLE_MS,
      timeoutMs: PHASE_BOUND_MS,
      description,
    }).catch(() => undefined); // what is still unsettled is reported by the checks
  }
  const unsettledSummary = async () => (await unsettled()).join(", ");

  /** The name keys in Redis, name → the id holding it. */
  async function nameKeys(): Promise<Map<string, string>> {
    const held = new Map<string, string>();
    const pattern = `${prefix}*approvals:name:port:*`;
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
      cursor = next;
      for (const key of keys) {
        const id = await redis.get(key);
        if (id) held.set(key.slice(key.lastIndexOf(":") + 1), id);
      }
    } while (cursor !== "0");
    return held;
  }

  async function ordersByName(): Promise<Map<string, number>> {
    const orders = (await (await fetch(`${sandbox.url}/__sandbox/orders`)).json()) as Array<{
      portName?: string;
    }>;
    const counts = new Map<string, number>();
    for (const o of orders) {
      if (o.portName) counts.set(o.portName, (counts.get(o.portName) ?? 0) + 1);
    }
    return counts;
  }

  it(
    "ends every stored request with one kept, working approval message, placed ones tracked and ordered once",
    async () => {
      onTestFinished(({ task }) => {
        finished.push(task);
      });
      const started = Date.now();
      const rng = Prng.derive(SEED, "kills");
      for (let n = 0; n < LIVES; n++) await life(rng, n);

      // Nothing runs now: approve from App Home some requests no reconciler has posted yet.
      const pick = Prng.derive(SEED, "approvers");
      const unmessaged = (await store.findByStatus("pending")).filter((r) => !r.slack.approvalTs);
      for (const record of unmessaged) {
        if (!pick.chance(HOME_SHARE) && run.approvedFromHome > 0) continue;
        const approved = await front.services.requests.approve({
          id: record.id,
          by: APPROVER,
          groups: async () => [],
          at: { home: true },
        });
        if (!approved.ok) throw new Error(`home approve of ${nameOf(record)}: ${approved.reason}`);
        run.approvedFromHome++;
      }

      // The last life is not killed: it places, reconciles and tracks what the kills left.
      child = await startLife(LIVES);
      await settle("every request with a kept message, the approved placed and tracked");

      // A form post nobody kept still shows Approve: a click there changes nothing on the
      // request, and takes that post's buttons off (src/orders/requestMessages.ts strayClicked).
      const strays = () =>
        records().then((all) =>
          all.flatMap((record) =>
            postsAbout(nameOf(record)).filter(
              (m) => m.ts !== record.slack.approvalTs && offersApprove(m.ts),
            ),
          ),
        );
      for (const record of await records()) {
        const name = nameOf(record);
        for (const message of postsAbout(name)) {
          if (message.ts === record.slack.approvalTs || !offersApprove(message.ts)) continue;
          run.strayPostsClicked++;
          const before = await store.get(record.id);
          const ack = await slack.clickButton({
            userId: APPROVER,
            message,
            actionId: "approval_approve",
          });
          expect(ack.status).toBe(200);
          const after = await store.get(record.id);
          if (
            after?.status === before?.status &&
            after?.history.length === before?.history.length
          ) {
            run.orphanClicksRefused++;
          }
        }
      }
      await waitWhileProgressing(
        async () => (await strays()).length === 0,
        async () => String((await strays()).length),
        {
          description: "every clicked stray post without its buttons",
          idleMs: 20_000,
          timeoutMs: 60_000,
        },
      ).catch(() => undefined); // what is left is counted below
      // Half of the pending ones approved from their kept message.
      for (const record of await store.findByStatus("pending")) {
        if (!pick.chance(MESSAGE_SHARE) && run.approvedFromMessage > 0) continue;
        const ts = record.slack.approvalTs;
        const message = standin.messages(CHANNEL).find((m) => m.ts === ts);
        if (!message) continue; // counted below as a request without its message
        const ack = await slack.clickButton({
          userId: APPROVER,
          message,
          actionId: "approval_approve",
        });
        expect(ack.status).toBe(200);
        run.messageClicks++;
        if ((await store.get(record.id))?.status !== "pending") run.approvedFromMessage++;
      }
      await settle("the approved placed and tracked");

      // Counted from Redis, the approvals channel, the tracker and the provider's orders.
      const all = await records();
      const orders = await ordersByName();
      const names = await nameKeys();
      const problems: string[] = [];
      run.requestsStored = all.length;
      for (const record of all) {
        const name = nameOf(record);
        const keptTs = record.slack.approvalTs;
        const posts = postsAbout(name);
        if (record.status === "cancelled") run.cancelledNotPosted++;
        else if (!keptTs) {
          run.lost++;
          problems.push(`${name}: stored, no kept message (${record.status})`);
        }
        if (keptTs) {
          const marker = await front.jobs.notifier.status(scopeOf(record), RECONCILED_MESSAGE_KEY);
          if (marker?.state === "sent" && marker.ts === keptTs) run.keptByReconciler++;
          else run.keptByForm++;
          if (!posts.some((m) => m.ts === keptTs))
            problems.push(`${name}: kept message not in Slack`);
          // The kept message offers Approve exactly while the request is pending.
          if (offersApprove(keptTs) !== (record.status === "pending")) {
            problems.push(`${name}: kept message's Approve does not match ${record.status}`);
          }
        }
        run.strayPostsStillOfferingApprove += posts.filter(
          (m) => m.ts !== keptTs && offersApprove(m.ts),
        ).length;
        const providerId = record.result?.providerId;
        if (record.status === "placed") {
          run.placed++;
          if (!providerId || !(await front.services.orders.tracker.get(providerId))) {
            run.placedUntracked++;
            problems.push(`${name}: placed, not tracked`);
          }
        }
        const ordered = orders.get(name) ?? 0;
        if (ordered > 1) run.orderedTwice++;
        if (ordered !== (record.status === "placed" ? 1 : 0)) {
          problems.push(`${name}: ${ordered} provider orders, ${record.status}`);
        }
        const holder = names.get(normalizedName(name));
        if ((holder === record.id) !== holdsItsName(record.status)) {
          run.namesWrong++;
          problems.push(`${name}: name held by ${holder ?? "nobody"}, ${record.status}`);
        }
      }
      // A message that lost to the place kept first says so, without the request's name.
      const superseded = supersededApprovalView().text;
      run.supersededMessages = standin
        .messages(CHANNEL)
        .filter(
          (m) => (m.thread_ts === undefined || m.thread_ts === m.ts) && m.text === superseded,
        ).length;
      // A name key with no live request behind it.
      const live = new Set(all.filter((r) => holdsItsName(r.status)).map((r) => r.id));
      for (const [name, id] of names) {
        if (!live.has(id)) {
          run.namesWrong++;
          problems.push(`name ${name} held by ${id}, not a live request`);
        }
      }
      // Two messages with a working Approve: a stray's click that changed the request.
      run.twoWorkingApproveMessages = run.strayPostsClicked - run.orphanClicksRefused;
      run.runSeconds = Math.round((Date.now() - started) / 1_000);
      checked = true;

      expect(problems, "requests that broke the promise").toEqual([]);
      expect(run.lost, "stored requests never messaged").toBe(0);
      expect(run.twoWorkingApproveMessages, "requests with two working Approve messages").toBe(0);
      expect(run.strayPostsStillOfferingApprove, "stray posts still offering Approve").toBe(0);
      expect(run.placedUntracked, "placed requests not tracked").toBe(0);
      expect(run.orderedTwice, "orders placed twice").toBe(0);
      expect(run.namesWrong, "names not held exactly by live requests").toBe(0);
      // Otherwise the run proves nothing: the kills must have hit the window that matters, and
      // every path must have been taken.
      expect(run.kills).toBe(LIVES);
      expect(run.killsWithAnswerHeld + run.killsWithPostInFlight).toBeGreaterThanOrEqual(
        Math.floor(LIVES / 2),
      );
      expect(run.killsWithAnswerHeld).toBeGreaterThan(0);
      expect(run.killsWithPostInFlight).toBeGreaterThan(0);
      expect(run.keptByReconciler).toBeGreaterThan(0);
      const lateLives = Array.from({ length: LIVES }, (_, n) => n).filter(late).length;
      expect(run.livesPostingLate, "lives whose form posted after the reconciler").toBe(lateLives);
      expect(
        run.supersededMessages,
        "late posts that lost to the place kept first",
      ).toBeGreaterThan(0);
      expect(run.approvedFromHome).toBeGreaterThan(0);
      expect(run.approvedFromMessage).toBeGreaterThan(0);
      expect(run.approvedFromMessage, "Approve clicks on kept messages that worked").toBe(
        run.messageClicks,
      );
      expect(run.placed).toBe(run.approvedFromHome + run.approvedFromMessage);
    },
    (SCALE === "full" ? 1_200_000 : 240_000) + 2 * PHASE_BOUND_MS,
  );
});
