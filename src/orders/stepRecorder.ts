import type { ApprovalRequest, Refusal, TransitionResult } from "../approvals/index.js";
import type { Logger } from "../log.js";
import { keptBefore, type StepEntry } from "./keptSteps.js";
import type { OrderLifecycle } from "./lifecycle.js";
import {
  type DecisionInput,
  refusedByStore,
  type StepResult,
  storageRefusal,
} from "./requestResults.js";

/**
 * How the lifecycle API (requests.ts) records a person's step: the store step runs, the answer
 * comes as soon as it is stored, and the follow-up (thread, messages, placement) starts right
 * after the caller's turn. A refused step this person kept before runs its follow-up now.
 */

/** One store step: moved, refused by the store, or *Place again* before a look-up. */
export type StoreStep = () => Promise<
  TransitionResult | Refusal | { ok: false; reason: "look-up-first"; record: ApprovalRequest }
>;

export interface StepRecorderOptions {
  lifecycle: Pick<OrderLifecycle, "followUp" | "refreshMessage">;
  logger: Pick<Logger, "info" | "error">;
}

export class StepRecorder {
  constructor(private readonly options: StepRecorderOptions) {}

  /**
   * Runs a store step; once stored it answers at once with its follow-up under way (not
   * awaited), so the caller answers on the stored step (a Slack click's ack) before anything
   * follows it. Refused, it may have been kept before (`followUpKept`).
   */
  async record(
    input: Pick<DecisionInput, "id" | "by">,
    leadsTo: StepEntry,
    step: StoreStep,
  ): Promise<StepResult> {
    let moved: Awaited<ReturnType<StoreStep>>;
    try {
      moved = await step();
    } catch (error) {
      return storageRefusal(error);
    }
    if (!moved.ok) {
      if (moved.reason === "look-up-first") {
        return { ok: false, reason: "look_up_first", record: moved.record };
      }
      await this.followUpKept("record" in moved ? moved.record : undefined, input.by, leadsTo);
      // A retry refused because another request took the name since: the messages still offer
      // Retry (nothing changed on this request); shown again, they offer it no more.
      if (moved.reason === "name-taken") void this.refreshAfterAnswer(moved.record.id);
      return refusedByStore(moved);
    }
    return { ok: true, record: moved.record, followUp: this.followUp(moved.record) };
  }

  /**
   * A refused step kept before by this person (keptSteps.ts): its follow-up runs now (keyed: a
   * plain double click says nothing twice); the answer stays the refusal, which is true.
   */
  async followUpKept(
    record: ApprovalRequest | undefined,
    by: string,
    leadsTo: StepEntry,
  ): Promise<void> {
    const kept = keptBefore(record, by, leadsTo);
    if (!kept) return;
    this.options.logger.info(
      { audit: "approval", approvalId: kept.id, by, status: kept.status },
      "a step kept before was clicked again: its follow-up runs now",
    );
    await this.followUp(kept);
  }

  /** Re-renders a request's messages after the caller's answer; never rejects (logged). */
  private async refreshAfterAnswer(id: string): Promise<void> {
    await new Promise<void>((resolve) => process.nextTick(resolve));
    await this.options.lifecycle
      .refreshMessage(id)
      .catch((error: unknown) =>
        this.options.logger.error({ err: error, approvalId: id }, "refresh after a refusal failed"),
      );
  }

  /**
   * Starts once the caller has acted on the answer (stored → acked → followed up): a tick
   * queued now runs after every promise continuation the answer wakes (a listener's, up to its
   * ack, which Bolt writes synchronously) and before any I/O. Recorded all the same when
   * telling fails: the placement reconciler queues an approved request whose job is missing,
   * and the placement's own messages say the step first. So it never rejects (a failure is
   * logged and answers false): nobody has to wait for it.
   */
  private async followUp(record: ApprovalRequest): Promise<boolean> {
    await new Promise<void>((resolve) => process.nextTick(resolve));
    try {
      await this.options.lifecycle.followUp(record);
      return true;
    } catch (error) {
      this.options.logger.error({ err: error, approvalId: record.id }, "follow-up failed");
      return false;
    }
  }
}
