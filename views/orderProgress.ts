import type { ApprovalRequest } from "../src/approvals/index.js";
import { escapeMrkdwn } from "./blocks.js";

/**
 * What tracking has said about a placed order, kept by src/orders per request: the latest status
 * the provider reported and, once tracking ended, how (absent while it goes on).
 */
export interface OrderProgress {
  /** The provider's latest status, as it came (escaped when shown). */
  status?: string;
  outcome?: "done" | "failed" | "cancelled" | "stopped";
  /** A short line worth showing with the outcome (the provider's reason, who stopped it). */
  detail?: string;
}

/** The outcome of a placed order once tracking ended, or undefined while it goes on. */
export function trackedOutcomeLine(progress: OrderProgress | undefined): string | undefined {
  if (!progress?.outcome) return undefined;
  // "Done (ACTIVE)" says something; "Done (done)" says the same word twice.
  const status =
    progress.status && progress.status.toLowerCase() !== progress.outcome
      ? ` (${escapeMrkdwn(progress.status)})`
      : "";
  const detail = progress.detail ? `: ${escapeMrkdwn(progress.detail)}` : "";
  switch (progress.outcome) {
    case "done":
      return `:tada: *Done*${status}`;
    case "failed":
      return `:x: *Failed*${status}${detail}`;
    case "cancelled":
      return `:heavy_multiplication_x: *Cancelled at the provider*${status}${detail}`;
    case "stopped":
      return `:pause_button: *No longer followed*${status}${detail}`;
  }
}

/**
 * The request's state as a short key, e.g. `pending`, `placed:provisioning`, `placed:done`: the
 * block_id of the state line on the approval message and on the request card (`state_<key>`),
 * so both can be compared from what Slack received.
 */
export function requestStateKey(
  record: Pick<ApprovalRequest, "status">,
  progress: OrderProgress | undefined,
): string {
  if (record.status !== "placed") return record.status;
  const tracked = progress?.outcome ?? progress?.status ?? "";
  const key = tracked
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .slice(0, 60);
  return key ? `placed:${key}` : "placed";
}

/** The block_id of a message's state line. */
export function stateBlockId(record: Pick<ApprovalRequest, "status">, progress?: OrderProgress) {
  return `state_${requestStateKey(record, progress)}`;
}
