import type { ApprovalRequest, ApprovalStore } from "../approvals/index.js";
import { offersApprovers, type RequestReadModel, STATUSES_WITH_NEXT_STEPS } from "./readModel.js";

/**
 * The requests on which an approver has a next step, where approvers look for work:
 * `/connect approvals` and App Home's *Waiting on me*. Not only those waiting for a decision:
 * a placement whose outcome is unknown (look it up again, place it again, mark it as failed)
 * and one the provider refused (retry) wait on an approver too, and nobody else learns of them.
 *
 * One rule says which: the read model's next steps (`readRequest(...).next`, readModel.ts) offer
 * a step `by: "approvers"`. Who of the approvers may take it is the caller's (the lifecycle
 * API's `mayDecide`, the same check the buttons run).
 *
 * Order: pending first, oldest first (the one waiting longest leads, as before); then the
 * placements that went wrong — unknown outcomes, then failed ones — each oldest first.
 *
 * Cost: the pending list is read whole, as it always was. Failed requests are kept for the
 * retention period (100 days) and accumulate, and a refused one offers Retry all that time:
 * of each status after a placement only the newest AFTER_PLACEMENT_READ are read, and those
 * the read model offers nothing (a request marked as failed) are left out.
 */

/** A request an approver has a next step on: the record (its Slack place) and its read model. */
export interface ApproverWork {
  record: ApprovalRequest;
  model: RequestReadModel;
}

/** What the list is read from. */
export interface ApproverWorkSources {
  store: Pick<ApprovalStore, "listPending" | "list">;
  /** The read model of records (`OrderLifecycle.readMany`). */
  read(records: readonly ApprovalRequest[]): Promise<RequestReadModel[]>;
}

/** The newest requests read per status after a placement (unknown, failed). */
export const AFTER_PLACEMENT_READ = 100;

/**
 * The approvers' work, in the order above. `include` (who may act on it: the caller's check)
 * is asked of each record first, so only the records it keeps are read into the read model.
 */
export async function approverWork(
  sources: ApproverWorkSources,
  include: (record: ApprovalRequest) => boolean | Promise<boolean> = () => true,
): Promise<ApproverWork[]> {
  const lists = await Promise.all(
    STATUSES_WITH_NEXT_STEPS.map(async (status) =>
      status === "pending"
        ? sources.store.listPending()
        : // Newest first from the store; listed oldest first, as the pending ones are.
          (await sources.store.list({ status, limit: AFTER_PLACEMENT_READ })).reverse(),
    ),
  );
  const kept = await Promise.all(
    lists.flat().map(async (record) => (await include(record)) && record),
  );
  const records = kept.filter((record): record is ApprovalRequest => record !== false);
  const models = await sources.read(records);
  const work: ApproverWork[] = [];
  records.forEach((record, i) => {
    const model = models[i];
    if (model && offersApprovers(model)) work.push({ record, model });
  });
  return work;
}

/** How many requests `/connect approvals` shows: one more tells it there are more. */
const LIST_READ = 41;
/** `/connect approvals all` reaches this far back. */
const AUDIT_TRAIL_MS = 90 * 24 * 3600_000;

/**
 * `/connect approvals [all]`, as the read model shows each request. `pending`: the approvers'
 * work above — the requests waiting for a decision that `by` may see, and the placements that
 * went wrong on which `by` may take the next step. `all`: the last 90 days, newest first (how
 * each placed order ended). Someone who may not see everyone's money (`seesAll` false) sees
 * their own requests only. At most LIST_READ.
 */
export async function approvalsList(
  sources: ApproverWorkSources,
  input: {
    scope: "pending" | "all";
    by: string;
    seesAll: boolean;
    /** Whether `by` may take the approvers' next step on a record (the lifecycle API's check). */
    mayAct: (record: ApprovalRequest) => Promise<boolean>;
  },
): Promise<ApproverWork[]> {
  const seen = (record: ApprovalRequest) => input.seesAll || record.requester.userId === input.by;
  if (input.scope === "pending") {
    const work = await approverWork(
      sources,
      async (record) =>
        seen(record) && (record.status === "pending" || (await input.mayAct(record))),
    );
    return work.slice(0, LIST_READ);
  }
  const records = (
    await sources.store.list({
      since: new Date(Date.now() - AUDIT_TRAIL_MS),
      // Someone who sees only their own reads more, to find LIST_READ of theirs.
      limit: input.seesAll ? LIST_READ : 1000,
    })
  )
    .filter(seen)
    .slice(0, LIST_READ);
  const models = await sources.read(records);
  return records.flatMap((record, i) => {
    const model = models[i];
    return model ? [{ record, model }] : [];
  });
}
