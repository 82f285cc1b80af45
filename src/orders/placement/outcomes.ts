import type { Redis } from "ioredis";
import { persistently } from "../../approvals/persistently.js";
import type { TransitionResult } from "../../approvals/results.js";
import type { ApprovalRequest } from "../../approvals/types.js";
import { errorText } from "../../jobs/errors.js";
import type { Notifier } from "../../jobs/notifier/notifier.js";
import { stateKey } from "../../jobs/queues.js";
import { readProviderFailure } from "../../jobs/quotes/providerFailure.js";
import type { Logger } from "../../log.js";
import {
  type EscalationCause,
  type LookupResult,
  NotLookableError,
  type PlacementCallbacks,
  type PlacementContext,
  type PlacementOutcome,
  type StoreForPlacement,
} from "./contract.js";
import type { PlacementAnswer } from "./journal.js";

/**
 * What becomes of an attempt once its outcome is known, or known to be unknown: the provider's
 * answer recorded on the request (complete/fail, or reconcile when the request became `unknown`
 * meanwhile), an unknown outcome looked up (found → placed; else a person is asked), and each
 * outcome told to the caller's callback at least once and, across replicas, once (leased
 * markers `placement:told:<id>:<event>`). The order of those writes is what makes a crash at
 * any point safe; placement.ts (top) says why.
 *
 * At least once holds wherever the tell started. A placement job that dies mid-tell is re-run
 * by BullMQ, but a reconciler's look-up or a person's *Look up again* is not re-run by anyone
 * once its request left `unknown`. So a placed or failed outcome is first noted as owed
 * (`placement:owed`, a sorted set of `[id, event]` scored by when a sweep may take it over),
 * before the store's step that settles it, and struck off once its tell is confirmed;
 * `tellOwed()` (the placement reconciler) tells every owed outcome whose time has passed and
 * whose tell nobody holds or confirmed. A crash between the provider's order and its tracking
 * therefore ends in the order tracked, and its thread told, within a lease and a sweep. Through
 * a failover: the owed note is written before the settling step, so a promoted replica that has
 * the step has the note (one ordered replication stream); one that has neither finds the
 * request where it was before, and settles (and owes) it again.
 */

const TOLD_TTL_SECONDS = 90 * 24 * 3600;
/** How long a tell may run before another process may take it over (its lease). */
export const TELL_LEASE_MS = 120_000;
/** Owed tells one sweep takes on, oldest first; the rest wait for the next sweep. */
const OWED_PER_SWEEP = 100;

export interface PlacementOutcomeParts {
  /** A command connection, for the "told" markers. */
  redis: Redis;
  prefix: string;
  logger: Logger;
  notifier: Pick<Notifier, "post" | "update">;
  /** Names this process in the request's history. */
  workerId: string;
  /** How long a worker holding the provider's answer retries writing it. */
  answerWriteTimeoutMs: number;
  count: (outcome: string) => void;
  /** The store and callbacks; throws where this process has none. */
  deps: () => { store: StoreForPlacement; callbacks: PlacementCallbacks };
  /** How long a tell may run before it may be taken over. Default {@link TELL_LEASE_MS}. */
  tellLeaseMs?: number;
  /** When an owed tell falls due (the lease itself runs out in Redis's own time). */
  now: () => Date;
}

export class PlacementOutcomes {
  private readonly tellLeaseMs: number;

  constructor(private readonly parts: PlacementOutcomeParts) {
    this.tellLeaseMs = parts.tellLeaseMs ?? TELL_LEASE_MS;
  }

  /**
   * Records a journalled answer in the store (complete/fail; reconcile when the request became
   * `unknown` meanwhile) and tells. Retried across Redis outages like the journal's write.
   */
  async settle(
    request: ApprovalRequest,
    answer: PlacementAnswer,
    takeOverLease: boolean,
  ): Promise<PlacementOutcome> {
    const { store, callbacks } = this.parts.deps();
    const approvalId = request.id;
    const attempt = request.attempts;
    const log = { approvalId, attempt, workerId: this.parts.workerId };
    const write = (what: string, step: () => Promise<TransitionResult>) =>
      this.persistently(what, step, log);
    const event = answer.outcome === "placed" ? "placed" : `failed:${attempt}`;
    await this.persistently(
      "note the outcome's tell as owed",
      () => this.owe(approvalId, event),
      log,
    );

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
                by: this.parts.workerId,
                outcome: "placed",
                result: answer.result,
                note: "the provider's answer arrived after a look-up",
              }
            : {
                by: this.parts.workerId,
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
      this.parts.logger.error(
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
        event,
        (ctx) => callbacks.onPlaced(record, answer.result, ctx),
        takeOverLease,
      );
    } else {
      await this.tell(
        record,
        event,
        (ctx) => callbacks.onFailed(record, record.error ?? answer.error, ctx),
        takeOverLease,
      );
    }
    if (!step.ok) return "not-claimed";
    const outcome = viaReconcile ? "reconciled" : settledAs;
    this.parts.count(outcome);
    return outcome;
  }

  /** Looks an unknown-outcome order up; settles it when found, else escalates (once per event). */
  async lookUp(request: ApprovalRequest, tellEvent: string): Promise<PlacementOutcome> {
    const { store, callbacks } = this.parts.deps();
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
      await this.owe(request.id, "placed");
      const settled = await store.reconcile(request.id, {
        by: this.parts.workerId,
        outcome: "placed",
        result: lookup.result,
        note: `found at the provider${request.reconcileKey ? ` by ${request.reconcileKey}` : ""}`,
      });
      const record = settled.ok ? settled.record : await store.get(request.id);
      if (record?.status === "placed") {
        await this.tell(record, "placed", (ctx) => callbacks.onPlaced(record, lookup.result, ctx));
        this.parts.count("reconciled");
        return "reconciled";
      }
      return "not-claimed";
    }
    this.parts.logger.warn(
      { approvalId: request.id, cause: cause.kind, detail: cause.detail },
      "placement: the look-up did not settle an unknown outcome; asking a person",
    );
    await this.tell(request, tellEvent, (ctx) => callbacks.onEscalate(request, cause, ctx));
    this.parts.count("escalated");
    return "escalated";
  }

  /** Placed or failed: call the callback if it was never confirmed (a crash right after). */
  async tellSettled(record: ApprovalRequest, takeOverLease: boolean): Promise<void> {
    const { callbacks } = this.parts.deps();
    const event = settledEvent(record);
    // Owed (again) from here: a job's re-run may die mid-tell more times than BullMQ re-runs it.
    if (event) await this.owe(record.id, event);
    if (record.status === "placed" && record.result && event) {
      const result = record.result;
      await this.tell(
        record,
        event,
        (ctx) => callbacks.onPlaced(record, result, ctx),
        takeOverLease,
      );
    } else if (record.status === "failed" && record.error && event) {
      const error = record.error;
      await this.tell(
        record,
        event,
        (ctx) => callbacks.onFailed(record, error, ctx),
        takeOverLease,
      );
    }
  }

  /**
   * Calls `callback` unless it already succeeded (or is running elsewhere) for this event. A
   * short lease taken with NX makes two replicas that reach the same outcome call it once; the
   * lease expires if the caller dies mid-call, so the next run calls it again (at least once):
   * a job's re-run, or the sweep of owed tells (`tellOwed`) for any other caller.
   * A job re-run after a stall or a failed attempt may come back before the lease expires, and
   * is the only run that will: `takeOverLease` lets it call unless the callback was confirmed.
   */
  private async tell(
    request: ApprovalRequest,
    event: string,
    callback: (ctx: PlacementContext) => Promise<void>,
    takeOverLease = false,
  ): Promise<void> {
    const { redis } = this.parts;
    const key = this.toldKey(request.id, event);
    const leased =
      (await redis.set(key, "calling", "PX", this.tellLeaseMs, "NX")) === "OK" ||
      // Should the holder still be alive after all, this is a second call, which callbacks
      // tolerate (they post with ctx.notifyKey; tracking an order is idempotent).
      (takeOverLease && (await redis.get(key)) === "calling");
    if (!leased) {
      // Confirmed already: nothing is owed. Held elsewhere: its holder strikes it off.
      if ((await redis.get(key)) === "done")
        await redis.zrem(this.owedKey(), owed(request.id, event));
      return;
    }
    try {
      await callback({
        notifier: this.parts.notifier,
        notifyScope: `approval:${request.id}`,
        notifyKey: event,
      });
    } catch (error) {
      // Still owed: the sweep calls it again once the lease would have run out.
      await redis.del(key);
      throw error;
    }
    await redis
      .multi()
      .set(key, "done", "EX", TOLD_TTL_SECONDS)
      .zrem(this.owedKey(), owed(request.id, event))
      .exec();
  }

  /**
   * Tells each owed outcome whose time has passed and whose tell is neither held nor confirmed:
   * the caller that owed it died (or failed) mid-way and nothing else will run it again. An
   * owed event the request has since left (a later attempt, a store step that never happened:
   * the request is still `unknown`, and looked up again by the reconciler) is struck off.
   * Returns how many were told.
   */
  async tellOwed(): Promise<number> {
    const { redis, logger } = this.parts;
    const due = await redis.zrangebyscore(
      this.owedKey(),
      "-inf",
      this.parts.now().getTime(),
      "LIMIT",
      0,
      OWED_PER_SWEEP,
    );
    let told = 0;
    for (const member of due) {
      const entry = parseOwed(member);
      const state = entry ? await redis.get(this.toldKey(entry.id, entry.event)) : null;
      if (state === "calling") continue;
      const record = entry && state !== "done" ? await this.parts.deps().store.get(entry.id) : null;
      if (!entry || !record || settledEvent(record) !== entry.event) {
        await redis.zrem(this.owedKey(), member);
        continue;
      }
      logger.warn(
        { approvalId: record.id, event: entry.event, status: record.status },
        "placement: telling an outcome whose tell was cut off",
      );
      try {
        await this.tellSettled(record, false);
        told += 1;
      } catch (error) {
        logger.warn(
          { approvalId: record.id, event: entry.event, err: errorText(error) },
          "placement: telling an owed outcome failed; the next sweep tries again",
        );
      }
    }
    return told;
  }

  /** Notes the tell of `event` as owed, takeable by a sweep once a lease from now has passed. */
  private async owe(approvalId: string, event: string): Promise<void> {
    await this.parts.redis.zadd(
      this.owedKey(),
      this.parts.now().getTime() + this.tellLeaseMs,
      owed(approvalId, event),
    );
  }

  private toldKey(approvalId: string, event: string): string {
    return stateKey(this.parts.prefix, "placement", "told", approvalId, event);
  }

  private owedKey(): string {
    return stateKey(this.parts.prefix, "placement", "owed");
  }

  /**
   * Runs a write until it succeeds, retrying (100 ms doubling to 2 s apart) for up to
   * `timeoutMs` while Redis is unavailable: the bot's connections fail fast then ("Stream isn't
   * writeable", "Connection is closed."), and the provider's answer must outlive an outage.
   * Real time, not the injected clock: this is about waiting for Redis to come back. Each tenth
   * failure is logged as this placement's ({@link persistently}).
   */
  persistently<T>(
    what: string,
    write: () => Promise<T>,
    log: Record<string, unknown>,
    timeoutMs = this.parts.answerWriteTimeoutMs,
  ): Promise<T> {
    return persistently(write, {
      what,
      timeoutMs,
      warn: (failures, error) =>
        this.parts.logger.warn(
          { ...log, failures, err: errorText(error) },
          `placement: could not ${what}; retrying until Redis answers`,
        ),
    });
  }
}

/** The tell event of a settled request's outcome: `placed`, or `failed:<attempt>`. */
function settledEvent(record: ApprovalRequest): string | undefined {
  if (record.status === "placed") return "placed";
  if (record.status === "failed") return `failed:${record.attempts}`;
  return undefined;
}

/** An owed tell as the sorted set keeps it. */
function owed(approvalId: string, event: string): string {
  return JSON.stringify([approvalId, event]);
}

function parseOwed(member: string): { id: string; event: string } | undefined {
  try {
    const [id, event] = JSON.parse(member) as unknown[];
    return typeof id === "string" && typeof event === "string" ? { id, event } : undefined;
  } catch {
    return undefined;
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
