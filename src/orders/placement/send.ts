import type { ApprovalRequest } from "../../approvals/types.js";
import { errorText } from "../../jobs/errors.js";
import { readProviderFailure } from "../../jobs/quotes/providerFailure.js";
import type { Logger } from "../../log.js";
import type {
  JournalForPlacement,
  PlacementCallbacks,
  PlacementOutcome,
  StoreForPlacement,
} from "./contract.js";
import type { PlacementAnswer } from "./journal.js";
import type { PlacementOutcomes } from "./outcomes.js";

/**
 * Sending a claimed attempt, the one step that can order something: the journal's
 * `claimed → sending` compare-and-set decides who may send (exactly one worker per attempt),
 * the provider's answer is logged and journalled before anything else, and an outcome the
 * provider did not make definite is marked unknown and looked up — never resent. What happens
 * with the answer then is outcomes.ts'.
 */

/** How long a claim's owner retries marking it `sending` before giving up (and not sending). */
const SENDING_WRITE_TIMEOUT_MS = 60_000;

export interface PlacementSenderParts {
  journal: JournalForPlacement;
  logger: Logger;
  /** The journal's owner name of this process. */
  workerId: string;
  outcomes: PlacementOutcomes;
  /** The store and callbacks; throws where this process has none. */
  deps: () => { store: StoreForPlacement; callbacks: PlacementCallbacks };
}

export class PlacementSender {
  constructor(private readonly parts: PlacementSenderParts) {}

  /** This process won the claim of attempt `intended` (or a later one). */
  async placeClaimed(request: ApprovalRequest, intended: number): Promise<PlacementOutcome> {
    const attempt = request.attempts;
    // Claimed meanwhile under a later number (a failure and a retry raced this worker's read):
    // its entry starts now; nobody else may send a claim whose journal is missing.
    if (attempt !== intended) await this.parts.journal.intend(request.id, attempt);
    if (!(await this.parts.journal.own(request.id, attempt, this.parts.workerId, ""))) {
      this.parts.logger.warn(
        { approvalId: request.id, attempt, workerId: this.parts.workerId },
        "placement: the claim was taken over before this worker named itself; not sending",
      );
      return "handed-over";
    }
    this.parts.logger.info(
      { approvalId: request.id, attempt, workerId: this.parts.workerId },
      "placement: claimed; placing the order",
    );
    return this.send(request);
  }

  /** Sends the claimed request, records the answer, settles it. The journal says it is ours. */
  async send(request: ApprovalRequest): Promise<PlacementOutcome> {
    const { store, callbacks } = this.parts.deps();
    const approvalId = request.id;
    const attempt = request.attempts;
    const log = { approvalId, attempt, workerId: this.parts.workerId };
    const mayLeave = await this.parts.outcomes.persistently(
      "mark the order as being sent",
      () => this.parts.journal.startSending(approvalId, attempt, this.parts.workerId),
      log,
      SENDING_WRITE_TIMEOUT_MS,
    );
    if (!mayLeave) {
      this.parts.logger.warn(log, "placement: another worker took the claim over; not sending");
      return "handed-over";
    }

    let answer: PlacementAnswer;
    try {
      const result = await callbacks.place(request);
      answer = { outcome: "placed", result };
      // First, before any write: the answer is never only in memory.
      this.parts.logger.info(
        { ...log, orderId: result.providerId, providerStatus: result.status },
        "placement: the provider accepted the order",
      );
    } catch (error) {
      const failure = readProviderFailure(error);
      if (failure.outcomeUnknown !== false) {
        this.parts.logger.error(
          { ...log, httpStatus: failure.httpStatus, err: failure.detail },
          "placement: outcome unknown; looking it up, never resending",
        );
        // People read the note on the card and the approval message: the client's words for them
        // ("The provider did not answer within 15 s; …"); the operation and timings stay in the
        // log line above.
        const unknown = await store.markUnknown(approvalId, failure.userMessage.slice(0, 500), {
          attempt,
        });
        if (!unknown.ok) {
          this.parts.logger.error(
            { ...log, reason: unknown.reason },
            "placement: could not mark unknown",
          );
          return "not-claimed";
        }
        return this.parts.outcomes.lookUp(unknown.record, `escalated:${attempt}`);
      }
      answer = {
        outcome: "refused",
        error: {
          message: failure.userMessage,
          ...(failure.httpStatus !== undefined ? { httpStatus: failure.httpStatus } : {}),
        },
      };
      this.parts.logger.warn(
        { ...log, httpStatus: failure.httpStatus, err: failure.detail },
        "placement: the provider refused the order",
      );
    }

    const orderId = answer.outcome === "placed" ? answer.result.providerId : undefined;
    const recorded = await this.parts.outcomes
      .persistently(
        "record the provider's answer",
        () => this.parts.journal.recordAnswer(approvalId, attempt, answer),
        { ...log, orderId },
      )
      .catch((error: unknown) => {
        this.parts.logger.error(
          { ...log, orderId, answer: answer.outcome, err: errorText(error).slice(0, 300) },
          "placement: gave up recording the provider's answer; it is only in this log",
        );
        throw error;
      });
    if (recorded === "newer-attempt") {
      this.parts.logger.error(
        { ...log, orderId, answer: answer.outcome },
        "placement: the provider answered an attempt the request has moved past (placed again?)",
      );
    }
    return this.parts.outcomes.settle(request, answer, false);
  }
}
