/**
 * A withdrawal: the requester took their request back before it was decided (`/connect
 * withdraw`, the Withdraw button). Pure, structural (it reads only status and history), so the
 * views and the approvals store share one rule.
 */

/**
 * The history note of a request its requester withdrew (`/connect withdraw`, the Withdraw
 * button): a withdrawal is a `cancelled` request with this note, so every list and status
 * table that knows `cancelled` knows it; only the words differ.
 */
export const WITHDRAWN_NOTE = "withdrawn by the requester";

/** True when the request was withdrawn by its requester (not cancelled by the bot). */
export function isWithdrawn(record: {
  status: string;
  history: readonly { to: string; note?: string }[];
}): boolean {
  return (
    record.status === "cancelled" &&
    record.history.some((entry) => entry.to === "cancelled" && entry.note === WITHDRAWN_NOTE)
  );
}
