import { afterAll, afterEach } from "vitest";
import { forgetWatchedStandins, takeFallbackProblems } from "../harness/fallbackWatch.js";
import { describeProblems } from "./fallbackText.js";

// Run before every test file (vitest.config.ts setupFiles): every message a watched Slack
// stand-in recorded during a test must show its fallback text's words in its blocks, or that
// test fails. afterAll catches what background jobs sent after the last test (the bot is closed
// by then: after-hooks run in reverse order of registration, and this file registers first).

function check(): void {
  const problems = takeFallbackProblems();
  if (problems.length > 0) throw new Error(describeProblems(problems));
}

afterEach(check);

afterAll(() => {
  try {
    check();
  } finally {
    forgetWatchedStandins();
  }
});
