import type { Logger } from "../../log.js";
import type { Metrics } from "../../metrics.js";
import type { Outcome } from "../connect.js";

/**
 * The audit line and the metrics of one command, typed or submitted through a form: who ran
 * what, and how it ended. The one place these are written, so the audit trail reads the same
 * whichever way a command came in. Only ids and the outcome, never a form's values (an IO-D
 * body carries the BGP key).
 */
export function recordCommand(
  { metrics, logger }: { metrics: Metrics; logger: Logger },
  entry: {
    command: string;
    userId: string;
    outcome: Outcome;
    channelId?: string;
    /** "modal" for a form's submission; a typed command leaves it out. */
    via?: "modal";
    /** `performance.now()` when the work began: the latency is observed and logged. */
    startedAt?: number;
  },
): void {
  const { command, userId, outcome, channelId, via, startedAt } = entry;
  metrics.commands.inc({ command, outcome });
  const ms = startedAt === undefined ? undefined : performance.now() - startedAt;
  if (ms !== undefined) metrics.commandLatency.observe({ command }, ms / 1000);
  logger.info(
    {
      audit: "command",
      command,
      userId,
      ...(channelId ? { channelId } : {}),
      outcome,
      ...(via ? { via } : {}),
      ...(ms !== undefined ? { ms: Math.round(ms) } : {}),
    },
    "command run",
  );
}
