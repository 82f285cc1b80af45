import type { SlackStandin } from "../../src/standin/index.js";
import { type FallbackProblem, fallbackProblem } from "../support/fallbackText.js";

/**
 * The stand-ins whose recorded messages are checked after each test (by the setup file
 * test/support/fallbackTextSetup.ts): a message whose fallback text holds words its blocks lack
 * fails the test during which it was sent. `startTestBot` watches its stand-in; a test that
 * starts one itself calls `watchFallbackText`.
 */
const watched = new Map<SlackStandin, number>();

export function watchFallbackText(standin: SlackStandin): void {
  if (!watched.has(standin)) watched.set(standin, 0);
}

/** Every problem among the calls recorded since the last look; each call is looked at once. */
export function takeFallbackProblems(): FallbackProblem[] {
  const problems: FallbackProblem[] = [];
  for (const [standin, seen] of watched) {
    const calls = standin.calls();
    // clearCalls() empties the record: start again from its beginning.
    const from = calls.length < seen ? 0 : seen;
    for (const call of calls.slice(from)) {
      if (!call.ok) continue; // Slack refused it: nobody saw it.
      const problem = fallbackProblem(call);
      if (problem) problems.push(problem);
    }
    watched.set(standin, calls.length);
  }
  return problems;
}

/** Stops watching every stand-in (after a test file, once the last look is taken). */
export function forgetWatchedStandins(): void {
  watched.clear();
}
