import {
  type ApprovalPolicy,
  type ApprovalRequest,
  type ApprovalRequirement,
  type ApprovalStore,
  defaultPolicy,
  type MoneySight,
  NameReservedError,
} from "../approvals/index.js";
import type { TrackTargetKind } from "../domain/tracking/statuses.js";
import { targetKindOf } from "../domain/tracking/trackedOrder.js";
import { WITHDRAWN_NOTE } from "../domain/withdrawal.js";
import type { Logger } from "../log.js";
import { type ApproverWork, approvalsList } from "./approverWork.js";
import { checkDecision } from "./deciderChecks.js";
import {
  approvalsUnavailable,
  countsForGroup,
  type DecisionSettings,
  isAnyApprover,
  mayDecideNow,
  mayRequestOrders,
  moneySightUnder,
  requirementAtSubmission,
} from "./deciders.js";
import {
  APPROVED,
  MARKED_FAILED,
  PLACED_AGAIN,
  REJECTED,
  RETRIED,
  type StepEntry,
  WITHDRAWN,
} from "./keptSteps.js";
import type { OrderLifecycle } from "./lifecycle.js";
import type { ApprovalMessageAt, CardAt } from "./requestMessages.js";
import {
  type Actor,
  type CheckResult,
  type DecisionInput,
  type LookedUp,
  type LookUpResult,
  REQUEST_ID_PATTERN,
  type Refused,
  refusedByStore,
  type StepResult,
  type SubmitInput,
  type SubmitResult,
  storageRefusal,
} from "./requestResults.js";
import { keepSlackRefs } from "./slackRefs.js";
import { StepRecorder, type StoreStep } from "./stepRecorder.js";
import type { Tracker } from "./tracking/tracker.js";

/**
 * The order lifecycle as one use-case API: every front door (a slash command, a button, App
 * Home, a Workflow Builder step, later an HTTP API) translates what it got into ONE call here
 * and the typed result into its own answer. Who may ask and who may decide (the policy rule,
 * APPROVERS, self-approval), the name reservation and every approvals-store step live behind
 * it; refusals are values (`{ ok: false, reason }`, requestResults.ts), never thrown — a
 * Redis outage too (`storage_unavailable`), so a front door decides what an outage means to it
 * (an approval click is left un-acked). See README.md ("The lifecycle API").
 */

/** The store steps behind the API. */
export type RequestStore = Pick<ApprovalStore, "get" | "create" | "approve" | "decide"> &
  Pick<ApprovalStore, "cancel" | "retry" | "keepCard" | "keepApprovalMessage"> &
  Pick<ApprovalStore, "list" | "listPending">;

/** What follows a recorded step (thread, messages, placement): src/orders/lifecycle.ts. */
export type RequestFollowUps = Pick<
  OrderLifecycle,
  | "followUp"
  | "lookUpAgain"
  | "placeAgain"
  | "markFailed"
  | "refreshMessage"
  | "readMany"
  | "approvalMessageSuperseded"
  | "cardSuperseded"
  | "strayApprovalMessage"
>;

export interface OrderRequestsOptions {
  store: RequestStore;
  lifecycle: RequestFollowUps;
  settings: DecisionSettings;
  /** The ISO 4217 code recorded with a request's amounts (`PRICE_CURRENCY`). */
  currency: string;
  /** Requests made against the sandbox say so everywhere. */
  sandbox: boolean;
  /** Stopping the tracking of an order (`/connect track stop`). */
  tracker?: Pick<Tracker, "stop">;
  logger: Pick<Logger, "info" | "warn" | "error">;
}

export class OrderRequests {
  /** Runs each person's step and starts what follows it (stepRecorder.ts). */
  private readonly steps: StepRecorder;

  constructor(private readonly options: OrderRequestsOptions) {
    this.steps = new StepRecorder(options);
  }

  /** The rules decisions are made by: the policy file's, or one approval from APPROVERS. */
  policy(): ApprovalPolicy {
    const { policy, approvers } = this.options.settings;
    return policy ?? defaultPolicy(approvers);
  }

  // ── asking ─────────────────────────────────────────────────────────────────────────────

  /** Whether `by` may ask for an order now (asked before a form opens, and again on submit). */
  async mayRequest(
    actor: Actor,
  ): Promise<
    { ok: true } | Extract<Refused, { reason: "not_a_requester" | "approvals_not_set_up" }>
  > {
    const unavailable = approvalsUnavailable(this.options.settings);
    if (unavailable) return { ok: false, reason: "approvals_not_set_up", message: unavailable };
    const allowed = await mayRequestOrders(this.options.settings, actor.by, actor.groups);
    return allowed.allowed
      ? { ok: true }
      : {
          ok: false,
          reason: "not_a_requester",
          message: allowed.message,
          ...(allowed.detail ? { detail: allowed.detail } : {}),
        };
  }

  /**
   * Stores a checked order as a pending request: who may request, then the record with its
   * policy requirement, currency and sandbox flag, its name reserved in the same Redis step
   * (`name_taken` when another live request holds it: of any number of concurrent submissions
   * of one name exactly one is created). Posting it for approval is the front door's next step
   * (`approvalPosted`), so a form can still show a taken name next to its name field.
   */
  async submit(input: SubmitInput): Promise<SubmitResult> {
    const { submission } = input;
    if (input.origin !== undefined && !/^[\x21-\x7e]{1,200}$/.test(input.origin)) {
      return {
        ok: false,
        reason: "invalid_origin",
        message: "origin must be 1-200 printable ASCII characters",
      };
    }
    const allowed = await this.mayRequest({
      by: submission.requester.userId,
      groups: input.groups,
    });
    if (!allowed.ok) return allowed;
    const { settings, currency, sandbox } = this.options;
    try {
      const requirement = requirementAtSubmission(submission, settings);
      // The currency is recorded with the amounts, so the spend ledger never relabels them.
      const price = submission.price && { ...submission.price, currency };
      const record = await this.options.store.create({
        ...submission,
        ...(price ? { price } : {}),
        sandbox,
        ...(requirement ? { requirement } : {}),
        ...(input.origin !== undefined ? { slack: { origin: input.origin } } : {}),
      });
      return { ok: true, record };
    } catch (error) {
      if (error instanceof NameReservedError) {
        this.options.logger.info(
          { audit: "approval", requester: submission.requester.userId, heldBy: error.heldBy },
          "approval refused: name taken",
        );
        return {
          ok: false,
          reason: "name_taken",
          name: error.name,
          heldBy: error.heldBy,
          message: `A request named "${error.name}" is already waiting or being ordered; choose another name`,
        };
      }
      return storageRefusal(error);
    }
  }

  /**
   * The approval message of a stored request was posted at `refs` (its channel and ts): kept
   * through a Redis outage (its buttons are honoured only there) unless another post of it was
   * kept first (src/orders/approvalMessages.ts), which this one then points at, without buttons.
   */
  async approvalPosted(record: ApprovalRequest, refs: ApprovalMessageAt): Promise<void> {
    const { store, logger } = this.options;
    const kept = await keepSlackRefs(logger, record.id, refs, "the approval message", () =>
      store.keepApprovalMessage(record.id, refs),
    );
    if (kept && kept.slack.approvalTs !== refs.approvalTs) {
      await this.options.lifecycle.approvalMessageSuperseded(record, refs);
    }
  }

  /**
   * The approval message could not be posted, so nobody could ever decide the request: it is
   * cancelled (its name released), or the requester's "try again" would be refused as taken.
   */
  async approvalNotPosted(record: ApprovalRequest): Promise<void> {
    await this.options.store
      .cancel(record.id, record.requester.userId)
      .catch((error: unknown) =>
        this.options.logger.error(
          { err: error, approvalId: record.id },
          "could not cancel a request whose approval message failed",
        ),
      );
  }

  /**
   * The request card was posted at `refs`: kept unless another was kept first (then this one
   * loses its Withdraw: requestCards.ts); a request that moved on meanwhile catches up.
   */
  async cardPosted(record: ApprovalRequest, refs: CardAt): Promise<void> {
    const kept = await keepSlackRefs(this.options.logger, record.id, refs, "the request card", () =>
      this.options.store.keepCard(record.id, refs),
    );
    if (kept && kept.slack.cardTs !== refs.cardTs) {
      await this.options.lifecycle.cardSuperseded(record, refs);
    } else if (kept && kept.history.length !== record.history.length) {
      await this.options.lifecycle.refreshMessage(record.id);
    }
  }

  // ── deciding (approvers) ────────────────────────────────────────────────────────────────

  /**
   * Approve: the request is read once, who may decide is computed once (its requirement), the
   * click's place checked, and the approval counted in one atomic step; the one that completes
   * the requirement approves (and the placement is queued by the follow-up).
   */
  approve(input: DecisionInput): Promise<StepResult> {
    return this.decision(input, APPROVED, async (record, requirement) =>
      this.options.store.approve(record.id, {
        by: input.by,
        inGroup: await countsForGroup(requirement, input.by, input.groups),
        ...(record.requirement ? {} : { fallback: requirement }),
      }),
    );
  }

  /** Reject, with the reason the requester is told. */
  reject(input: DecisionInput & { reason: string }): Promise<StepResult> {
    return this.decision(input, REJECTED, (record) =>
      this.options.store.decide(record.id, {
        by: input.by,
        action: "reject",
        reason: input.reason,
      }),
    );
  }

  /** failed → approved: the provider refused before; the cause was fixed. */
  retry(input: DecisionInput): Promise<StepResult> {
    return this.decision(input, RETRIED, (record) => this.options.store.retry(record.id, input.by));
  }

  /** unknown → approved, only after a look-up found nothing (`look_up_first` before that). */
  placeAgain(input: DecisionInput): Promise<StepResult> {
    return this.decision(input, PLACED_AGAIN, (record) =>
      this.options.lifecycle.placeAgain(record.id, input.by),
    );
  }

  /** unknown → failed by a person: nothing more is done, the name is free again. */
  markFailed(input: DecisionInput): Promise<StepResult> {
    return this.decision(input, MARKED_FAILED, (record) =>
      this.options.lifecycle.markFailed(record.id, input.by),
    );
  }

  /**
   * The approver checks alone (who, where), nothing stored: the reject button opens its
   * reason modal after these; `not_pending` when it is no longer waiting.
   */
  async checkDecider(input: DecisionInput): Promise<CheckResult> {
    const checked = await checkDecision(this.options, input);
    if (!checked.ok) return checked;
    if (checked.record.status !== "pending") {
      // Their reject kept before (its confirmation lost), clicked again: followed up now.
      await this.steps.followUpKept(checked.record, input.by, REJECTED);
      return refusedByStore({
        ok: false,
        reason: "not-pending",
        id: checked.record.id,
        record: checked.record,
      });
    }
    return { ok: true, record: checked.record };
  }

  /**
   * *Look up again* on a request whose placement's outcome is unknown: the approver checks
   * answer first (a click is acked on them: a look-up stores nothing), then the caller's
   * `lookUp()` asks the provider, so nothing reaches it before the click was answered.
   */
  async lookUpAgain(input: DecisionInput): Promise<LookUpResult> {
    const checked = await checkDecision(this.options, input);
    if (!checked.ok) return checked;
    return { ok: true, record: checked.record, lookUp: () => this.lookUpNow(checked.record) };
  }

  private async lookUpNow(record: ApprovalRequest): Promise<LookedUp> {
    try {
      const outcome = await this.options.lifecycle.lookUpAgain(record.id);
      if (outcome !== "not-unknown") return { ok: true, outcome, record };
      const now = await this.options.store.get(record.id);
      if (!now) return { ok: false, reason: "not_found", id: record.id };
      return refusedByStore({ ok: false, reason: "not-unknown", id: now.id, record: now });
    } catch (error) {
      return storageRefusal(error);
    }
  }

  /**
   * Whether `by` may take the approvers' next step on this request now (App Home's *Waiting on
   * me*, `/connect approvals`): its requirement's approvers, and, while it waits for a decision,
   * not someone whose approval is already counted (deciders.ts `mayDecideNow`).
   */
  mayDecide(record: ApprovalRequest, actor: Actor): Promise<boolean> {
    return mayDecideNow(record, this.options.settings, actor.by, actor.groups);
  }

  /**
   * `/connect approvals [all]`: the approvers' work `by` may act on, or the last 90 days, as the
   * read model shows them (approverWork.ts `approvalsList`); their own only unless `seesAll`.
   */
  approvalsList(
    input: Actor & { scope: "pending" | "all"; seesAll: boolean },
  ): Promise<ApproverWork[]> {
    return approvalsList(
      { store: this.options.store, read: (records) => this.options.lifecycle.readMany(records) },
      { ...input, mayAct: (record) => this.mayDecide(record, input) },
    );
  }

  /** Who may see the money: everyone's requests and the team's sums, or `by`'s own only. */
  moneySight(actor: Actor): Promise<MoneySight> {
    return moneySightUnder(this.options.settings, actor.by, actor.groups);
  }

  // ── the requester ───────────────────────────────────────────────────────────────────────

  /** pending → cancelled by its requester (withdrawn): the name is released, nothing placed. */
  async withdraw(input: Omit<DecisionInput, "at" | "groups">): Promise<StepResult> {
    if (!REQUEST_ID_PATTERN.test(input.id)) return { ok: false, reason: "not_a_request_id" };
    return this.steps.record(input, WITHDRAWN, () =>
      this.options.store.cancel(input.id, input.by, WITHDRAWN_NOTE),
    );
  }

  // ── tracking ────────────────────────────────────────────────────────────────────────────

  /**
   * Stops following an order (`/connect track stop`): by whoever started tracking it, or an
   * approver.
   */
  async stopTracking(
    input: Actor & { orderId: string },
  ): Promise<
    | { ok: true; kind: TrackTargetKind }
    | { ok: false; reason: "not_tracked" | "not_allowed" }
    | Refused
  > {
    const tracker = this.options.tracker;
    if (!tracker) return { ok: false, reason: "not_tracked" };
    try {
      const stopped = await tracker.stop(input.orderId, input.by, {
        isApprover: (userId) => isAnyApprover(this.options.settings, userId, input.groups),
      });
      if (stopped.ok) return { ok: true, kind: targetKindOf(stopped.tracking) };
      return {
        ok: false,
        reason: stopped.reason === "not-tracked" ? "not_tracked" : "not_allowed",
      };
    } catch (error) {
      return storageRefusal(error);
    }
  }

  // ── the steps' common path ──────────────────────────────────────────────────────────────

  /** The approver checks (deciderChecks.ts), then `step`; stored, the follow-up starts. */
  private async decision(
    input: DecisionInput,
    leadsTo: StepEntry,
    step: (record: ApprovalRequest, requirement: ApprovalRequirement) => ReturnType<StoreStep>,
  ): Promise<StepResult> {
    const checked = await checkDecision(this.options, input);
    if (!checked.ok) return checked;
    return this.steps.record(input, leadsTo, () => step(checked.record, checked.requirement));
  }
}
