import type { Redis } from "ioredis";
import {
  endedStepError,
  placedStepOutputs,
  type StepNames,
  stepGoneText,
} from "../../views/steps/steps.js";
import type { ApprovalRequest, ApprovalStatus } from "../approvals/index.js";
import { storageCall } from "../domain/errors.js";
import { isSlackUserId } from "../domain/slackIds.js";
import type { Notifier } from "../jobs/notifier/notifier.js";
import type { Logger } from "../log.js";
import { scopeOf } from "./requestMessages.js";

/**
 * Ending the Workflow Builder step that asked for a request (issue 30), exactly once, when the
 * request ends: placed → `functions.completeSuccess` with the order's id; rejected, withdrawn,
 * failed → `functions.completeError` with the reason. The step stays open while approvers
 * decide, as Slack's own samples keep a step open for a manager's button.
 *
 * - The step-scoped token Slack gave the step (only it can end the step) is kept beside the
 *   request, keyed by the step's execution id, for as long as a request can wait; the record
 *   carries the execution id only (`step`, src/approvals/types.ts).
 * - The end goes through the notifier's ordered outbox like every other message: queued in the
 *   request's thread's channel behind what the thread says ("Ordered …"), with one key per
 *   request (`step:end`), so however often a request's end is seen — every change of a request
 *   is (`OrderLifecycle.onChange`), by any replica, after a restart — the step is ended once.
 * - A change seen while Redis is out of reach is not lost: open steps are listed
 *   (`<prefix>:open`, execution id → request id) and `reconcile()` (at start, every few
 *   minutes and whenever Redis is reachable again) ends those whose request has ended.
 *
 * Keys (prefix e.g. `connect:{orders}:steps`, hash-tagged with the lifecycle's keys for a Redis Cluster):
 *   <prefix>:token:<executionId>   string, the step's token; 100 days
 *   <prefix>:open                  hash executionId → approvalId, until the end is queued
 */

/** As long as approval records are kept: a request may wait for approvers that long. */
const TOKEN_TTL_SECONDS = 100 * 24 * 3600;

/** The request's end, for the step: a request in any other state is still going. */
const ENDED: ReadonlySet<ApprovalStatus> = new Set(["placed", "rejected", "cancelled", "failed"]);

export interface StepCompletionsOptions {
  redis: Redis;
  prefix: string;
  /** The jobs' notifier: src/bot.ts builds this after the jobs, in order. */
  notifier: Pick<Notifier, "completeStep">;
  get: (id: string) => Promise<ApprovalRequest | null | undefined>;
  /**
   * The names a text refers to (`<@U…>`, `<!subteam^S…>`), looked up for the plain-text error:
   * "Rejected by @Alex" (src/stepWiring.ts stepNamesOf; ids where a look-up fails).
   */
  names: (text: string) => Promise<StepNames>;
  logger: Logger;
}

export class StepCompletions {
  private readonly run: <T>(call: (redis: Redis) => Promise<T>) => Promise<T>;

  constructor(private readonly options: StepCompletionsOptions) {
    const { redis } = options;
    this.run = (call) => storageCall(() => call(redis));
  }

  /** Keeps the step's token before its request exists (the request may end at once). */
  async keepToken(executionId: string, token: string): Promise<void> {
    await this.run((redis) =>
      redis.set(this.tokenKey(executionId), token, "EX", TOKEN_TTL_SECONDS),
    );
  }

  /** The request now exists: listed for the reconciler until its end is queued. */
  async opened(executionId: string, approvalId: string): Promise<void> {
    await this.run((redis) => redis.hset(this.openKey(), executionId, approvalId));
  }

  /** A step whose request was never made (refused at submission): its token goes. */
  async forget(executionId: string): Promise<void> {
    await this.run((redis) => redis.del(this.tokenKey(executionId)));
  }

  /** `OrderLifecycle.onChange`: a request that ended ends its step. Never throws. */
  async onChange(record: ApprovalRequest): Promise<void> {
    if (!record.step || !ENDED.has(record.status)) return;
    try {
      await this.end(record);
    } catch (error) {
      this.options.logger.warn(
        { err: error, approvalId: record.id },
        "could not queue the end of the request's workflow step; the reconciler will",
      );
    }
  }

  /** Ends the steps of requests that ended while their change was missed. Returns how many. */
  async reconcile(): Promise<number> {
    const open = await this.run((redis) => redis.hgetall(this.openKey()));
    let ended = 0;
    for (const approvalId of Object.values(open)) {
      const record = await this.options.get(approvalId);
      if (record?.step && ENDED.has(record.status) && (await this.end(record))) ended += 1;
    }
    return ended;
  }

  /** Queues the step's end once (by key); true when this call queued it. */
  private async end(record: ApprovalRequest): Promise<boolean> {
    const step = record.step;
    if (!step) return false;
    const token = await this.run((redis) => redis.get(this.tokenKey(step.executionId)));
    if (!token) {
      // Ended already (the token goes once the end is queued), or kept past its time.
      await this.closeOpen(step.executionId);
      return false;
    }
    const where = threadOf(record);
    const ending =
      record.status === "placed"
        ? { outputs: placedStepOutputs(record) }
        : { error: endedStepError(record, await this.namesFor(record)) };
    const queued = await this.options.notifier.completeStep({
      scope: scopeOf(record),
      key: "step:end",
      channel: where.channel,
      executionId: step.executionId,
      token,
      ...ending,
      gone: { ...where, text: stepGoneText(record) },
    });
    this.options.logger.info(
      {
        audit: "step",
        approvalId: record.id,
        executionId: step.executionId,
        status: record.status,
        queued: queued.queued,
      },
      "workflow step end queued",
    );
    await this.run((redis) => redis.del(this.tokenKey(step.executionId)));
    await this.closeOpen(step.executionId);
    return queued.queued;
  }

  private async closeOpen(executionId: string): Promise<void> {
    await this.run((redis) => redis.hdel(this.openKey(), executionId));
  }

  /** The names an error may show (the decider, the last actor, whom a reason refers to). */
  private namesFor(record: ApprovalRequest): Promise<StepNames> {
    const people = [record.decision?.by, record.history.at(-1)?.actor].filter(isSlackUserId);
    const said = [record.decision?.reason, record.history.at(-1)?.note, record.error?.message];
    return this.options.names(
      [...people.map((id) => `<@${id}>`), ...said.filter((t) => typeof t === "string")].join(" "),
    );
  }

  private tokenKey(executionId: string): string {
    return `${this.options.prefix}:token:${executionId}`;
  }

  private openKey(): string {
    return `${this.options.prefix}:open`;
  }
}

/**
 * Where the step's end is queued, and where "no longer waits" is said: the request card's thread
 * (where the workflow's people look: its channel, or the requester's DM), else the approvals
 * thread, else the requester's DM.
 */
function threadOf(record: ApprovalRequest): { channel: string; threadTs?: string } {
  const { cardChannel, cardTs, approvalChannel, approvalTs } = record.slack;
  if (cardChannel && cardTs) return { channel: cardChannel, threadTs: cardTs };
  if (approvalChannel && approvalTs) return { channel: approvalChannel, threadTs: approvalTs };
  return { channel: record.requester.userId };
}
