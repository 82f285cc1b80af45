import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Job } from "bullmq";
import { ApprovalRecordError, type ApprovalRequest } from "../../approvals/types.js";
import type { Notifier } from "../../jobs/notifier/notifier.js";
import { jobIdPart, QUEUE_NAMES } from "../../jobs/queues.js";
import {
  discardJob,
  findJob,
  type JobPartOptions,
  outcomeCounter,
  recreateIfLost,
  stepJobOptions,
} from "../../jobs/stepJob.js";
import type {
  JournalForPlacement,
  LookUpAgainOutcome,
  PlacementCallbacks,
  PlacementOutcome,
  StoreForPlacement,
} from "./contract.js";
import { type JournalEntry, PlacementJournal } from "./journal.js";
import { PlacementOutcomes } from "./outcomes.js";
import { PlacementSender } from "./send.js";

/**
 * Placing approved orders with the provider: once, and never losing the provider's answer.
 * This file is the job and the rules of who may carry a request on; sending is
 * send.ts', recording and telling outcomes outcomes.ts', the contract with the lifecycle
 * contract.ts'.
 *
 * Two records guard it. The ApprovalStore's `claim` (approved → executing, atomic) picks the one
 * worker that may place an attempt (docs/DESIGN.md §5); the job id (`place-<approvalId>`) only saves
 * work. The placement journal (journal.ts) records, in order, how far that attempt got,
 * and gives each step a rule for whoever finds it after a crash:
 *
 *   claimed  (written before the claim, then named after its owner) — nothing was sent:
 *            a worker that finds it takes the claim over and SENDS;
 *   sending  (written just before the request leaves; if that write fails, nothing is sent) —
 *            a worker that finds it LOOKS UP (`reconcile` callback by the order's unique name):
 *            found → `store.reconcile(placed)`; nothing found → `unknown` and `onEscalate`
 *            asks a person in the thread. Never resent;
 *   answered (the provider's answer, order id included, logged at info and written before
 *            anything else) — whoever finds it completes the request with it.
 *
 * After the call: accepted → answer recorded → `complete` and `onPlaced`; a definite refusal
 * (4xx/5xx, or the rate limiter refusing before sending) → answer recorded → `fail` and
 * `onFailed`; an outcome unknown (`outcomeUnknown`, or any throw that is not a definite answer)
 * → `markUnknown` and the look-up above. A worker holding an answer keeps retrying its writes
 * (backoff capped at 2 s, for up to `answerWriteTimeoutMs`, 10 minutes by default) across a
 * Redis outage before doing anything else; if the request became `unknown` meanwhile (another
 * worker looked up), the answer settles it (`store.reconcile` placed, or failed).
 *
 * Handing over a claim, and why it never sends twice. Safety does not rest on telling whether
 * the first worker is alive: the only way to send is to move the journal `claimed → sending`,
 * one Lua compare-and-set on one key, which of any number of workers exactly one wins; the
 * others stop ("handed-over"). The owner in the entry (the claim's winner, rewritten by a
 * takeover) lets a worker recognise its own earlier write when it retries a step whose reply
 * was lost, and makes a worker whose claim was taken over stop early. Liveness only decides
 * who takes over, so that a live worker is rarely disturbed:
 * - a job retry (`attemptsMade > 0`): the previous attempt's processor has returned or thrown,
 *   so it is not running;
 * - a stalled re-run (`stalledCounter > 0`): BullMQ saw the job's lock expire, i.e. it was not
 *   renewed for `lockDuration` (20 s): the worker died, or lost Redis, or its event loop was
 *   blocked that long. It may be alive. A dead worker's placement is re-run about 25 s after its
 *   last renewal (`RECOVERY_TUNING`, src/workers/runner.ts; test/faults/placementRecovery.test.ts);
 * - the reconciler, for an `executing` request with no change (record or journal) for
 *   `stuckAfterMs` (5 min) whose job is not active (a dead worker's job stays "active" until
 *   BullMQ's stall check hands it back, and then the re-run above takes it): it hands the
 *   request to a placement job marked `takeOver` (so a crash of that job is re-run by BullMQ
 *   too). Its worker may be alive (a `process()` call without a job), so `stuckAfterMs` must
 *   stay well above the provider call's timeout.
 * Taking over a live worker's `claimed`: one of them sends (the compare-and-set). A live
 * worker's `sending` (mid-call): the taker looks up and may escalate; the live worker's answer
 * then settles the request as placed — a needless message, never a second order. A first run
 * (or a `process()` call) that finds someone else's claim leaves it alone.
 *
 * A claim without a journal entry for its attempt was made by a version without the journal,
 * which may have sent it: it is looked up, never sent.
 *
 * `reconcile()` (run on a schedule) re-queues `approved` requests whose job is gone, hands stuck
 * `executing` ones to a job that carries them on by the rules above, retries the look-up
 * for `unknown` requests (completing from a recorded answer first), so one found later is
 * completed without a person, and tells the outcomes whose tell a crash cut off.
 * `lookUpAgain(id)` runs that look-up at once, for a person's *Look up again*.
 *
 * Callbacks are called at least once per outcome: a marker of ours (`placement:told:…`) is
 * leased before and confirmed after each call, and a placed or failed outcome is noted as owed
 * (`placement:owed`) before the store's step that settles it, so a crash between the store's
 * step and the callback's end calls it again on the next run: a job's re-run, or the
 * reconciler's sweep of owed tells once the lease has run out (outcomes.ts). Callbacks should
 * post with `ctx.notifyScope` and `ctx.notifyKey`, which the notifier de-duplicates; two
 * replicas reaching the same outcome call it once.
 */

export interface PlacementOptions extends JobPartOptions {
  notifier: Pick<Notifier, "post" | "update">;
  /** Needed only where placement jobs are processed and reconciled. */
  store?: StoreForPlacement;
  callbacks?: PlacementCallbacks;
  /** The placement journal; by default one on `redis` under `prefix`. */
  journal?: JournalForPlacement;
  /** Names this process in the request's history (claimedBy) and the journal (owner). */
  workerId?: string;
  now?: () => Date;
  /** An `executing` request unchanged for this long has lost its worker. Default 5 minutes. */
  stuckAfterMs?: number;
  /** How long a worker holding the provider's answer retries writing it. Default 10 minutes. */
  answerWriteTimeoutMs?: number;
  /** How long a tell (a callback) may run before another may take it over. Default 2 min. */
  tellLeaseMs?: number;
}

export function placementJobId(approvalId: string): string {
  return `place-${jobIdPart(approvalId)}`;
}

export function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

export class Placement {
  readonly workerId: string;
  private readonly journal: JournalForPlacement;
  private readonly outcomes: PlacementOutcomes;
  private readonly sender: PlacementSender;
  private readonly now: () => Date;
  private readonly stuckAfterMs: number;
  private readonly count: (outcome: string) => void;

  constructor(private readonly options: PlacementOptions) {
    this.workerId = options.workerId ?? defaultWorkerId();
    this.now = options.now ?? (() => new Date());
    this.stuckAfterMs = options.stuckAfterMs ?? 5 * 60_000;
    this.count = outcomeCounter(options.metrics, QUEUE_NAMES.placement);
    this.journal =
      options.journal ??
      new PlacementJournal({ redis: options.redis, prefix: options.prefix, now: this.now });
    const deps = () => this.deps();
    this.outcomes = new PlacementOutcomes({
      redis: options.redis,
      prefix: options.prefix,
      logger: options.logger,
      notifier: options.notifier,
      workerId: this.workerId,
      answerWriteTimeoutMs: options.answerWriteTimeoutMs ?? 10 * 60_000,
      count: this.count,
      deps,
      tellLeaseMs: options.tellLeaseMs,
      now: this.now,
    });
    this.sender = new PlacementSender({
      journal: this.journal,
      logger: options.logger,
      workerId: this.workerId,
      outcomes: this.outcomes,
      deps,
    });
  }

  /**
   * Whether it can place here (the store and the lifecycle's steps were given): only then
   * src/workers runs its jobs and its reconciler.
   */
  get canProcess(): boolean {
    return this.options.store !== undefined && this.options.callbacks !== undefined;
  }

  /** Queues the placement of an approved request (a no-op while its job exists). */
  async enqueue(approvalId: string, options: { takeOver?: boolean } = {}): Promise<void> {
    await this.options.queue.add(
      "place",
      { approvalId, ...(options.takeOver ? { takeOver: true } : {}) },
      stepJobOptions(placementJobId(approvalId), {
        keepFailedDays: 30,
        // Safe to retry: a retry takes over only a claim that sent nothing (the journal).
        attempts: 5,
        backoff: { type: "exponential", delay: 2_000 },
      }),
    );
  }

  /** The job's processor. */
  async processJob(job: Job): Promise<PlacementOutcome> {
    const data = job.data as { approvalId?: unknown; takeOver?: unknown } | undefined;
    const approvalId = data?.approvalId;
    if (typeof approvalId !== "string") {
      this.options.logger.error({ jobId: job.id }, "placement: job without an approval id");
      return "invalid-job";
    }
    // Handed over by the reconciler, a retry (the previous attempt threw) or a re-run after a
    // stall (BullMQ saw the lock expire): the previous run is presumed gone, so its claim and
    // its unconfirmed callback leases may be taken over (the top of this file says why that is
    // safe).
    const takeOver = data?.takeOver === true || job.attemptsMade > 0 || job.stalledCounter > 0;
    return this.process(approvalId, { takeOver });
  }

  /**
   * Claims and places one request; safe to call concurrently from anywhere. `takeOver`: the
   * caller knows the previous run of this placement is gone (a job retry or stalled re-run), so
   * an unfinished claim is carried on by the journal's rules instead of left alone.
   */
  async process(
    approvalId: string,
    options: { takeOver?: boolean } = {},
  ): Promise<PlacementOutcome> {
    const { store } = this.deps();
    const takeOver = options.takeOver === true;
    let record = await this.readRecord(approvalId);
    if (!record) return "not-claimed";
    if (record.status === "approved") {
      const intended = record.attempts + 1;
      await this.journal.intend(approvalId, intended);
      const claim = await store.claim(approvalId, this.workerId);
      if (claim.ok) return this.sender.placeClaimed(claim.record, intended);
      if (!("record" in claim)) {
        this.options.logger.warn(
          { approvalId, reason: claim.reason },
          "placement: nothing to place",
        );
        return "not-claimed";
      }
      record = claim.record;
    }
    return this.resume(record, takeOver);
  }

  /**
   * The reconciler: re-queues lost placements, carries on stuck ones and looks unknown ones up
   * again. Returns counts.
   */
  async reconcile(): Promise<{
    requeued: number;
    stuck: number;
    retriedLookups: number;
    retold: number;
  }> {
    const { store } = this.deps();
    let requeued = 0;
    for (const request of await store.findByStatus("approved")) {
      const jobId = placementJobId(request.id);
      const found = await recreateIfLost(this.options.queue, jobId, () => this.enqueue(request.id));
      if (!found.recreated) continue;
      requeued += 1;
      this.count("requeued");
      this.options.logger.warn(
        { approvalId: request.id },
        "placement: re-queued an approved request",
      );
    }

    let stuck = 0;
    const settledNow = new Set<string>();
    const now = this.now().getTime();
    for (const request of await store.findByStatus("executing")) {
      const entry = await this.entryFor(request);
      const lastChange = Math.max(Date.parse(request.updatedAt), entry ? Date.parse(entry.at) : 0);
      if (now - lastChange < this.stuckAfterMs) continue;
      const { job, state, live } = await findJob(this.options.queue, placementJobId(request.id));
      if (state === "active") continue;
      stuck += 1;
      this.count("stuck");
      this.options.logger.warn(
        { approvalId: request.id, claimedBy: request.claimedBy, journal: entry?.state ?? "none" },
        "placement: request stuck in executing; handing it to a placement job to carry on",
      );
      settledNow.add(request.id);
      // Carried on in a placement job, not here: a crash of that job mid-way (while sending, or
      // telling the thread) is re-run by BullMQ, where nothing would re-run this reconciler's.
      if (live && job) {
        await job.updateData({ approvalId: request.id, takeOver: true });
      } else {
        await discardJob(job);
        await this.enqueue(request.id, { takeOver: true });
      }
    }

    let retriedLookups = 0;
    for (const request of await store.findByStatus("unknown")) {
      if (settledNow.has(request.id)) continue;
      const answer = (await this.entryFor(request))?.answer;
      if (answer) {
        await this.outcomes.settle(request, answer, true);
        continue;
      }
      retriedLookups += 1;
      await this.outcomes.lookUp(request, `escalated:${request.attempts}`);
    }
    const retold = await this.outcomes.tellOwed();
    return { requeued, stuck, retriedLookups, retold };
  }

  /**
   * A person's *Look up again* on an `unknown` request: settles it from an answer recorded
   * meanwhile, else looks it up now; found → placed, else the person is told again.
   */
  async lookUpAgain(approvalId: string): Promise<LookUpAgainOutcome> {
    const record = await this.readRecord(approvalId);
    if (record?.status !== "unknown") return "not-unknown";
    const answer = (await this.entryFor(record))?.answer;
    const outcome = answer
      ? await this.outcomes.settle(record, answer, true)
      : // Its own event: every press gets its answer in the thread.
        await this.outcomes.lookUp(
          record,
          `escalated:${record.attempts}:again:${randomBytes(4).toString("hex")}`,
        );
    if (outcome === "escalated") return "escalated";
    return outcome === "not-claimed" ? "not-unknown" : "reconciled";
  }

  /**
   * A request this process did not just claim: finished (tell what was never confirmed),
   * someone else's (left alone unless `takeOver`), or with a journalled answer (settled).
   */
  private async resume(record: ApprovalRequest, takeOver: boolean): Promise<PlacementOutcome> {
    const { store } = this.deps();
    const approvalId = record.id;
    const attempt = record.attempts;
    const log = { approvalId, attempt, status: record.status, claimedBy: record.claimedBy };
    if (record.status === "placed" || record.status === "failed") {
      this.options.logger.info(log, "placement: already settled");
      await this.outcomes.tellSettled(record, takeOver);
      return "not-claimed";
    }
    if (record.status !== "executing" && record.status !== "unknown") {
      this.options.logger.info(log, "placement: nothing to place");
      return "not-claimed";
    }
    const entry = await this.entryFor(record);
    if (entry?.answer) return this.outcomes.settle(record, entry.answer, takeOver);
    if (record.status === "unknown" || !takeOver) {
      this.options.logger.info(
        log,
        "placement: not claimed (someone else has it, or it awaits a look-up)",
      );
      return "not-claimed";
    }

    if (entry?.state === "claimed") {
      if (!(await this.journal.own(approvalId, attempt, this.workerId, entry.owner))) {
        this.options.logger.info(log, "placement: the claim moved on meanwhile; leaving it");
        return "handed-over";
      }
      this.options.logger.warn(
        { ...log, previousOwner: entry.owner, workerId: this.workerId },
        "placement: took over a claim that sent nothing; sending it",
      );
      return this.sender.send(record);
    }
    // `sending` (or an unreadable answer): the request may have left. No entry for this
    // attempt: claimed by a version without the journal, which may have sent it. Look up.
    const unknown = await store.markUnknown(
      approvalId,
      entry
        ? "no answer was recorded after the order was sent (its worker stopped); outcome unknown"
        : "claimed by a worker that kept no placement journal and stopped; outcome unknown",
      { attempt },
    );
    if (!unknown.ok) return "not-claimed";
    this.options.logger.error(
      { ...log, journal: entry?.state ?? "none" },
      "placement: sent without a recorded answer; looking it up, never resending",
    );
    return this.outcomes.lookUp(unknown.record, `escalated:${attempt}`);
  }

  private async readRecord(approvalId: string): Promise<ApprovalRequest | null> {
    const { store } = this.deps();
    try {
      const record = await store.get(approvalId);
      if (!record) this.options.logger.warn({ approvalId }, "placement: no such request");
      return record;
    } catch (error) {
      if (!(error instanceof ApprovalRecordError)) throw error;
      this.options.logger.error(
        { approvalId, err: error.message },
        "placement: unreadable request",
      );
      return null;
    }
  }

  /** The journal entry of the request's current attempt, if there is one. */
  private async entryFor(request: ApprovalRequest): Promise<JournalEntry | undefined> {
    const entry = await this.journal.read(request.id);
    return entry?.attempt === request.attempts ? entry : undefined;
  }

  private deps(): { store: StoreForPlacement; callbacks: PlacementCallbacks } {
    const { store, callbacks } = this.options;
    if (!store || !callbacks) {
      throw new Error("placement: no approval store or provider callbacks on this process");
    }
    return { store, callbacks };
  }
}
