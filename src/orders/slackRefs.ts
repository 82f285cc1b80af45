import {
  type ApprovalRequest,
  persistently,
  SLACK_REFS_WRITE_TIMEOUT_MS,
  type SlackRefs,
} from "../approvals/index.js";
import type { Logger } from "../log.js";

/**
 * Writes Slack references that exist nowhere else (where the approval message or the card was
 * posted) with `write`, through a Redis outage (2 minutes): logged while retrying, and when
 * given up (then thrown).
 */
export function keepSlackRefs(
  logger: Pick<Logger, "warn" | "error">,
  id: string,
  refs: SlackRefs,
  what: string,
  write: () => Promise<ApprovalRequest | null>,
): Promise<ApprovalRequest | null> {
  return persistently(write, {
    what: `record where ${what} was posted`,
    timeoutMs: SLACK_REFS_WRITE_TIMEOUT_MS,
    warn: (failures, error) =>
      logger.warn(
        { approvalId: id, ...refs, failures, err: (error as Error).message },
        `could not record where ${what} was posted; retrying until Redis answers`,
      ),
  }).catch((error: unknown) => {
    logger.error(
      { approvalId: id, ...refs, err: (error as Error).message },
      `gave up recording where ${what} was posted`,
    );
    throw error;
  });
}
