import type { z } from "zod";
import {
  ApprovalInputError,
  type ApprovalRequest,
  type CreateApprovalInput,
  createApprovalInputSchema,
  type Decision,
  decisionSchema,
  type PlacementError,
  type PlacementResult,
  placementErrorSchema,
  placementResultSchema,
  SLACK_REF_KEY_PATTERN,
  type SlackRefs,
} from "./types.js";

/**
 * What the store agrees to write: every request is kept for months and must read back (a record
 * that fails its schema is lost to the user), so input is checked, bounded and normalised here
 * before any script runs. Each check throws ApprovalInputError; nothing is written then.
 */

/** Larger provider call bodies are refused: every request is kept for months. */
const MAX_CALL_BYTES = 32 * 1024;
/** Larger provider records in a result are replaced by a marker (ids and status are kept). */
const MAX_RESULT_RECORD_BYTES = 16 * 1024;
/** Notes and reasons are cut to this many characters (they are shown in Slack). */
const MAX_NOTE = 3000;

/**
 * A new request's input, checked, and its provider call as it will be read back (JSON), so the
 * caller sees exactly what will be placed.
 */
export function storableRequest(input: CreateApprovalInput): {
  data: z.output<typeof createApprovalInputSchema>;
  call: ApprovalRequest["call"];
} {
  const parsed = createApprovalInputSchema.safeParse(input);
  if (!parsed.success) throw new ApprovalInputError(describeIssues(parsed.error.issues));
  const data = parsed.data;
  const callJson = safeStringify(data.call);
  if (callJson === undefined) throw new ApprovalInputError(["call: must be JSON-serialisable"]);
  if (Buffer.byteLength(callJson) > MAX_CALL_BYTES) {
    throw new ApprovalInputError([`call: larger than ${MAX_CALL_BYTES} bytes`]);
  }
  checkSlackRefKeys(data.slack ?? {});
  return { data, call: JSON.parse(callJson) as ApprovalRequest["call"] };
}

/** The record a new request starts as: pending, no attempts, no history. */
export function pendingRecord(
  id: string,
  data: z.output<typeof createApprovalInputSchema>,
  call: ApprovalRequest["call"],
  at: string,
): ApprovalRequest {
  return {
    id,
    kind: data.kind,
    title: data.title,
    summary: data.summary,
    call,
    reconcileKey: data.reconcileKey,
    price: data.price,
    requester: data.requester,
    slack: dropUndefined(data.slack ?? {}),
    sandbox: data.sandbox,
    ...(data.requirement ? { requirement: data.requirement } : {}),
    ...(data.step ? { step: data.step } : {}),
    status: "pending",
    attempts: 0,
    history: [],
    createdAt: at,
    updatedAt: at,
  };
}

/** A person's decision (approve or reject) as it is stored, stamped `at`. */
export function storableDecision(
  by: string,
  action: Decision["action"],
  reason: string | undefined,
  at: Date,
): Decision {
  const trimmed = reason?.trim();
  const parsed = decisionSchema.safeParse({
    by,
    at: at.toISOString(),
    action,
    reason: trimmed ? truncateNote(trimmed) : undefined,
  });
  if (!parsed.success) throw new ApprovalInputError(describeIssues(parsed.error.issues));
  return parsed.data;
}

export function storableResult(result: PlacementResult): PlacementResult {
  const parsed = placementResultSchema.safeParse(result);
  if (!parsed.success) throw new ApprovalInputError(describeIssues(parsed.error.issues));
  const recordJson = safeStringify(parsed.data.record ?? null) ?? "null";
  const bytes = Buffer.byteLength(recordJson);
  return {
    providerId: parsed.data.providerId,
    status: parsed.data.status,
    ...(parsed.data.resource ? { resource: parsed.data.resource } : {}),
    // Kept for months: a huge or unserialisable provider record is not worth the memory.
    record:
      bytes > MAX_RESULT_RECORD_BYTES
        ? { omitted: `provider record larger than ${MAX_RESULT_RECORD_BYTES} bytes`, bytes }
        : JSON.parse(recordJson),
  };
}

export function storableError(error: PlacementError): PlacementError {
  const candidate = { ...error, message: truncateNote(String(error.message ?? "")) };
  const parsed = placementErrorSchema.safeParse(candidate);
  if (!parsed.success) throw new ApprovalInputError(describeIssues(parsed.error.issues));
  return parsed.data;
}

export function checkSlackRefKeys(refs: Record<string, unknown>): void {
  const bad = Object.keys(refs).filter((key) => !SLACK_REF_KEY_PATTERN.test(key));
  if (bad.length > 0) throw new ApprovalInputError([`slack: invalid key(s) ${bad.join(", ")}`]);
}

function dropUndefined(refs: SlackRefs): SlackRefs {
  return Object.fromEntries(Object.entries(refs).filter(([, value]) => value !== undefined));
}

function safeStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** A note or reason cut to what is kept. */
export function truncateNote(text: string): string {
  return text.length <= MAX_NOTE ? text : `${text.slice(0, MAX_NOTE - 1)}…`;
}

export function describeIssues(
  issues: readonly { path: PropertyKey[]; message: string }[],
): string[] {
  return issues.map((issue) => `${issue.path.map(String).join(".") || "input"}: ${issue.message}`);
}
