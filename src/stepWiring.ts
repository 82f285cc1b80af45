// What src/bot.ts wires for Workflow Builder steps (issue 30) beyond building StepCompletions:
// a person's display name for "Rejected by @Alex", and the reconciler's timer. Apart from
// bot.ts so the composition root stays a list of parts.
import type { WebClient } from "@slack/web-api";
import type { Logger } from "./log.js";

/** Open steps whose request ended while its change was missed are ended this often. */
export const STEP_RECONCILE_MS = 5 * 60_000;

/** The name Slack shows for a person (display name, else real name, else their id). */
export function slackDisplayName(client: WebClient): (userId: string) => Promise<string> {
  return async (userId) => {
    const { user } = await client.users.info({ user: userId });
    const profile = user?.profile;
    return profile?.display_name || profile?.real_name || user?.real_name || user?.name || userId;
  };
}

/** Runs `reconcile` now and every `everyMs`; returns the stop (for shutdown). */
export function reconcileEvery(
  everyMs: number,
  reconcile: () => Promise<number>,
  logger: Logger,
): () => Promise<void> {
  const run = () => {
    reconcile().then(
      (ended) => {
        if (ended > 0) logger.info({ ended }, "workflow steps ended by the reconciler");
      },
      (error: unknown) => logger.warn({ err: error }, "workflow step reconcile failed"),
    );
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return async () => clearInterval(timer);
}
