import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBot, type TestBot } from "../harness/botEnv.js";

describe("/connect help and whoami, end to end over signed HTTP", () => {
  let env: TestBot;
  beforeAll(async () => {
    env = await startTestBot();
  });
  afterAll(async () => {
    await env?.close();
  });

  it("acknowledges at once and answers help privately, with every group and the sandbox label", async () => {
    const ack = await env.connect("help");
    expect(ack.status).toBe(200);
    const reply = await env.standin.waitForEphemeral("U0REQUEST1", (m) =>
      m.text.includes("Commands:"),
    );
    const text = JSON.stringify(reply.blocks);
    for (const group of ["General", "Look up", "Price", "Order", "Track and approve"])
      expect(text).toContain(group);
    expect(text).toContain("Sandbox");
    expect(text).toContain("Share in channel");
  });

  it("answers whoami with the provider identity from the sandbox", async () => {
    await env.connect("whoami");
    const reply = await env.standin.waitForEphemeral("U0REQUEST1", (m) =>
      m.text.includes("Who the bot acts as: provider user id"),
    );
    const user = env.bot.sandbox!.apiUser;
    expect(reply.text).toContain(user.companyUsername);
    expect(JSON.stringify(reply.blocks)).toContain(user.companyId);
  });

  it("suggests the closest command for a typo", async () => {
    await env.connect("rotuers");
    const reply = await env.standin.waitForEphemeral("U0REQUEST1", (m) =>
      m.text.includes("Did you mean"),
    );
    expect(JSON.stringify(reply.blocks)).toContain("/connect routers");
    expect(JSON.stringify(reply.blocks)).toContain("Sandbox");
  });

  it("suggests nothing for a word unlike any command (foo is not iod)", async () => {
    await env.connect("foo");
    const reply = await env.standin.waitForEphemeral("U0REQUEST1", (m) =>
      m.text.includes("/connect foo"),
    );
    const text = JSON.stringify(reply.blocks);
    expect(text).toContain("I don't know `/connect foo`. See `/connect help` for every command.");
    expect(text).not.toContain("Did you mean");
  });

  it.each([
    ["edge", ["edge locations", "edge orders", "edge drafts", "edge quote"]],
    [
      "price",
      [
        "price port [dcf speed term]",
        "price l2",
        "e.g. `/connect price port ironbridge-iad1 10G 1y`",
      ],
    ],
  ])("lists the subcommands of /connect %s, with examples", async (group, lines) => {
    await env.connect(group);
    const reply = await env.standin.waitForEphemeral("U0REQUEST1", (m) =>
      JSON.stringify(m.blocks).includes(`\`/connect ${group}\` is one of:`),
    );
    const text = JSON.stringify(reply.blocks);
    for (const line of lines) expect(text).toContain(line);
    expect(text).not.toContain("I don't know");
  });

  it("shares a result in the channel when Share is clicked", async () => {
    await env.connect("whoami");
    const reply = await env.standin.waitForEphemeral(
      "U0REQUEST1",
      (m) =>
        m.text.includes("Who the bot acts as: provider user id") &&
        JSON.stringify(m.blocks).includes("connect_share"),
    );
    await env.slack.clickButton({
      userId: "U0REQUEST1",
      message: reply,
      actionId: "connect_share",
    });
    const shared = await env.standin.waitForMessage("C0GENERAL1", (m) =>
      JSON.stringify(m.blocks).includes("Shared by"),
    );
    expect(shared.text).toContain("Who the bot acts as: provider user id");
  });

  it("keeps the policy private: no Share, and a forged share posts nothing", async () => {
    await env.connect("policy");
    const reply = await env.standin.waitForEphemeral("U0REQUEST1", (m) =>
      JSON.stringify(m.blocks).includes("Approval policy"),
    );
    expect(JSON.stringify(reply.blocks)).not.toContain("connect_share");
    // A share click of the policy, as an old or forged button would send it (the whoami
    // answer's Share button carrying the policy command).
    await env.connect("whoami");
    const other = await env.standin.waitForEphemeral("U0REQUEST1", (m) =>
      JSON.stringify(m.blocks).includes("connect_share"),
    );
    const postedBefore = env.standin.messages("C0GENERAL1").length;
    await env.slack.clickButton({
      userId: "U0REQUEST1",
      message: other,
      actionId: "connect_share",
      value: JSON.stringify({ c: "policy", p: 0 }),
    });
    await env.standin.waitForEphemeral("U0REQUEST1", (m) =>
      m.text.includes("The policy is not shared in the channel"),
    );
    expect(env.standin.messages("C0GENERAL1")).toHaveLength(postedBefore);
  });

  it("refuses a request signed with the wrong secret and runs nothing", async () => {
    const before = env.standin.calls().length;
    const wrong = await env.slack.transport.postRaw(
      "command=%2Fconnect&text=whoami&user_id=U0REQUEST1",
      {
        signingSecret: "not-the-secret",
      },
    );
    expect(wrong.status).toBe(401);
    const stale = await env.slack.transport.postRaw(
      "command=%2Fconnect&text=whoami&user_id=U0REQUEST1",
      {
        timestamp: Math.floor(Date.now() / 1000) - 10 * 60,
      },
    );
    expect(stale.status).toBe(401);
    expect(env.standin.calls().length).toBe(before);
  });

  it("serves health and Prometheus metrics", async () => {
    const health = await fetch(`${env.bot.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      ok: true,
      checks: { redis: { ok: true }, provider: { ok: true } },
      // The topology (issue 31): one Redis, the master it is on, its role.
      redis: { mode: "single", master: "127.0.0.1:6379", role: "master" },
    });
    const metrics = await (await fetch(`${env.bot.url}/metrics`)).text();
    expect(metrics).toMatch(/^redis_failovers_total 0$/m);
    expect(metrics).toMatch(/slack_commands_total\{command="help",outcome="succeeded"\} \d/);
    expect(metrics).toContain("provider_requests_total");
  });

  it("asks the provider for /healthz at most once however often it is hit", async () => {
    // Each whoami spends the provider rate limit people's commands need; a probe per replica
    // every few seconds must not.
    const whoamis = async () => {
      const text = await (await fetch(`${env.bot.url}/metrics`)).text();
      return [
        ...text.matchAll(/^provider_requests_total\{[^}]*operation="getAuthToken"[^}]*\} (\d+)/gm),
      ]
        .map((m) => Number(m[1]))
        .reduce((a, b) => a + b, 0);
    };
    const before = await whoamis();
    expect(before, "whoami asks counted (the metric is read right)").toBeGreaterThan(0);
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, () => fetch(`${env.bot.url}/healthz`)),
    );
    for (let i = 0; i < 5; i++) concurrent.push(await fetch(`${env.bot.url}/healthz`));
    expect(concurrent.map((r) => r.status)).toEqual(Array(15).fill(200));
    // The earlier test's answer may still be shared (0 asks), or it had expired (1 ask).
    expect((await whoamis()) - before).toBeLessThanOrEqual(1);
  });

  it("never writes the bot token or signing secret to the logs", () => {
    const all = env.logLines.join("\n");
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(env.standin.botToken);
    expect(all).not.toContain(env.signingSecret);
  });
});
