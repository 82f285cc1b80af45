import { z } from "zod";
import { SLACK_USER_ID } from "../domain/slackIds.js";

/**
 * The approval request: the durable record of one order a person asked for, its decision and
 * the outcome of placing it with the provider. Schemas here validate both what callers hand to
 * the store and what is read back from Redis (records live for months; an old or corrupted
 * one must give a typed error, never a crash).
 */

export const APPROVAL_KINDS = ["port", "layer2", "iod", "edge"] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

/**
 * pending → approved | rejected | cancelled; approved → executing (claimed by a worker);
 * executing → placed | failed | unknown; unknown → placed | failed (reconciled, or marked failed
 * by a person); unknown → approved (placed again by a person); failed → approved (a deliberate
 * retry). See transitions in store.ts.
 */
export const APPROVAL_STATUSES = [
  "pending",
  "approved",
  "rejected",
  "cancelled",
  "executing",
  "placed",
  "failed",
  "unknown",
] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** `apr_` + 16 lowercase RFC 4648 base32 characters (80 random bits): short and URL-safe. */
export const APPROVAL_ID_PATTERN = /^apr_[a-z2-7]{16}$/;

const timestamp = z.iso.datetime({ offset: true });
/** Anyone (a Slack user id) or anything (a worker id, "reconciler") that changed a request. */
const actor = z.string().min(1).max(200);
const slackUserId = z.string().regex(SLACK_USER_ID, "must be a Slack user ID (U… or W…)");

export const approvalKindSchema = z.enum(APPROVAL_KINDS);
export const approvalStatusSchema = z.enum(APPROVAL_STATUSES);

/** One line of the order summary shown to approvers, in the order given. */
export const summaryLineSchema = z.object({
  label: z.string().min(1).max(200),
  value: z.string().max(3000),
});
export type SummaryLine = z.infer<typeof summaryLineSchema>;

/** The provider call to make once approved: an operationId, its path parameters and body. */
export const providerCallSchema = z.object({
  operation: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,99}$/, "must be an operationId"),
  pathParams: z.record(z.string(), z.string()),
  body: z.unknown(),
});
export type ProviderCall = z.infer<typeof providerCallSchema>;

export const priceSchema = z.object({
  total: z.number().finite().optional(),
  monthly: z.number().finite().optional(),
  /**
   * A charge made once, part of `total` and not of `monthly`: an Edge offer's non-recurring
   * price, a layer 2 price's port fee. Recorded so that what explains a total adds up (monthly ×
   * term months + this); absent when there is none and on records written before it existed.
   */
  oneOff: z.number().finite().optional(),
  text: z.string().max(1000),
  /**
   * The commitment's length in months, recorded at submission for the spend ledger. Absent on
   * records written before it existed and for kinds without a term (IO-D is pay as you go):
   * the ledger says "term unknown" then. New records hold at most MAX_TERM_MONTHS
   * (src/domain/catalog/terms.ts: monthsOfTerm); the schema takes up to 600, as records written
   * before that bound may hold, so they still read.
   */
  termMonths: z.number().int().min(1).max(600).optional(),
  /** A term given in days (IO-D: pay as you go, no price, but a term); the read model reads it. */
  termDays: z.number().int().min(1).max(36_600).optional(),
  /**
   * The currency the amounts are in (an ISO 4217 code). The provider returns none; the bot's
   * setting at submission time is recorded, so a later change of the setting does not relabel
   * old amounts. Absent on older records.
   */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
});
export type Price = z.infer<typeof priceSchema>;

export const requesterSchema = z.object({
  userId: slackUserId,
  channelId: z.string().max(100).optional(),
});
export type Requester = z.infer<typeof requesterSchema>;

/**
 * Where the request lives in Slack. Known keys are named; others may be added later by the
 * Slack layer without a schema change (each is stored as its own hash field, so a merge is a
 * plain HSET).
 */
export const SLACK_REF_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9]{0,39}$/;
export const slackRefsSchema = z
  .object({
    /** The approvals channel the request was posted to. */
    approvalChannel: z.string().max(200).optional(),
    /** Message ts in the approvals channel: the thread root for decisions and progress. */
    approvalTs: z.string().max(200).optional(),
    /** Where the requester asked (a DM or channel), to tell them about the outcome. */
    requesterChannel: z.string().max(200).optional(),
    requesterTs: z.string().max(200).optional(),
    /** The request card: where it was posted (the requesting channel or the requester's DM). */
    cardChannel: z.string().max(200).optional(),
    cardTs: z.string().max(200).optional(),
    /** The approval message's permalink (Slack's chat.getPermalink), for the card's button. */
    approvalLink: z.string().max(200).optional(),
  })
  .catchall(z.string().max(200));
export type SlackRefs = z.infer<typeof slackRefsSchema>;

export const decisionSchema = z.object({
  by: slackUserId,
  at: timestamp,
  action: z.enum(["approve", "reject"]),
  reason: z.string().max(3000).optional(),
});
export type Decision = z.infer<typeof decisionSchema>;

/** What the provider answered when the order was placed (or found by a reconciliation). */
export const placementResultSchema = z.object({
  providerId: z.string().max(200).optional(),
  status: z.string().max(200).optional(),
  /**
   * What `providerId` names. Absent on records written before it existed (an order id). A port
   * found by name after an unknown outcome is `port`: its id is a port id, never an order id.
   */
  resource: z.enum(["order", "port", "connection", "service"]).optional(),
  /** The provider's record, kept opaque (its shape is not always specified). */
  record: z.unknown(),
});
export type PlacementResult = z.infer<typeof placementResultSchema>;

export const placementErrorSchema = z.object({
  message: z.string().max(3000),
  httpStatus: z.number().int().optional(),
});
export type PlacementError = z.infer<typeof placementErrorSchema>;

/**
 * What a request needs before it is approved, fixed when it is created (the approval policy's
 * rule that applied, src/approvals/spendPolicy.ts). Absent on requests made without a policy
 * file: one approval from APPROVERS as configured at the time of the click.
 */
export const approvalRequirementSchema = z.object({
  /** The rule's name, shown on the request. */
  rule: z.string().max(200),
  /** Distinct approvers needed. */
  approvals: z.number().int().min(1).max(50),
  /** As the rule wrote it (group names and Slack ids), for messages. */
  from: z.array(z.string().max(200)).max(100),
  /** Slack user and user group ids who may approve (and reject). */
  approvers: z.array(z.string().max(200)).max(500),
  /** At least one of the approvals must come from these. */
  atLeastOneFrom: z
    .object({ name: z.string().max(200), ids: z.array(z.string().max(200)).max(500) })
    .optional(),
});
export type ApprovalRequirement = z.infer<typeof approvalRequirementSchema>;

/** One approver's approval of a request that needs more than one (kept in the record). */
export const partialApprovalSchema = z.object({
  by: slackUserId,
  at: timestamp,
  /** The approver counted for the requirement's `atLeastOneFrom` group. */
  inGroup: z.boolean().optional(),
});
export type PartialApproval = z.infer<typeof partialApprovalSchema>;

/**
 * The Workflow Builder step that asked for this request (issue 30): Slack's id of the step's run
 * (`function_execution_id`), which the request's end completes, and the step's callback id. The
 * step-scoped token that must end it is not kept here (records are read everywhere and kept for
 * months) but beside it, for as long as the step can wait (src/orders/stepCompletions.ts).
 */
export const stepOriginSchema = z.object({
  executionId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "must be a function execution id"),
  callbackId: z.string().regex(/^[a-z][a-z0-9_]{0,99}$/, "must be a function callback id"),
});
export type StepOrigin = z.infer<typeof stepOriginSchema>;

export const historyEntrySchema = z.object({
  at: timestamp,
  actor,
  from: approvalStatusSchema,
  to: approvalStatusSchema,
  note: z.string().max(3000).optional(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const approvalRequestSchema = z.object({
  id: z.string().regex(APPROVAL_ID_PATTERN),
  kind: approvalKindSchema,
  title: z.string().min(1).max(300),
  summary: z.array(summaryLineSchema).max(100),
  call: providerCallSchema,
  /** Identifies the order at the provider when a call's outcome is unknown (e.g. the port name). */
  reconcileKey: z.string().max(300).optional(),
  price: priceSchema.optional(),
  requester: requesterSchema,
  slack: slackRefsSchema,
  sandbox: z.boolean(),
  requirement: approvalRequirementSchema.optional(),
  /** Set when a Workflow Builder step asked for it; absent on every other request. */
  step: stepOriginSchema.optional(),
  /** Approvals so far, oldest first (absent until the first one of a multi-approver request). */
  approvals: z.array(partialApprovalSchema).optional(),
  status: approvalStatusSchema,
  decision: decisionSchema.optional(),
  attempts: z.number().int().min(0),
  /** The worker holding (or that last held) the placement claim. */
  claimedBy: actor.optional(),
  result: placementResultSchema.optional(),
  error: placementErrorSchema.optional(),
  history: z.array(historyEntrySchema),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;

export const createApprovalInputSchema = z.object({
  kind: approvalKindSchema,
  title: z
    .string()
    .min(1)
    .max(300)
    .refine((title) => !/[\r\n]/.test(title), { error: "must be one line" }),
  summary: z.array(summaryLineSchema).max(100),
  call: providerCallSchema,
  reconcileKey: z.string().min(1).max(300).optional(),
  price: priceSchema.optional(),
  requester: requesterSchema,
  slack: slackRefsSchema.optional(),
  sandbox: z.boolean(),
  requirement: approvalRequirementSchema.optional(),
  step: stepOriginSchema.optional(),
});
export type CreateApprovalInput = z.input<typeof createApprovalInputSchema>;

/** A record in Redis that cannot be read back (corrupted, or written by an incompatible version). */
export class ApprovalRecordError extends Error {
  constructor(
    readonly id: string,
    readonly problems: string[],
  ) {
    super(
      `Approval request ${id} is stored in a form this version cannot read: ${problems.join("; ")}`,
    );
    this.name = "ApprovalRecordError";
  }
}

/** A caller handed the store something it must not store (a programming error, not a user's). */
export class ApprovalInputError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid approval input: ${problems.join("; ")}`);
    this.name = "ApprovalInputError";
  }
}
