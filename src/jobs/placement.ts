import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Job, Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { ApprovalStore, TransitionResult } from "../approvals/store.js";
import type { ApprovalRequest, PlacementError, PlacementResult } from "../approvals/types.js";
import type { Logger } from "../log.js";
import type { Metrics } from "../metrics.js";
import type { Notifier } from "./notifier.js";
import { readProviderFailure } from "./providerFailure.js";
import { jobIdPart, QUEUE_NAMES, stateKey } from "./queues.js";

/**
 * Placing approved orders with the provider, never twice.
 *
 * The ApprovalStore is the guard (DESIGN.md §5): only the caller that wins `claim`
 * (approved → executing, atomically in Redis) may call the provider; the job id
 * (`place-<approvalId>`) only saves work. After the call:
 * - success → `complete` and `onPlaced` (the composition root starts tracking, tells the thread);
 * - a ProviderError with `outcomeUnknown` (or any throw that is not a definite provider answer)
 *   → `markUnknown`, then `reconcile(request)` looks the order up (e.g. the port by its unique
 *   name): found → `store.reconcile(placed)` and `onPlaced`; not found or cannot tell → the
 *   request stays `unknown` and `onEscalate` asks a person in the thread. It is NEVER resent;
 * - a definite ProviderError (the provider answered 4xx/5xx) → `fail` and `onFailed`.
 *
 * `reconcile()` (run on a schedule) re-queues `approved` requests whose job is gone, and treats
 * requests stuck in `executing` longer than `stuckAfterMs` (their worker died mid-call) as
 * outcome unknown: the reconcile path, never a blind resend. It also retries the look-up for
 * `unknown` requests, so one found later is completed without a person.
 *
 * Callbacks are called at least once per outcome: a marker of ours (`placement:told:…`) is
 * leased before and confirmed after each call, so a crash between the store's step and the
 * callback calls it again on the next run (they should post with `ctx.notifyScope` and
 * `ctx.notifyKey`, which the
 * notifier de-duplicates), while two replicas reaching the same outcome call it once.
 */

export type StoreForPlacement = Pick<
  ApprovalStore,
  "get" | "claim" | "complete" | "fail" | "markUnknown" | "reconcile" | "findByStatus"
>;

/** What looking an order up at the provider found. Throw when it cannot tell. */
export type LookupResult = { found: true; result: PlacementResult } | { found: false };

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
  /** Looks the order up when the outcome of `place` is unknown (e.g. by `reconcileKey`). */
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
  onEscalate: (request: ApprovalRequest, reason: string, ctx: PlacementContext) => Promise<void>;
}

export interface PlacementOptions {
  queue: Queue;
  /** A command connection, for the "told" markers. */
  redis: Redis;
  prefix: string;
  logger: Logger;
  metrics?: Pick<Metrics, "jobOutcomes">;
  notifier: Pick<Notifier, "post" | "update">;
  /** Needed only where placement jobs are processed and reconciled. */
  store?: StoreForPlacement;
  callbacks?: PlacementCallbacks;
  /** Names this process in the request's history (claimedBy). */
  workerId?: string;
  now?: () => Date;
  /** An `executing` request older than this has lost its worker. Default 5 minutes. */
  stuckAfterMs?: number;
}

export type PlacementOutcome =
  | "placed"
  | "failed"
  | "reconciled"
  | "escalated"
  | "not-claimed"
  | "invalid-job";

const TOLD_TTL_SECONDS = 90 * 24 * 3600;
const TELL_LEASE_SECONDS = 120;

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
  readonly workerId: string;
  private readonly now: () => Date;
  private readonly stuckAfterMs: number;

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
  }

  /** Queues the placement of an approved request (a no-op while its job exists). */
  async enqueue(approvalId: string): Promise<void> {
    await this.queue.add(
      "place",
      { approvalId },
      {
        jobId: placementJobId(approvalId),
        removeOnComplete: true,
        removeOnFail: { age: 30 * 24 * 3600 },
        // Safe to retry: a retry cannot pass `claim` again once the first attempt claimed it.
        attempts: 5,
        backoff: { type: "exponential", delay: 2_000 },
      },
    );
  }

  /** The job's processor. */
  async processJob(job: Job): Promise<PlacementOutcome> {
    const approvalId = (job.data as { approvalId?: unknown } | undefined)?.approvalId;
    if (typeof approvalId !== "string") {
      this.logger.error({ jobId: job.id }, "placement: job without an approval id");
      return "invalid-job";
    }
    // Handed back because its worker died (BullMQ saw the lock expire): a callback lease that
    // worker left unconfirmed is stale, and nothing else would call that callback again.
    return this.process(approvalId, { afterStall: job.stalledCounter > 0 });
  }

  /** Claims and places one request; safe to call concurrently from anywhere. */
  async process(
    approvalId: string,
    options: { afterStall?: boolean } = {},
  ): Promise<PlacementOutcome> {
    const { store, callbacks } = this.deps();
    const claim = await store.claim(approvalId, this.workerId);
    if (!claim.ok) {
      await this.afterRefusedClaim(approvalId, claim, options.afterStall === true);
      return "not-claimed";
    }
    const request = claim.record;
    const attempt = request.attempts;
    const log = { approvalId, attempt, workerId: this.workerId };
    this.logger.info(log, "placement: claimed; placing the order");

    let result: PlacementResult;
    try {
      result = await callbacks.place(request);
    } catch (error) {
      const failure = readProviderFailure(error);
      if (failure.outcomeUnknown === false) {
        const placementError: PlacementError = {
          message: failure.userMessage,
          ...(failure.httpStatus !== undefined ? { httpStatus: failure.httpStatus } : {}),
        };
        const failed = await store.fail(approvalId, placementError, { attempt });
        if (!failed.ok) {
          this.logger.error(
            { ...log, reason: failed.reason },
            "placement: could not record failure",
          );
          return "not-claimed";
        }
        this.logger.warn({ ...log, httpStatus: failure.httpStatus }, "placement: provider refused");
        await this.tell(failed.record, `failed:${attempt}`, (ctx) =>
          callbacks.onFailed(failed.record, placementError, ctx),
        );
        this.count("failed");
        return "failed";
      }
      this.logger.error(
        { ...log, httpStatus: failure.httpStatus, err: failure.detail },
        "placement: outcome unknown; reconciling, never resending",
      );
      const unknown = await store.markUnknown(
        approvalId,
        `outcome unknown: ${failure.detail}`.slice(0, 500),
        { attempt },
      );
      if (!unknown.ok) {
        this.logger.error({ ...log, reason: unknown.reason }, "placement: could not mark unknown");
        return "not-claimed";
      }
      return this.reconcileUnknown(unknown.record);
    }

    const completed = await store.complete(approvalId, result, { attempt });
    if (!completed.ok) {
      // Someone (a person, the reconciler) decided meanwhile; the record says what happened.
      this.logger.error({ ...log, reason: completed.reason }, "placement: could not complete");
      return "not-claimed";
    }
    await this.tell(completed.record, "placed", (ctx) =>
      callbacks.onPlaced(completed.record, result, ctx),
    );
    this.count("placed");
    return "placed";
  }

  /**
   * The reconciler: re-queues lost placements, settles stuck and unknown ones. Returns counts.
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
      if (now - Date.parse(request.updatedAt) < this.stuckAfterMs) continue;
      const job = await this.queue.getJob(placementJobId(request.id));
      if (job && (await job.getState()) === "active") continue;
      const unknown = await store.markUnknown(
        request.id,
        "the worker placing this order stopped mid-call; outcome unknown",
        { attempt: request.attempts },
      );
      if (!unknown.ok) continue;
      stuck += 1;
      this.count("stuck");
      this.logger.error(
        { approvalId: request.id, claimedBy: request.claimedBy },
        "placement: request stuck in executing; reconciling, never resending",
      );
      settledNow.add(request.id);
      await this.reconcileUnknown(unknown.record);
    }

    let retriedLookups = 0;
    for (const request of await store.findByStatus("unknown")) {
      if (settledNow.has(request.id)) continue;
      retriedLookups += 1;
      await this.reconcileUnknown(request);
    }
    return { requeued, stuck, retriedLookups };
  }

  /** Looks an unknown-outcome order up; settles it when found, else escalates (once). */
  private async reconcileUnknown(request: ApprovalRequest): Promise<PlacementOutcome> {
    const { store, callbacks } = this.deps();
    let lookup: LookupResult;
    let reason: string;
    try {
      lookup = await callbacks.reconcile(request);
      reason =
        "The order was not found at the provider, but the provider may still be processing it.";
    } catch (error) {
      lookup = { found: false };
      reason = `The provider could not be asked whether the order exists (${readProviderFailure(error).userMessage}).`;
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
    await this.tell(request, `escalated:${request.attempts}`, (ctx) =>
      callbacks.onEscalate(request, reason, ctx),
    );
    this.count("escalated");
    return "escalated";
  }

  /**
   * A refused claim: another worker has it, or it is finished. If it is placed or failed and
   * the callback was never confirmed (a crash right after the store's step), call it now.
   */
  private async afterRefusedClaim(
    approvalId: string,
    claim: Exclude<TransitionResult, { ok: true }>,
    takeOverLease: boolean,
  ): Promise<void> {
    const { callbacks } = this.deps();
    if (!("record" in claim)) {
      this.logger.warn({ approvalId, reason: claim.reason }, "placement: nothing to place");
      return;
    }
    const record = claim.record;
    this.logger.info(
      { approvalId, status: record.status, claimedBy: record.claimedBy },
      "placement: not claimed (someone else has it, or it is done)",
    );
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
   * A job re-run after a stall may come back before the lease expires, and is the only run
   * that will: `takeOverLease` lets it call unless the callback was confirmed ("done").
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
