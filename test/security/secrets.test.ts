import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { submitForApproval } from "../../src/slack/approvals.js";
import { writeReliabilityResult } from "../faults/reliabilityResults.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";
import { portOrderRequest } from "../harness/portOrders.js";

const API_KEY = "prov-secret-9b2e61d04c7f4a83";

/**
 * Secrets never appear in logs, messages or errors (DESIGN §6): a representative run —
 * commands, an approval placed and one rejected, provider errors, Slack errors — then every log
 * line, every Slack call the stand-in recorded and every text shown is searched for the
 * provider API key, the bot token and the signing secret.
 */
describe("secrets stay secret", () => {
  let sandbox: Sandbox;
  let env: TestBot;
  let searched = 0;

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
        "the provider key, bot token and signing secret appear in no log line, no Slack call and no error text after a representative run",
      figures: { textsSearched: searched, secretsFound: 0 },
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

    // Provider errors: the key travels in the failing calls' headers.
    sandbox.faults.add({ match: "**", status: 500, times: 6 });
    await answered("ports");
    sandbox.faults.add({ match: "**", status: 401, times: 3 });
    await answered("whoami");
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
    for (const name of ["secret-port-ok", "secret-port-refused"]) {
      const outcome = await submit(name);
      if (!outcome.ok) throw new Error(outcome.message);
      const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
        m.text.includes(name),
      );
      if (name === "secret-port-refused")
        sandbox.faults.add({ match: "POST **", status: 400, times: 1 });
      await env.slack.clickButton({
        userId: STANDIN_IDS.approver,
        message: request,
        actionId: "approval_approve",
      });
      await env.standin.waitForMessage(
        STANDIN_IDS.approvals,
        (m) => m.thread_ts === request.ts && /Ordered|refused/.test(m.text),
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
    searched = texts.length;
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
