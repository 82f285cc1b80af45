import { afterAll, afterEach } from "vitest";
import {
  forgetWatchedStandins,
  takeDisagreements,
  takeRecordedProblems,
} from "../harness/fallbackWatch.js";
import { describeDisagreements } from "./cardAgreement.js";
import { describeProblems } from "./fallbackText.js";
import { describeSandboxLabelProblems } from "./sandboxLabel.js";

// Run before every test file (vitest.config.ts setupFiles): what a watched Slack stand-in
// recorded during a test is checked, and a bad message fails that test:
// - every message shows its fallback text's words in its blocks;
// - against the sandbox, every message and view carries the sandbox label;
// - once the notifier is idle, each request's card, App Home and the requester's last state DM
//   show the same state as its approval message.
// afterAll catches what background jobs sent after the last test (the bot is closed by then:
// after-hooks run in reverse order of registration, and this file registers first; the harness
// compares cards before it stops a bot, see checkBeforeClose).

async function check(): Promise<void> {
  const { fallback, sandboxLabel } = takeRecordedProblems();
  const disagreements = await takeDisagreements();
  const reports = [
    ...(fallback.length > 0 ? [describeProblems(fallback)] : []),
    ...(sandboxLabel.length > 0 ? [describeSandboxLabelProblems(sandboxLabel)] : []),
    ...(disagreements.length > 0 ? [describeDisagreements(disagreements)] : []),
  ];
  if (reports.length > 0) throw new Error(reports.join("\n\n"));
}

afterEach(check);

afterAll(async () => {
  try {
    await check();
  } finally {
    forgetWatchedStandins();
  }
});
