// The one door a request step goes through to become a request: narrow on purpose, so that when
// the order lifecycle's own submit exists (src/orders), only `kitOrderSubmitter` changes.
import type { WebClient } from "@slack/web-api";
import type { OrderSubmission } from "../../../orders/index.js";
import type { StepCompletions } from "../../../orders/stepCompletions.js";
import { postForApproval, storeForApproval } from "../../kit/index.js";
import type { StepDeps } from "./index.js";

/** The run of a Workflow Builder step: Slack's ids and the token only it can be ended with. */
export interface StepRun {
  callbackId: string;
  executionId: string;
  token: string;
}

export type StepSubmitResult = { ok: true; requestId: string } | { ok: false; error: string };

/** Turns a checked order into a request waiting for approval, carrying the step's run. */
export interface OrderSubmitter {
  submit(submission: OrderSubmission, run: StepRun): Promise<StepSubmitResult>;
}

/**
 * Today's adapter: the kit's submission (who may request, the request stored with its name
 * reserved and the policy's requirement, the approval message, the request card) — exactly what
 * a form does — with the step's execution id on the record and its token kept for its end.
 */
export function kitOrderSubmitter(
  services: StepDeps,
  client: WebClient,
  completions: StepCompletions,
): OrderSubmitter {
  return {
    async submit(submission, run) {
      // Kept first: an approver may decide the moment the request is posted.
      await completions.keepToken(run.executionId, run.token);
      const stored = await storeForApproval({
        services,
        client,
        submission: {
          ...submission,
          step: { executionId: run.executionId, callbackId: run.callbackId },
        },
      }).catch(async (error: unknown) => {
        await completions.forget(run.executionId).catch(() => undefined);
        throw error;
      });
      if (!stored.ok) {
        await completions.forget(run.executionId);
        return { ok: false, error: stored.message };
      }
      await completions.opened(run.executionId, stored.approval.id);
      try {
        await postForApproval({ services, client, approval: stored.approval });
      } catch (error) {
        // postForApproval cancelled the request: nobody could have decided it.
        services.logger.error(
          { err: error, approvalId: stored.approval.id },
          "could not post a step's request for approval",
        );
        await completions.forget(run.executionId).catch(() => undefined);
        return {
          ok: false,
          error:
            "The request could not be posted for approval; nothing was ordered. Run the step again.",
        };
      }
      return { ok: true, requestId: stored.approval.id };
    },
  };
}
