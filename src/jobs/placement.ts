import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Job, Queue } from "bullmq";
import type { Redis } from "ioredis";
import { persistently } from "../approvals/persistently.js";
import type { TransitionResult } from "../approvals/results.js";
import type { ApprovalStore } from "../approvals/store.js";
import {
  ApprovalRecordError,
  type ApprovalRequest,
  type PlacementError,
  type PlacementResult,
} from "../approvals/types.js";
import type { Logger } from "../log.js";
import type { Metrics } from "../metrics.js";
import { errorText, type Notifier } from "./notifier.js";
import { type JournalEntry, type PlacementAnswer, PlacementJournal } from "./placementJournal.js";
import { readProviderFailure } from "./providerFailure.js";
import { jobIdPart, QUEUE_NAMES, stateKey } from "./queues.js";

/**
 * Placing approved orders with the provider: once, and never losing the provider's answer.
 *
 * Two records guard it. The ApprovalStore's `claim` (approved → executing, atomic) picks the one
 * worker that may place an attempt (docs/DESIGN.md §5); the job id (`place-<approvalId>`) only saves
 * work. The placement journal (placementJournal.ts) records, in order, how far that attempt got,
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
 *   renewed for `lockDuration` (2 min): the worker died, or lost Redis, or its event loop was
 *   blocked that long. It may be alive;
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
 * `executing` ones to a job that carries them on by the rules above, and retries the look-up
 * for `unknown` requests (completing from a recorded answer first), so one found later is
 * completed without a person.
 * `lookUpAgain(id)` runs that look-up at once, for a person's *Look up again*.
 *
 * Callbacks are called at least once per outcome: a marker of ours (`placement:told:…`) is
 * leased before and confirmed after each call, so a crash between the store's step and the
 * callback calls it again on the next run (they should post with `ctx.notifyScope` and
 * `ctx.notifyKey`, which the notifier de-duplicates), while two replicas reaching the same
 * outcome call it once.
 */

export type StoreForPlacement = Pick<
  ApprovalStore,
  "get" | "claim" | "complete" | "fail" | "markUnknown" | "reconcile" | "findByStatus"
>;

export type JournalForPlacement = Pick<
  PlacementJournal,
  "read" | "intend" | "own" | "startSending" | "recordAnswer"
>;

/** What looking an order up at the provider found. Throw when it cannot tell. */
export type LookupResult =
  | { found: true; result: PlacementResult }
  /** `detail`: what "not found" means for this kind, when more than "nothing by that name". */
  | { found: false; detail?: string };

/**
 * Thrown by a `reconcile` callback when this kind of order cannot be looked up yet (a port
 * order before its port exists), as opposed to a look-up that failed.
 */
export class NotLookableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotLookableError";
  }
}

/** Why a person is asked: the order was sent, no answer came, and the look-up did not settle it. */
export type EscalationCause =
  /** Sent, no answer, the look-up found nothing (yet). */
  | { kind: "not-found"; detail: string }
  /** Sent, no answer, and the look-up itself failed. */
  | { kind: "lookup-failed"; detail: string }
  /** Sent, no answer, and this kind cannot be looked up yet. */
  | { kind: "not-lookable"; detail: string };

export interface PlacementContext {
  notifier: Pick<Notifier, "post" | "update">;
  /** The notification scope of this request (one per request, all outcomes). */
  notifyScope: string;
  /** A notification key for this outcome, within the scope (suffix it per message). */
  notifyKey: string;
}

export interface PlacementCallbacks {
  /** Sends the approved request's provider call (no retries for non-idempotent calls). */
  place: (request: ApprovalRequest) => Promise<PlacementResult>;
  /**
   * Looks the order up when the outcome of `place` is unknown (e.g. by `reconcileKey`). Throws
   * NotLookableError when this kind cannot be looked up yet, anything else when the look-up
   * failed.
   */
  reconcile: (request: ApprovalRequest) => Promise<LookupResult>;
  onPlaced: (
    request: ApprovalRequest,
    result: PlacementResult,
    ctx: PlacementContext,
  ) => Promise<void>;
  onFailed: (
    request: ApprovalRequest,
    error: PlacementError,
    ctx: PlacementContext,
  ) => Promise<void>;
  /** The outcome is unknown and the look-up did not settle it: a person must check. */
  onEscalate: (
    request: ApprovalRequest,
    cause: EscalationCause,
    ctx: PlacementContext,
  ) => Promise<void>;
}

export interface PlacementOptions {
  queue: Queue;
  /** A command connection, for the "told" markers and the journal. */
  redis: Redis;
  prefix: string;
  logger: Logger;
  metrics?: Pick<Metrics, "jobOutcomes">;
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
}

export type PlacementOutcome =
  | "placed"
  | "failed"
  | "reconciled"
  | "escalated"
  | "not-claimed"
  /** Another worker took the claim over before this one sent anything. */
  | "handed-over"
  | "invalid-job";

/**
 * `lookUpAgain`: `reconciled` — settled (found at the provider, or by an answer recorded
 * meanwhile); `escalated` — still nothing, the person is told again; `not-unknown` — the
 * request is not (or no longer) waiting for a look-up.
 */
export type LookUpAgainOutcome = "reconciled" | "escalated" | "not-unknown";

const TOLD_TTL_SECONDS = 90 * 24 * 3600;
const TELL_LEASE_SECONDS = 120;
/** How long a claim's owner retries marking it `sending` before giving up (and not sending). */
const SENDING_WRITE_TIMEOUT_MS = 60_000;

export function placementJobId(approvalId: string): string {
  return `place-${jobIdPart(approvalId)}`;
}

export function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

export class Placement {
  private readonly queue: Queue;
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly logger: Logger;
  private readonly metrics?: Pick<Metrics, "jobOutcomes">;
  private readonly notifier: Pick<Notifier, "post" | "update">;
  private readonly store?: StoreForPlacement;
  private readonly callbacks?: PlacementCallbacks;
  private readonly journal: JournalForPlacement;
  readonly workerId: string;
  private readonly now: () => Date;
  private readonly stuckAfterMs: number;
  private readonly answerWriteTimeoutMs: number;

  constructor(options: PlacementOptions) {
    this.queue = options.queue;
    this.redis = options.redis;
    this.prefix = options.prefix;
    this.logger = options.logger;
    this.metrics = options.metrics;
    this.notifier = options.notifier;
    this.store = options.store;
    this.callbacks = options.callbacks;
    this.workerId = options.workerId ?? defaultWorkerId();
    this.now = options.now ?? (() => new Date());
    this.stuckAfterMs = options.stuckAfterMs ?? 5 * 60_000;
    this.answerWriteTimeoutMs = options.answerWriteTimeoutMs ?? 10 * 60_000;
    this.journal =
      options.journal ??
      new PlacementJournal({ redis: options.redis, prefix: options.prefix, now: this.now });
  }

  /** Queues the placement of an approved request (a no-op while its job exists). */
  async enqueue(approvalId: string, options: { takeOver?: boolean } = {}): Promise<void> {
    await this.queue.add(
      "place",
      { approvalId, ...(options.takeOver ? { takeOver: true } : {}) },
      {
        jobId: placementJobId(approvalId),
        removeOnComplete: true,
        removeOnFail: { age: 30 * 24 * 3600 },
        // Safe to retry: a retry takes over only a claim that sent nothing (the journal).
        attempts: 5,
        backoff: { type: "exponential", delay: 2_000 },
      },
    );
  }

  /** The job's processor. */
  async processJob(job: Job): Promise<PlacementOutcome> {
    const data = job.data as { approvalId?: unknown; takeOver?: unknown } | undefined;
    const approvalId = data?.approvalId;
    if (typeof approvalId !== "string") {
      this.logger.error({ jobId: job.id }, "placement: job without an approval id");
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
      if (claim.ok) return this.placeClaimed(claim.record, intended);
      if (!("record" in claim)) {
        this.logger.warn({ approvalId, reason: claim.reason }, "placement: nothing to place");
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
  async reconcile(): Promise<{ requeued: number; stuck: number; retriedLookups: number }> {
    const { store } = this.deps();
    let requeued = 0;
    for (const request of await store.findByStatus("approved")) {
      if (await this.jobAlive(request.id)) continue;
      const old = await this.queue.getJob(placementJobId(request.id));
      if (old) await old.remove().catch(() => undefined);
      await this.enqueue(request.id);
      requeued += 1;
      this.count("requeued");
      this.logger.warn({ approvalId: request.id }, "placement: re-queued an approved request");
    }

    let stuck = 0;
    const settledNow = new Set<string>();
    const now = this.now().getTime();
    for (const request of await store.findByStatus("executing")) {
      const entry = await this.entryFor(request);
      const lastChange = Math.max(Date.parse(request.updatedAt), entry ? Date.parse(entry.at) : 0);
      if (now - lastChange < this.stuckAfterMs) continue;
      const job = await this.queue.getJob(placementJobId(request.id));
      const state = job ? await job.getState() : undefined;
      if (state === "active") continue;
      stuck += 1;
      this.count("stuck");
      this.logger.warn(
        { approvalId: request.id, claimedBy: request.claimedBy, journal: entry?.state ?? "none" },
        "placement: request stuck in executing; handing it to a placement job to carry on",
      );
      settledNow.add(request.id);
      // Carried on in a placement job, not here: a crash of that job mid-way (while sending, or
      // telling the thread) is re-run by BullMQ, where nothing would re-run this reconciler's.
      if (job && state !== "completed" && state !== "failed" && state !== "unknown") {
        await job.updateData({ approvalId: request.id, takeOver: true });
      } else {
        if (job) await job.remove().catch(() => undefined);
        await this.enqueue(request.id, { takeOver: true });
      }
    }

    let retriedLookups = 0;
    for (const request of await store.findByStatus("unknown")) {
      if (settledNow.has(request.id)) continue;
      const answer = (await this.entryFor(request))?.answer;
      if (answer) {
        await this.settle(request, answer, true);
        continue;
      }
      retriedLookups += 1;
      await this.lookUp(request, `escalated:${request.attempts}`);
    }
    return { requeued, stuck, retriedLookups };
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
      ? await this.settle(record, answer, true)
      : // Its own event: every press gets its answer in the thread.
        await this.lookUp(
          record,
          `escalated:${record.attempts}:again:${randomBytes(4).toString("hex")}`,
        );
    if (outcome === "escalated") return "escalated";
    return outcome === "not-claimed" ? "not-unknown" : "reconciled";
  }

  /** This process won the claim of attempt `intended` (or a later one). */
  private async placeClaimed(
    request: ApprovalRequest,
    intended: number,
  ): Promise<PlacementOutcome> {
    const attempt = request.attempts;
    // Claimed meanwhile under a later number (a failure and a retry raced this worker's read):
    // its entry starts now; nobody else may send a claim whose journal is missing.
    if (attempt !== intended) await this.journal.intend(request.id, attempt);
    if (!(await this.journal.own(request.id, attempt, this.workerId, ""))) {
      this.logger.warn(
        { approvalId: request.id, attempt, workerId: this.workerId },
        "placement: the claim was taken over before this worker named itself; not sending",
      );
      return "handed-over";
    }
    this.logger.info(
      { approvalId: request.id, attempt, workerId: this.workerId },
      "placement: claimed; placing the order",
    );
    return this.send(request);
  }

  /** Sends the claimed request, records the answer, settles it. The journal says it is ours. */
  private async send(request: ApprovalRequest): Promise<PlacementOutcome> {
    const { store, callbacks } = this.deps();
    const approvalId = request.id;
    const attempt = request.attempts;
    const log = { approvalId, attempt, workerId: this.workerId };
    const mayLeave = await this.persistently(
      "mark the order as being sent",
      () => this.journal.startSending(approvalId, attempt, this.workerId),
      log,
      SENDING_WRITE_TIMEOUT_MS,
    );
    if (!mayLeave) {
      this.logger.warn(log, "placement: another worker took the claim over; not sending");
      return "handed-over";
    }

    let answer: PlacementAnswer;
    try {
      const result = await callbacks.place(request);
      answer = { outcome: "placed", result };
      // First, before any write: the answer is never only in memory.
      this.logger.info(
        { ...log, orderId: result.providerId, providerStatus: result.status },
        "placement: the provider accepted the order",
      );
    } catch (error) {
      const failure = readProviderFailure(error);
      if (failure.outcomeUnknown !== false) {
        this.logger.error(
          { ...log, httpStatus: failure.httpStatus, err: failure.detail },
          "placement: outcome unknown; looking it up, never resending",
        );
        const unknown = await store.markUnknown(
          approvalId,
          `outcome unknown: ${failure.detail}`.slice(0, 500),
          { attempt },
        );
        if (!unknown.ok) {
          this.logger.error(
            { ...log, reason: unknown.reason },
            "placement: could not mark unknown",
          );
          return "not-claimed";
        }
        return this.lookUp(unknown.record, `escalated:${attempt}`);
      }
      answer = {
        outcome: "refused",
        error: {
          message: failure.userMessage,
          ...(failure.httpStatus !== undefined ? { httpStatus: failure.httpStatus } : {}),
        },
      };
      this.logger.warn(
        { ...log, httpStatus: failure.httpStatus, err: failure.detail },
        "placement: the provider refused the order",
      );
    }

    const orderId = answer.outcome === "placed" ? answer.result.providerId : undefined;
    const recorded = await this.persistently(
      "record the provider's answer",
      () => this.journal.recordAnswer(approvalId, attempt, answer),
      { ...log, orderId },
    ).catch((error: unknown) => {
      this.logger.error(
        { ...log, orderId, answer: answer.outcome, err: errorText(error).slice(0, 300) },
        "placement: gave up recording the provider's answer; it is only in this log",
      );
      throw error;
    });
    if (recorded === "newer-attempt") {
      this.logger.error(
        { ...log, orderId, answer: answer.outcome },
        "placement: the provider answered an attempt the request has moved past (placed again?)",
      );
    }
    return this.settle(request, answer, false);
  }

  /**
   * Records a journalled answer in the store (complete/fail; reconcile when the request became
   * `unknown` meanwhile) and tells. Retried across Redis outages like the journal's write.
   */
  private async settle(
    request: ApprovalRequest,
    answer: PlacementAnswer,
    takeOverLease: boolean,
  ): Promise<PlacementOutcome> {
    const { store, callbacks } = this.deps();
    const approvalId = request.id;
    const attempt = request.attempts;
    const log = { approvalId, attempt, workerId: this.workerId };
    const write = (what: string, step: () => Promise<TransitionResult>) =>
      this.persistently(what, step, log);

    let viaReconcile = false;
    let step = await write("record the answer on the request", () =>
      answer.outcome === "placed"
        ? store.complete(approvalId, answer.result, { attempt })
        : store.fail(approvalId, answer.error, { attempt }),
    );
    const current = recordOf(step);
    if (!step.ok && current?.status === "unknown" && current.attempts === attempt) {
      // Another worker looked up meanwhile and found nothing: the answer settles it.
      viaReconcile = true;
      step = await write("settle the unknown request with the answer", () =>
        store.reconcile(
          approvalId,
          answer.outcome === "placed"
            ? {
                by: this.workerId,
                outcome: "placed",
                result: answer.result,
                note: "the provider's answer arrived after a look-up",
              }
            : {
                by: this.workerId,
                outcome: "failed",
                error: answer.error,
                note: "the provider's refusal arrived after a look-up",
              },
        ),
      );
    }
    const record = recordOf(step);
    const settledAs = answer.outcome === "placed" ? "placed" : "failed";
    if (record?.status !== settledAs || record.attempts !== attempt) {
      this.logger.error(
        {
          ...log,
          answer: answer.outcome,
          orderId: answer.outcome === "placed" ? answer.result.providerId : undefined,
          status: record?.status,
        },
        "placement: the request moved on before the provider's answer was recorded on it (the answer is in the journal)",
      );
      return "not-claimed";
    }
    // Settled here, or by another worker with the same answer: tell either way (once, leased).
    if (answer.outcome === "placed") {
      await this.tell(
        record,
        "placed",
        (ctx) => callbacks.onPlaced(record, answer.result, ctx),
        takeOverLease,
      );
    } else {
      await this.tell(
        record,
        `failed:${attempt}`,
        (ctx) => callbacks.onFailed(record, record.error ?? answer.error, ctx),
        takeOverLease,
      );
    }
    if (!step.ok) return "not-claimed";
    const outcome = viaReconcile ? "reconciled" : settledAs;
    this.count(outcome);
    return outcome;
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
      this.logger.info(log, "placement: already settled");
      await this.tellSettled(record, takeOver);
      return "not-claimed";
    }
    if (record.status !== "executing" && record.status !== "unknown") {
      this.logger.info(log, "placement: nothing to place");
      return "not-claimed";
    }
    const entry = await this.entryFor(record);
    if (entry?.answer) return this.settle(record, entry.answer, takeOver);
    if (record.status === "unknown" || !takeOver) {
      this.logger.info(log, "placement: not claimed (someone else has it, or it awaits a look-up)");
      return "not-claimed";
    }

    if (entry?.state === "claimed") {
      if (!(await this.journal.own(approvalId, attempt, this.workerId, entry.owner))) {
        this.logger.info(log, "placement: the claim moved on meanwhile; leaving it");
        return "handed-over";
      }
      this.logger.warn(
        { ...log, previousOwner: entry.owner, workerId: this.workerId },
        "placement: took over a claim that sent nothing; sending it",
      );
      return this.send(record);
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
    this.logger.error(
      { ...log, journal: entry?.state ?? "none" },
      "placement: sent without a recorded answer; looking it up, never resending",
    );
    return this.lookUp(unknown.record, `escalated:${attempt}`);
  }

  /** Looks an unknown-outcome order up; settles it when found, else escalates (once per event). */
  private async lookUp(request: ApprovalRequest, tellEvent: string): Promise<PlacementOutcome> {
    const { store, callbacks } = this.deps();
    let lookup: LookupResult;
    let cause: EscalationCause;
    try {
      lookup = await callbacks.reconcile(request);
      cause = {
        kind: "not-found",
        detail:
          (!lookup.found && lookup.detail) ||
          (request.reconcileKey
            ? `nothing named ${request.reconcileKey} at the provider yet`
            : "nothing found at the provider yet"),
      };
    } catch (error) {
      lookup = { found: false };
      cause = isNotLookable(error)
        ? { kind: "not-lookable", detail: errorText(error) }
        : { kind: "lookup-failed", detail: lookupFailureText(error) };
    }
    if (lookup.found) {
      const settled = await store.reconcile(request.id, {
        by: this.workerId,
        outcome: "placed",
        result: lookup.result,
        note: `found at the provider${request.reconcileKey ? ` by ${request.reconcileKey}` : ""}`,
      });
      const record = settled.ok ? settled.record : await store.get(request.id);
      if (record?.status === "placed") {
        await this.tell(record, "placed", (ctx) => callbacks.onPlaced(record, lookup.result, ctx));
        this.count("reconciled");
        return "reconciled";
      }
      return "not-claimed";
    }
    this.logger.warn(
      { approvalId: request.id, cause: cause.kind, detail: cause.detail },
      "placement: the look-up did not settle an unknown outcome; asking a person",
    );
    await this.tell(request, tellEvent, (ctx) => callbacks.onEscalate(request, cause, ctx));
    this.count("escalated");
    return "escalated";
  }

  /** Placed or failed: call the callback if it was never confirmed (a crash right after). */
  private async tellSettled(record: ApprovalRequest, takeOverLease: boolean): Promise<void> {
    const { callbacks } = this.deps();
    if (record.status === "placed" && record.result) {
      const result = record.result;
      await this.tell(
        record,
        "placed",
        (ctx) => callbacks.onPlaced(record, result, ctx),
        takeOverLease,
      );
    } else if (record.status === "failed" && record.error) {
      const error = record.error;
      await this.tell(
        record,
        `failed:${record.attempts}`,
        (ctx) => callbacks.onFailed(record, error, ctx),
        takeOverLease,
      );
    }
  }

  /**
   * Calls `callback` unless it already succeeded (or is running elsewhere) for this event. A
   * short lease taken with NX makes two replicas that reach the same outcome call it once; the
   * lease expires if the caller dies mid-call, so the next run calls it again (at least once).
   * A job re-run after a stall or a failed attempt may come back before the lease expires, and
   * is the only run that will: `takeOverLease` lets it call unless the callback was confirmed.
   */
  private async tell(
    request: ApprovalRequest,
    event: string,
    callback: (ctx: PlacementContext) => Promise<void>,
    takeOverLease = false,
  ): Promise<void> {
    const key = stateKey(this.prefix, "placement", "told", request.id, event);
    const leased =
      (await this.redis.set(key, "calling", "EX", TELL_LEASE_SECONDS, "NX")) === "OK" ||
      // Should the holder still be alive after all, this is a second call, which callbacks
      // tolerate (they post with ctx.notifyKey; tracking an order is idempotent).
      (takeOverLease && (await this.redis.get(key)) === "calling");
    if (!leased) return;
    try {
      await callback({
        notifier: this.notifier,
        notifyScope: `approval:${request.id}`,
        notifyKey: event,
      });
    } catch (error) {
      await this.redis.del(key);
      throw error;
    }
    await this.redis.set(key, "done", "EX", TOLD_TTL_SECONDS);
  }

  /**
   * Runs a write until it succeeds, retrying (100 ms doubling to 2 s apart) for up to
   * `timeoutMs` while Redis is unavailable: the bot's connections fail fast then ("Stream isn't
   * writeable", "Connection is closed."), and the provider's answer must outlive an outage.
   * Real time, not the injected clock: this is about waiting for Redis to come back.
   */
  /** {@link persistently}, logging each tenth failure as this placement's. */
  private persistently<T>(
    what: string,
    write: () => Promise<T>,
    log: Record<string, unknown>,
    timeoutMs = this.answerWriteTimeoutMs,
  ): Promise<T> {
    return persistently(write, {
      what,
      timeoutMs,
      warn: (failures, error) =>
        this.logger.warn(
          { ...log, failures, err: errorText(error) },
          `placement: could not ${what}; retrying until Redis answers`,
        ),
    });
  }

  private async readRecord(approvalId: string): Promise<ApprovalRequest | null> {
    const { store } = this.deps();
    try {
      const record = await store.get(approvalId);
      if (!record) this.logger.warn({ approvalId }, "placement: no such request");
      return record;
    } catch (error) {
      if (!(error instanceof ApprovalRecordError)) throw error;
      this.logger.error({ approvalId, err: error.message }, "placement: unreadable request");
      return null;
    }
  }

  /** The journal entry of the request's current attempt, if there is one. */
  private async entryFor(request: ApprovalRequest): Promise<JournalEntry | undefined> {
    const entry = await this.journal.read(request.id);
    return entry?.attempt === request.attempts ? entry : undefined;
  }

  private async jobAlive(approvalId: string): Promise<boolean> {
    const job = await this.queue.getJob(placementJobId(approvalId));
    if (!job) return false;
    const state = await job.getState();
    return state !== "completed" && state !== "failed" && state !== "unknown";
  }

  private deps(): { store: StoreForPlacement; callbacks: PlacementCallbacks } {
    if (!this.store || !this.callbacks) {
      throw new Error("placement: no approval store or provider callbacks on this process");
    }
    return { store: this.store, callbacks: this.callbacks };
  }

  private count(outcome: string): void {
    this.metrics?.jobOutcomes.inc({ queue: QUEUE_NAMES.placement, outcome });
  }
}

function recordOf(step: TransitionResult): ApprovalRequest | undefined {
  return step.ok || "record" in step ? step.record : undefined;
}

function isNotLookable(error: unknown): boolean {
  // By name too: a second copy of this module (tests, bundling) makes `instanceof` miss.
  return error instanceof NotLookableError || (error as Error | null)?.name === "NotLookableError";
}

/** A failed look-up in words a person can read: the provider client's, else the error's own. */
function lookupFailureText(error: unknown): string {
  const failure = readProviderFailure(error);
  const fromProvider = failure.httpStatus !== undefined || failure.outcomeUnknown !== undefined;
  return fromProvider ? failure.userMessage : failure.detail;
}
