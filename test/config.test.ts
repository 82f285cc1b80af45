import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("runs on embedded defaults with an empty environment", () => {
    const config = loadConfig({});
    expect(config.slack).toEqual({ mode: "playground" });
    expect(config.provider).toEqual({ kind: "sandbox" });
    expect(config.port).toBe(3000);
    expect(config.sandboxPort).toBe(4010);
    expect(config.slackMaxBodyBytes).toBe(1024 * 1024);
    expect(config.redisUrl).toBe("redis://127.0.0.1:6379");
    expect(config.approvals).toEqual({
      channel: undefined,
      approvers: [],
      requesters: [],
      allowSelfApproval: false,
      spendViewers: [],
      approveConfirmFrom: 1000,
    });
  });

  it("reads REDIS_CLUSTER_NODES as host:port seeds; refuses what is not, and a database", () => {
    expect(loadConfig({}).redis.mode).toBe("single");
    expect(
      loadConfig({ REDIS_CLUSTER_NODES: " redis-0.example:6379, 10.0.0.2:7000 ,[::1]:6380" }).redis,
    ).toEqual({
      mode: "cluster",
      url: "redis://127.0.0.1:6379",
      nodes: [
        { host: "redis-0.example", port: 6379 },
        { host: "10.0.0.2", port: 7000 },
        { host: "::1", port: 6380 },
      ],
    });
    const refusal =
      "REDIS_CLUSTER_NODES must be comma-separated host:port pairs (e.g. redis-0:6379,redis-1:6379)";
    expect(problemsOf({ REDIS_CLUSTER_NODES: "redis-0" })).toEqual([refusal]);
    expect(problemsOf({ REDIS_CLUSTER_NODES: "redis-0:6379,redis-1:70000" })).toEqual([refusal]);
    expect(problemsOf({ REDIS_CLUSTER_NODES: "redis://redis-0:6379" })).toEqual([refusal]);
    expect(
      problemsOf({ REDIS_CLUSTER_NODES: "redis-0:6379", REDIS_URL: "redis://:pw@x:6379/2" }),
    ).toEqual([
      "REDIS_URL must name no database other than 0 with REDIS_CLUSTER_NODES (a cluster has one)",
    ]);
    expect(
      loadConfig({ REDIS_CLUSTER_NODES: "redis-0:6379", REDIS_URL: "rediss://:pw@x/0" }).redis,
    ).toMatchObject({ mode: "cluster", nodes: [{ host: "redis-0", port: 6379 }] });
  });

  it("reads ORDER_UPDATES: channel by default, dm or off, anything else refused", () => {
    expect(loadConfig({}).orderUpdates).toBe("channel");
    expect(loadConfig({ ORDER_UPDATES: "dm" }).orderUpdates).toBe("dm");
    expect(loadConfig({ ORDER_UPDATES: " off " }).orderUpdates).toBe("off");
    expect(problemsOf({ ORDER_UPDATES: "everywhere" })).toEqual([
      "ORDER_UPDATES must be one of channel, dm, off",
    ]);
  });

  it("selects HTTP mode with a bot token and signing secret", () => {
    const config = loadConfig({
      SLACK_BOT_TOKEN: "xoxb-1-2-3",
      SLACK_SIGNING_SECRET: "s3cret-signing",
      SLACK_API_URL: "http://127.0.0.1:9999/api/",
    });
    expect(config.slack).toMatchObject({ mode: "http", apiUrl: "http://127.0.0.1:9999/api/" });
  });

  it("selects Socket Mode when an app token is set", () => {
    const config = loadConfig({ SLACK_BOT_TOKEN: "xoxb-1", SLACK_APP_TOKEN: "xapp-1-A" });
    expect(config.slack.mode).toBe("socket");
  });

  it("reads approvers, requesters and self-approval", () => {
    const config = loadConfig({
      APPROVALS_CHANNEL: "C0APPROVALS",
      APPROVERS: "U0AAA1, S0GROUP1",
      REQUESTERS: "W0BBB2",
      ALLOW_SELF_APPROVAL: "true",
    });
    expect(config.approvals).toEqual({
      channel: "C0APPROVALS",
      approvers: ["U0AAA1", "S0GROUP1"],
      requesters: ["W0BBB2"],
      allowSelfApproval: true,
      spendViewers: [],
      approveConfirmFrom: 1000,
    });
  });

  it("reads SPEND_VIEWERS (Slack ids) and APPROVE_CONFIRM_FROM (a monthly amount, 1000 when unset)", () => {
    const config = loadConfig({
      SPEND_VIEWERS: "U0CFO0001, S0AUDIT01",
      APPROVE_CONFIRM_FROM: "2500.50",
    });
    expect(config.approvals).toMatchObject({
      spendViewers: ["U0CFO0001", "S0AUDIT01"],
      approveConfirmFrom: 2500.5,
    });
    expect(loadConfig({ APPROVE_CONFIRM_FROM: "0" }).approvals.approveConfirmFrom).toBe(0);
    expect(problemsOf({ SPEND_VIEWERS: "finance-team", APPROVE_CONFIRM_FROM: "1k" })).toEqual([
      expect.stringMatching(/^SPEND_VIEWERS must be comma-separated Slack user/),
      expect.stringMatching(/^APPROVE_CONFIRM_FROM must be a monthly amount/),
    ]);
    expect(problemsOf({ APPROVE_CONFIRM_FROM: "-5" })).toHaveLength(1);
  });

  it("reads the Slack body limit in bytes and refuses one out of bounds", () => {
    expect(loadConfig({ SLACK_MAX_BODY_BYTES: "262144" }).slackMaxBodyBytes).toBe(262144);
    for (const value of ["1MiB", "-1", "12", "999999999", "1.5"]) {
      expect(problemsOf({ SLACK_MAX_BODY_BYTES: value }), value).toEqual([
        expect.stringMatching(/^SLACK_MAX_BODY_BYTES must be a whole number of bytes from 1024/),
      ]);
    }
  });

  it("reads the price currency (USD when unset) and the partner reminder's days (7 when unset)", () => {
    expect(loadConfig({}).currency).toBe("USD");
    expect(loadConfig({ PRICE_CURRENCY: "EUR" }).currency).toBe("EUR");
    expect(loadConfig({}).partnerReminderAfterDays).toBe(7);
    expect(loadConfig({ PARTNER_REMINDER_AFTER_DAYS: "3" }).partnerReminderAfterDays).toBe(3);
    for (const bad of ["EURO", "€", "12"]) {
      expect(() => loadConfig({ PRICE_CURRENCY: bad })).toThrow(/PRICE_CURRENCY/);
    }
    for (const bad of ["0", "-1", "1.5", "week", "1000"]) {
      expect(() => loadConfig({ PARTNER_REMINDER_AFTER_DAYS: bad })).toThrow(
        /PARTNER_REMINDER_AFTER_DAYS/,
      );
    }
  });

  it("lists every problem at once and never echoes a value", () => {
    const problems = problemsOf({
      PORT: "70000",
      PROVIDER_BASE_URL: "not a url",
      SLACK_BOT_TOKEN: "xoxp-user-token-value",
      APPROVERS: "alice",
      REDIS_URL: "http://x",
      ALLOW_SELF_APPROVAL: "maybe",
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT /),
        expect.stringMatching(/^PROVIDER_BASE_URL /),
        expect.stringMatching(/^SLACK_BOT_TOKEN must be a bot token/),
        expect.stringMatching(/^APPROVERS /),
        expect.stringMatching(/^REDIS_URL /),
        expect.stringMatching(/^ALLOW_SELF_APPROVAL /),
      ]),
    );
    expect(problems.join("\n")).not.toContain("xoxp-user-token-value");
  });

  it("requires the API key with a provider URL and the signing secret in HTTP mode", () => {
    const problems = problemsOf({
      PROVIDER_BASE_URL: "https://api.example.net",
      SLACK_BOT_TOKEN: "xoxb-1",
    });
    expect(problems).toEqual([
      "PROVIDER_API_KEY is required when PROVIDER_BASE_URL is set",
      expect.stringMatching(/^SLACK_SIGNING_SECRET is required in HTTP mode/),
    ]);
  });

  it("reads a Sentinel topology: the sentinels say where Redis is, REDIS_URL only its password and database", () => {
    expect(loadConfig({}).redis).toEqual({ mode: "single", url: "redis://127.0.0.1:6379" });
    const config = loadConfig({
      REDIS_URL: "redis://:pw@ignored:6379/2",
      REDIS_SENTINELS: " s1:26379, 10.0.0.2:26380,[::1]:26381 ",
      REDIS_SENTINEL_MASTER: "connect-master",
    });
    expect(config.redis).toEqual({
      mode: "sentinel",
      url: "redis://:pw@ignored:6379/2",
      sentinels: [
        { host: "s1", port: 26379 },
        { host: "10.0.0.2", port: 26380 },
        { host: "::1", port: 26381 },
      ],
      masterName: "connect-master",
    });
  });

  it("lists every Redis topology problem at once", () => {
    expect(problemsOf({ REDIS_SENTINELS: "s1:26379" })).toEqual([
      "REDIS_SENTINEL_MASTER is required when REDIS_SENTINELS is set",
    ]);
    expect(problemsOf({ REDIS_SENTINEL_MASTER: "m" })).toEqual([
      "REDIS_SENTINELS is required when REDIS_SENTINEL_MASTER is set",
    ]);
    expect(
      problemsOf({
        REDIS_SENTINELS: "s1:26379",
        REDIS_SENTINEL_MASTER: "m",
        REDIS_CLUSTER_NODES: "n1:7000",
      }),
    ).toEqual([expect.stringMatching(/^REDIS_CLUSTER_NODES must not be set with REDIS_SENTINELS/)]);
    const problems = problemsOf({
      REDIS_SENTINELS: "s1,s2:99999",
      REDIS_SENTINEL_MASTER: "bad name!",
      REDIS_CLUSTER_NODES: "n1:7000,",
      REDIS_URL: "http://x",
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^REDIS_SENTINELS must be comma-separated host:port pairs/),
        expect.stringMatching(/^REDIS_SENTINEL_MASTER must be the master's name/),
        expect.stringMatching(/^REDIS_CLUSTER_NODES must be comma-separated host:port pairs/),
        expect.stringMatching(/^REDIS_URL /),
      ]),
    );
  });
});
