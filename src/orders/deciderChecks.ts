import type { ApprovalRequest, ApprovalRequirement, ApprovalStore } from "../approvals/index.js";
import { withDeadline } from "../domain/deadline.js";
import { DeadlineExceededError, isStorageUnavailable } from "../domain/errors.js";
import { type DecisionSettings, mayDecideUnder, requirementOf } from "./deciders.js";
import type { OrderLifecycle } from "./lifecycle.js";
import {
  type DecisionInput,
  isOwnApprovalMessage,
  type Refused,
  storageRefusal,
} from "./requestResults.js";

/**
 * The approver checks every decision of the lifecycle API (requests.ts) runs before its store
 * step, and `checkDecider` / *Look up again* run alone: nothing is stored by them.
 */

/** What the checks read and whom they tell of a click on a stray post. */
export interface DeciderCheckOptions {
  store: Pick<ApprovalStore, "get">;
  settings: DecisionSettings;
  lifecycle: Pick<OrderLifecycle, "strayApprovalMessage">;
}

/**
 * Passed: the request as read and who may decide it, computed once for the step that follows;
 * or refused (`not_found`, `not_an_approver`, `self_approval`, `not_its_message`, `too_slow`,
 * `storage_unavailable`).
 */
export type DeciderChecked =
  | { ok: true; record: ApprovalRequest; requirement: ApprovalRequirement }
  | Refused;

/** Why the checks took too long (the step was not run). */
class ChecksTooSlow extends Error {}

/**
 * Reads the request once and computes who may decide it once: found, an approver under its
 * requirement (not its requester unless allowed), clicked on its own approval message or in
 * the approver's own App Home — all within `checksWithinMs`.
 */
export async function checkDecision(
  options: DeciderCheckOptions,
  input: DecisionInput,
): Promise<DeciderChecked> {
  const run = async (): Promise<DeciderChecked> => {
    const record = await options.store.get(input.id).catch((error: unknown) => {
      // A storage outage is not "this request is gone".
      if (isStorageUnavailable(error)) throw error;
      return null;
    });
    if (!record) return { ok: false, reason: "not_found", id: input.id };
    const requirement = requirementOf(record, options.settings);
    const allowed = await mayDecideUnder(
      requirement,
      options.settings,
      input.by,
      record,
      input.groups,
    );
    if (!allowed.allowed) {
      return {
        ok: false,
        reason: allowed.reason === "self-approval" ? "self_approval" : "not_an_approver",
        message: allowed.message,
        ...(allowed.detail ? { detail: allowed.detail } : {}),
        record,
      };
    }
    if (!("home" in input.at) && !isOwnApprovalMessage(input.at, record)) {
      await options.lifecycle.strayApprovalMessage(record, input.at).catch(() => false);
      return { ok: false, reason: "not_its_message", record };
    }
    return { ok: true, record, requirement };
  };
  try {
    return input.checksWithinMs === undefined
      ? await run()
      : await withDeadline(input.checksWithinMs, run).catch((error: unknown) => {
          throw error instanceof DeadlineExceededError ? new ChecksTooSlow() : error;
        });
  } catch (error) {
    if (error instanceof ChecksTooSlow) return { ok: false, reason: "too_slow" };
    return storageRefusal(error);
  }
}
