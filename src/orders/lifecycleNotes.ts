import type { Redis } from "ioredis";
import type { LookUpOutcome } from "../../views/approvals/approvals.js";
import type { ApprovalRequest } from "../approvals/index.js";
import { storageCall } from "../domain/errors.js";
import type { EscalationCause } from "./placement/contract.js";

/**
 * The lifecycle's own small facts in Redis, beside the approval record: what the last look-up
 * of a request's attempt found (it decides whether *Place again* is offered) and which
 * requesters were already told why their request cards go to their DM. Every Redis call goes
 * through `run`: StorageUnavailableError when Redis is out of reach (src/domain/errors.ts).
 *
 * Keys (prefix e.g. `connect:orders`):
 *   <prefix>:lookup:<approvalId>               hash kind, attempt, count; 100 days
 *   <prefix>:card-notice:<userId>:<where>      string, 30 days
 */

/** Look-up outcomes are kept as long as approval records (at least 90 days). */
const LOOK_UP_TTL_SECONDS = 100 * 24 * 3600;
/** How long a requester, once told why their cards go to their DM, is not told again. */
const CARD_NOTICE_SECONDS = 30 * 24 * 3600;

export interface LastLookUp {
  kind: LookUpOutcome;
  /** How many look-ups were recorded (a new one changes the approval message's version). */
  count: number;
}

export class LifecycleNotes {
  private readonly run: <T>(call: (redis: Redis) => Promise<T>) => Promise<T>;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.run = (call) => storageCall(() => call(redis));
  }

  /** Kept per attempt: a look-up of an earlier attempt says nothing about this one. */
  async recordLookUp(request: ApprovalRequest, cause: EscalationCause): Promise<void> {
    const key = this.lookUpKey(request.id);
    await this.run((redis) =>
      redis
        .multi()
        .hset(key, "kind", cause.kind, "attempt", String(request.attempts))
        .hincrby(key, "count", 1)
        .expire(key, LOOK_UP_TTL_SECONDS)
        .exec(),
    );
  }

  async lastLookUp(record: ApprovalRequest): Promise<LastLookUp | undefined> {
    const fields = await this.run((redis) => redis.hgetall(this.lookUpKey(record.id)));
    const kind = fields.kind;
    if (kind !== "not-found" && kind !== "lookup-failed" && kind !== "not-lookable")
      return undefined;
    if (fields.attempt !== String(record.attempts)) return undefined;
    return { kind, count: Number(fields.count ?? 0) };
  }

  /**
   * Whether the requester should be told why their card is in their DM rather than in `where`:
   * once per person and place for 30 days, not on every request (they know after the first).
   */
  async firstCardNotice(userId: string, where: string): Promise<boolean> {
    const key = `${this.prefix}:card-notice:${userId}:${where}`;
    return (
      (await this.run((redis) => redis.set(key, "1", "EX", CARD_NOTICE_SECONDS, "NX"))) === "OK"
    );
  }

  private lookUpKey(id: string): string {
    return `${this.prefix}:lookup:${id}`;
  }
}
