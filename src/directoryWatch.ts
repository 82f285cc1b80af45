import type { WebClient } from "@slack/web-api";
import {
  checkDirectory,
  type DirectoryReport,
  type DirectorySettings,
  DirectoryStatus,
} from "./approvals/index.js";
import { ConfigError } from "./config.js";
import type { Logger } from "./log.js";
import { slackDirectory } from "./slackDirectory.js";

/**
 * Every user and group the approval configuration names must exist in Slack: a missing one stops
 * start-up (listed like a YAML mistake, a `ConfigError`); later checks, on a timer, log it and
 * `/connect policy` says it (src/approvals/directoryCheck.ts holds the rule, src/slackDirectory.ts
 * reads Slack). src/bot.ts starts it once the background Slack client exists.
 */

/** The users and groups the approval configuration names are checked against Slack this often. */
export const DIRECTORY_CHECK_EVERY_MS = 15 * 60_000;

/** Checks now (throws `ConfigError` on a problem), then every `DIRECTORY_CHECK_EVERY_MS`. */
export async function watchDirectory(
  settings: DirectorySettings,
  client: WebClient,
  logger: Logger,
): Promise<{ directory: DirectoryStatus; stop: () => Promise<void> }> {
  const directory = new DirectoryStatus(() => checkDirectory(settings, slackDirectory(client)));
  const report = await directory.refresh();
  if (report.problems.length > 0) throw new ConfigError(report.problems);
  logDirectory(logger, report);
  const timer = setInterval(() => {
    directory.refresh().then(
      (later) => logDirectory(logger, later),
      (error: unknown) => logger.warn({ err: error }, "approval directory check failed"),
    );
  }, DIRECTORY_CHECK_EVERY_MS);
  timer.unref();
  return { directory, stop: async () => clearInterval(timer) };
}

/** A check's outcome in the log: problems found after start-up are errors, not silence. */
function logDirectory(logger: Logger, report: DirectoryReport): void {
  if (report.warning) logger.warn({ directory: "unchecked" }, report.warning);
  else if (report.problems.length > 0)
    logger.error(
      { directory: "problems", problems: report.problems },
      "the approval configuration names users or groups Slack does not have",
    );
}
