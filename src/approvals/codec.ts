import {
  ApprovalRecordError,
  type ApprovalRequest,
  type ApprovalStatus,
  approvalRequestSchema,
  type HistoryEntry,
  type SlackRefs,
} from "./types.js";

/**
 * How an approval request is laid out in its Redis hash. Fields that never change after
 * creation are one JSON document (`core`: rewritten once, without the call's secrets, when the
 * call can no longer be sent); fields the state machine changes are separate, so a script can
 * compare-and-set them without parsing JSON (see scripts.ts).
 */

/** Bump when the layout changes incompatibly; old records then read as ApprovalRecordError. */
export const RECORD_VERSION = "1";

export const FIELD = {
  version: "v",
  core: "core",
  status: "status",
  attempts: "attempts",
  claimedBy: "claimedBy",
  updatedAt: "updatedAt",
  decision: "decision",
  result: "result",
  error: "error",
  history: "history",
} as const;

const SLACK_FIELD_PREFIX = "slack.";
/**
 * One field per approver of a request that needs several (`approvedBy.<user id>` → JSON of a
 * PartialApproval), so the approve script checks "already approved by this person" with one
 * HEXISTS and counts approvals without parsing JSON (scripts.ts).
 */
export const APPROVED_BY_FIELD_PREFIX = "approvedBy.";
/** Set to "1" once an approval from the requirement's `atLeastOneFrom` group is recorded. */
export const GROUP_APPROVED_FIELD = "groupApproved";

type Core = Pick<
  ApprovalRequest,
  | "kind"
  | "title"
  | "summary"
  | "call"
  | "reconcileKey"
  | "price"
  | "requester"
  | "sandbox"
  | "requirement"
  | "step"
  | "createdAt"
>;

/**
 * Secrets a provider call's body may carry: the IO-D BGP session key a requester typed. Kept
 * while the call may still be sent (*Retry*, *Place again*), dropped from the record in the step
 * after which it never is (`AFTER_LAST_SEND`, store.ts): docs/SECURITY.md.
 */
const SECRETS_IN_CALL_BODIES = ["bgpKey"] as const;

/** The record's statuses after which its provider call is never sent again. */
export const AFTER_LAST_SEND: ReadonlySet<ApprovalStatus> = new Set([
  "placed",
  "rejected",
  "cancelled",
]);

/** The core field without the call's secrets; undefined when it carries none. */
export function coreWithoutSecrets(record: ApprovalRequest): string | undefined {
  const body = record.call.body;
  if (typeof body !== "object" || body === null) return undefined;
  const kept = Object.entries(body).filter(
    ([key]) => !(SECRETS_IN_CALL_BODIES as readonly string[]).includes(key),
  );
  if (kept.length === Object.keys(body).length) return undefined;
  return JSON.stringify(
    coreOf({ ...record, call: { ...record.call, body: Object.fromEntries(kept) } }),
  );
}

function coreOf(record: ApprovalRequest): Core {
  return {
    kind: record.kind,
    title: record.title,
    summary: record.summary,
    call: record.call,
    reconcileKey: record.reconcileKey,
    price: record.price,
    requester: record.requester,
    sandbox: record.sandbox,
    ...(record.requirement ? { requirement: record.requirement } : {}),
    ...(record.step ? { step: record.step } : {}),
    createdAt: record.createdAt,
  };
}

/** The hash fields of a new record, as field/value pairs for HSET. */
export function encodeNewRecord(record: ApprovalRequest): string[] {
  return [
    FIELD.version,
    RECORD_VERSION,
    FIELD.core,
    JSON.stringify(coreOf(record)),
    FIELD.status,
    record.status,
    FIELD.attempts,
    String(record.attempts),
    FIELD.updatedAt,
    record.updatedAt,
    FIELD.history,
    record.history.map(encodeHistoryEntry).join("\n"),
    ...encodeSlackRefs(record.slack),
  ];
}

/** One history line; JSON.stringify never emits a raw newline, so lines split cleanly. */
export function encodeHistoryEntry(entry: HistoryEntry): string {
  return JSON.stringify(entry);
}

/** The record's field holding a Slack reference (`slack.approvalTs`…). */
export function slackRefField(key: keyof SlackRefs): string {
  return `${SLACK_FIELD_PREFIX}${key}`;
}

export function encodeSlackRefs(refs: SlackRefs): string[] {
  return Object.entries(refs).flatMap(([key, value]) =>
    value === undefined ? [] : [`${SLACK_FIELD_PREFIX}${key}`, value],
  );
}

/** Field/value pairs as returned by HGETALL inside a script, to an object. */
export function pairsToFields(pairs: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!Array.isArray(pairs)) return fields;
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const field = pairs[i];
    const value = pairs[i + 1];
    if (typeof field === "string" && typeof value === "string") fields[field] = value;
  }
  return fields;
}

/** Reads a record from its hash fields. Throws ApprovalRecordError when it cannot be trusted. */
export function decodeRecord(id: string, fields: Record<string, string>): ApprovalRequest {
  const problems: string[] = [];
  const json = (field: string): unknown => {
    const text = fields[field];
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      problems.push(`${field} is not JSON`);
      return undefined;
    }
  };

  if (fields[FIELD.version] !== RECORD_VERSION) {
    throw new ApprovalRecordError(id, [
      `layout version ${JSON.stringify(fields[FIELD.version] ?? null)}, expected ${RECORD_VERSION}`,
    ]);
  }
  const core = json(FIELD.core);
  const history = (fields[FIELD.history] ?? "")
    .split("\n")
    .filter((line) => line !== "")
    .map((line, index) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        problems.push(`history line ${index + 1} is not JSON`);
        return undefined;
      }
    });
  const slack: Record<string, string> = {};
  const approvals: unknown[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (field.startsWith(SLACK_FIELD_PREFIX)) slack[field.slice(SLACK_FIELD_PREFIX.length)] = value;
    if (field.startsWith(APPROVED_BY_FIELD_PREFIX)) approvals.push(json(field));
  }
  // Oldest first: "1 of 2 approvals: <@first>".
  approvals.sort((a, b) => String(atOf(a)).localeCompare(String(atOf(b))));
  const attemptsText = fields[FIELD.attempts];
  const candidate = {
    ...(typeof core === "object" && core !== null ? core : {}),
    id,
    slack,
    status: fields[FIELD.status],
    attempts:
      attemptsText !== undefined && /^\d+$/.test(attemptsText)
        ? Number(attemptsText)
        : attemptsText,
    claimedBy: fields[FIELD.claimedBy],
    updatedAt: fields[FIELD.updatedAt],
    decision: json(FIELD.decision),
    result: json(FIELD.result),
    error: json(FIELD.error),
    ...(approvals.length > 0 ? { approvals } : {}),
    history,
  };
  if (problems.length > 0) throw new ApprovalRecordError(id, problems);
  if (typeof core !== "object" || core === null)
    throw new ApprovalRecordError(id, ["core is missing"]);

  const parsed = approvalRequestSchema.safeParse(candidate);
  if (!parsed.success) {
    throw new ApprovalRecordError(
      id,
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "record"}: ${issue.message}`),
    );
  }
  return parsed.data;
}

function atOf(value: unknown): unknown {
  return typeof value === "object" && value !== null ? (value as { at?: unknown }).at : undefined;
}
