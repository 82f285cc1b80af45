import { readFileSync } from "node:fs";
import { WebClient } from "@slack/web-api";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configuredSecrets, loadConfig } from "../../src/config.js";
import { REDACTION_MARK } from "../../src/log.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import { writeReliabilityResult } from "../faults/reliabilityResults.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";
import { portOrderRequest } from "../harness/portOrders.js";

const API_KEY = "prov-secret-9b2e61d04c7f4a83";

/**
 * Secrets never appear in logs, messages, errors or stored records (docs/DESIGN.md §6): a representative
 * run — commands, an approval placed, one refused and one whose outcome is unknown, provider
 * errors, Slack errors — against a provider that ECHOES the API key, the bot token and the
 * signing secret in its error texts; then every log line, every Slack call the stand-in recorded
 * and every value under the run's Redis prefix is searched for the three.
 */
describe("secrets stay secret", () => {
  let sandbox: Sandbox;
  let env: TestBot;
  let searched = 0;
  let keysRead = 0;

  /** What a provider that echoes everything it knows might answer. */
  const echo = () => ({
    error: {
      message: `upstream refused: Authorization: Bearer ${API_KEY}; x-slack token ${env.standin.botToken}; signing ${env.signingSecret}`,
      status: 400,
    },
  });

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = await startTestBot({
      env: { PROVIDER_BASE_URL: sandbox.url, PROVIDER_API_KEY: API_KEY },
    });
  });
  afterAll(async () => {
    writeReliabilityResult({
      suite: "secrets",
      checks:
        "with a provider that echoes the API key, bot token and signing secret in its errors: none of them in any log line, Slack call or value under the run's Redis prefix after a representative run",
      figures: { textsSearched: searched, redisKeysRead: keysRead, secretsFound: 0 },
    });
    await env?.close();
    await sandbox?.close();
  });

  async function answered(text: string): Promise<void> {
    const before = env.standin.calls("response_url").length;
    expect((await env.connect(text)).status).toBe(200);
    await waitFor(() => env.standin.calls("response_url").length > before, {
      timeoutMs: 15_000,
      description: `the answer to /connect ${text}`,
    });
  }

  it("runs commands, approvals and errors, then finds no secret anywhere", async () => {
    for (const text of ["help", "whoami", "ports", "dcf ams", "order nope", "rotuers", "approvals"])
      await answered(text);

    // Provider errors: the key travels in the failing calls' headers, and this provider echoes
    // every secret in its error texts (a 500 and a 403 quote the provider's words to the person).
    sandbox.faults.add({ match: "**", status: 500, times: 6 });
    await answered("ports");
    sandbox.faults.add({ match: "**", status: 401, times: 3 });
    await answered("whoami");
    sandbox.faults.add({ match: "GET **", status: 500, times: 3, body: echo() });
    await answered("ports");
    sandbox.faults.add({ match: "GET **", status: 403, times: 1, body: echo() });
    await answered("port 5f2a9c0e1b3d4a5f6e7d8cff");
    sandbox.faults.clear();
    // A Slack error on the way out.
    env.standin.failNext("chat.postEphemeral", { error: "channel_not_found" });

    const client = new WebClient(env.standin.botToken, { slackApiUrl: env.standin.apiUrl });
    const companyUsername = (await env.bot.services.identity()).companyUsername;
    const dcfs = await env.bot.services.provider.listDcfs({
      where: { "dataCenterFacility.ready": true },
    });
    const dcf = dcfs.find((d) => (d.dataCenterFacility?.speeds?.length ?? 0) > 0);
    const submit = (portName: string) =>
      submitForApproval({
        services: env.bot.services,
        client,
        submission: portOrderRequest({
          portName,
          companyUsername,
          dataCenterFacility: dcf?.username ?? "none",
          speed: String(dcf?.dataCenterFacility?.speeds?.[0] ?? 1000),
          price: { total: 1, text: "1.00" },
          requester: { userId: STANDIN_IDS.requester, channelId: STANDIN_IDS.general },
        }),
      });
    for (const name of ["secret-port-ok", "secret-port-refused", "secret-port-unknown"]) {
      const outcome = await submit(name);
      if (!outcome.ok) throw new Error(outcome.message);
      const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
        m.text.includes(name),
      );
      // Refused with the echo (the error is stored in the record, kept 100 days, and posted in
      // the thread); a gateway's 502 with the echo: outcome unknown, escalated to a person.
      if (name === "secret-port-refused")
        sandbox.faults.add({ match: "PUT **", status: 400, times: 1, body: echo() });
      if (name === "secret-port-unknown")
        sandbox.faults.add({ match: "PUT **", status: 502, times: 1, body: echo() });
      await env.slack.clickButton({
        userId: STANDIN_IDS.approver,
        message: request,
        actionId: "approval_approve",
      });
      await env.standin.waitForMessage(
        STANDIN_IDS.approvals,
        (m) => m.thread_ts === request.ts && /Ordered|refused|provider's portal/.test(m.text),
        { timeoutMs: 15_000 },
      );
    }

    const secrets = {
      "provider API key": API_KEY,
      "bot token": env.standin.botToken,
      "signing secret": env.signingSecret,
    };
    const texts = [
      ...env.logLines,
      // What the bot sent to Slack (the stand-in also keeps the token it was called with: that
      // is Slack's side, not something the bot showed).
      ...env.standin.calls().map((c) => JSON.stringify({ m: c.method, a: c.args, e: c.error })),
      ...env.standin.ephemerals().map((m) => JSON.stringify(m)),
      ...env.standin.messages(STANDIN_IDS.approvals).map((m) => JSON.stringify(m)),
      ...env.standin.messages(STANDIN_IDS.general).map((m) => JSON.stringify(m)),
    ];
    const stored = await storedValues(env.redisPrefix);
    keysRead = stored.length;
    texts.push(...stored);
    searched = texts.length;
    // Not blind: the echo did come back, and was redacted, in Slack and in Redis.
    const slackTexts = env.standin.calls().map((c) => JSON.stringify(c.args));
    expect(slackTexts.some((t) => t.includes(REDACTION_MARK))).toBe(true);
    expect(stored.some((t) => t.includes(REDACTION_MARK))).toBe(true);
    expect(stored.some((t) => t.includes("secret-port-refused"))).toBe(true);
    expect(env.logLines.some((l) => l.includes('"level":50') || l.includes("500"))).toBe(true);
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length).toBeGreaterThan(8);
      const found = texts.filter((t) => t.includes(secret));
      expect(
        found.map((t) => t.slice(0, 200)),
        name,
      ).toEqual([]);
    }
  }, 50_000);
});

/** Every key under `prefix` with its value, whatever its type (BullMQ's included). */
async function storedValues(prefix: string): Promise<string[]> {
  const redis = new Redis("redis://127.0.0.1:6379");
  const out: string[] = [];
  try {
    for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 500 })) {
      for (const key of batch as string[]) {
        const type = await redis.type(key);
        const value =
          type === "string"
            ? await redis.get(key)
            : type === "hash"
              ? await redis.hgetall(key)
              : type === "list"
                ? await redis.lrange(key, 0, -1)
                : type === "set"
                  ? await redis.smembers(key)
                  : type === "zset"
                    ? await redis.zrange(key, "0", "-1")
                    : type === "stream"
                      ? await redis.xrange(key, "-", "+")
                      : type;
        out.push(`${key} ${JSON.stringify(value)}`);
      }
    }
  } finally {
    redis.disconnect();
  }
  return out;
}

describe("every entry point redacts the configured secrets by value", () => {
  it("configuredSecrets lists the API key, bot token, signing secret, app token and Redis password", () => {
    const socket = loadConfig({
      SLACK_BOT_TOKEN: "xoxb-bot-token-value",
      SLACK_APP_TOKEN: "xapp-app-token-value",
      SLACK_SIGNING_SECRET: "signing-secret-value",
      PROVIDER_BASE_URL: "https://provider.example",
      PROVIDER_API_KEY: "provider-api-key-value",
      REDIS_URL: "redis://:redis-password-value@127.0.0.1:6379",
    });
    expect(configuredSecrets(socket).sort()).toEqual(
      [
        "provider-api-key-value",
        "redis-password-value",
        "signing-secret-value",
        "xapp-app-token-value",
        "xoxb-bot-token-value",
      ].sort(),
    );
    expect(configuredSecrets(loadConfig({}))).toEqual([]);
  });

  it("main.ts, worker.ts and bot.ts create their logger with them", () => {
    for (const file of ["src/main.ts", "src/worker.ts"]) {
      const source = readFileSync(file, "utf8");
      const calls = source.match(/createLogger\([^)]*\)/g) ?? [];
      expect(calls.length, file).toBeGreaterThan(0);
      for (const call of calls) expect(call, file).toContain("secrets: configuredSecrets(config)");
    }
    const bot = readFileSync("src/bot.ts", "utf8");
    expect(bot).toContain("const secrets = configuredSecrets(config);");
    expect(bot).toMatch(/createLogger\(\{ level: config\.logLevel, secrets \}\)/);
  });
});
