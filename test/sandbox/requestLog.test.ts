// The sandbox's request log keeps the latest REQUEST_LOG_LIMIT requests, dropping the oldest
// in batches (REQUEST_LOG_SLACK at a time) rather than one per request.
import { describe, expect, it } from "vitest";
import { REQUEST_LOG_LIMIT, REQUEST_LOG_SLACK, SandboxState } from "../../src/sandbox/state.js";
import { frozenClock } from "./helpers.js";

describe("sandbox request log", () => {
  it("keeps the latest requests, in order, within the limit and its slack", () => {
    const state = new SandboxState(1, frozenClock());
    const entry = (n: number) => ({
      method: "GET",
      path: `/r/${n}`,
      operationId: null,
      status: 200,
      at: "2025-01-06T09:00:00.000Z",
      durationMs: 0,
      fault: null,
    });
    const total = REQUEST_LOG_LIMIT + 3 * REQUEST_LOG_SLACK + 7;
    let longest = 0;
    for (let n = 1; n <= total; n++) {
      state.logRequest(entry(n));
      longest = Math.max(longest, state.requestLog.length);
      if (n <= REQUEST_LOG_LIMIT) expect(state.requestLog.length).toBe(n);
    }
    expect(state.requestCount).toBe(total);
    expect(longest).toBeLessThan(REQUEST_LOG_LIMIT + REQUEST_LOG_SLACK);
    expect(state.requestLog.length).toBeGreaterThanOrEqual(REQUEST_LOG_LIMIT);
    const log = state.requestLog;
    expect(log[log.length - 1]?.path).toBe(`/r/${total}`);
    expect(log[0]?.path).toBe(`/r/${total - log.length + 1}`);
  });
});
