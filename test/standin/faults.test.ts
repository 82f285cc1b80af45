import { webApi } from "@slack/bolt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SlackStandin, STANDIN_IDS, startSlackStandin } from "../../src/standin/index.js";

const { WebClient, ErrorCode } = webApi;
type WebClient = InstanceType<typeof WebClient>;

/** WebClient logs every refused call; these tests provoke refusals on purpose. */
const quietLogger: NonNullable<webApi.WebClientOptions["logger"]> = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => webApi.LogLevel.ERROR,
  setName: () => {},
};

const { requester, general, approvals } = STANDIN_IDS;

describe("Slack stand-in faults: 429 + Retry-After, ok:false, per-channel rate limit", () => {
  let standin: SlackStandin;
  let rejecting: WebClient;

  beforeAll(async () => {
    standin = await startSlackStandin();
    rejecting = new WebClient(standin.botToken, {
      slackApiUrl: standin.apiUrl,
      logger: quietLogger,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
  });

  afterAll(async () => {
    await standin.close();
  });

  it("answers HTTP 429 with Retry-After, which a WebClient reports as a rate-limit error", async () => {
    standin.failNext("chat.postMessage", { status: 429, retryAfterSeconds: 7 });
    const error = await rejecting.chat
      .postMessage({ channel: general, text: "limited" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 7 });

    // One failure was asked for: the next call goes through.
    await expect(
      rejecting.chat.postMessage({ channel: general, text: "fine" }),
    ).resolves.toMatchObject({ ok: true });
    const calls = standin.calls("chat.postMessage").slice(-2);
    expect(calls.map((c) => [c.status, c.ok])).toEqual([
      [429, false],
      [200, true],
    ]);
    expect(standin.messages(general).map((m) => m.text)).not.toContain("limited");
  });

  it("sends the Retry-After header on the wire", async () => {
    standin.failNext("auth.test", { status: 429, retryAfterSeconds: 3 });
    const response = await fetch(`${standin.apiUrl}auth.test`, {
      method: "POST",
      headers: { authorization: `Bearer ${standin.botToken}` },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
  });

  it("lets a WebClient that retries wait out Retry-After and then succeed", async () => {
    const patient = new WebClient(standin.botToken, {
      slackApiUrl: standin.apiUrl,
      logger: quietLogger,
      retryConfig: { retries: 1, minTimeout: 0, maxTimeout: 0 },
    });
    standin.failNext("chat.update", { status: 429, retryAfterSeconds: 1 });
    const posted = await patient.chat.postMessage({ channel: approvals, text: "v1" });
    const started = Date.now();
    await expect(
      patient.chat.update({ channel: approvals, ts: posted.ts as string, text: "v2" }),
    ).resolves.toMatchObject({
      ok: true,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(standin.calls("chat.update").map((c) => c.status)).toEqual([429, 200]);
  });

  it("answers ok:false with the given error for the next N calls", async () => {
    standin.failNext("users.info", { count: 2, error: "user_not_found" });
    for (let i = 0; i < 2; i += 1) {
      const error = await rejecting.users.info({ user: requester }).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: ErrorCode.PlatformError,
        data: { ok: false, error: "user_not_found" },
      });
    }
    await expect(rejecting.users.info({ user: requester })).resolves.toMatchObject({ ok: true });
  });

  it("answers another HTTP status as an HTTP error", async () => {
    standin.failNext("conversations.info", { status: 503 });
    const error = await rejecting.conversations.info({ channel: general }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.HTTPError, statusCode: 503 });
  });

  it("limits messages per second per channel when asked to", async () => {
    standin.setRateLimit({ messagesPerSecondPerChannel: 1 });
    try {
      await expect(
        rejecting.chat.postMessage({ channel: approvals, text: "first" }),
      ).resolves.toMatchObject({ ok: true });
      const second = await rejecting.chat
        .postMessage({ channel: approvals, text: "second" })
        .catch((e: unknown) => e);
      expect(second).toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 1 });
      // Another channel has its own budget.
      await expect(
        rejecting.chat.postMessage({ channel: general, text: "elsewhere" }),
      ).resolves.toMatchObject({ ok: true });
    } finally {
      standin.setRateLimit({ messagesPerSecondPerChannel: undefined });
    }
    await expect(
      rejecting.chat.postMessage({ channel: approvals, text: "unlimited" }),
    ).resolves.toMatchObject({ ok: true });
  });

  it("refuses a nonsensical fault", () => {
    expect(() => standin.failNext("chat.postMessage", { count: 0 })).toThrow(/count/);
  });
});
