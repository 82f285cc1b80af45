import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { KnownBlock } from "@slack/types";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submitForApproval } from "../../src/slack/kit/index.js";
import { type SlackStandin, startSlackStandin } from "../../src/standin/index.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { portOrderRequest } from "../harness/portOrders.js";
import { freePort } from "../harness/ports.js";
import { readable } from "../views/support.js";

/**
 * Issue 32, item 2: a policy naming a user group (or a user) Slack does not have used to start
 * without a word and lock every approval it governs behind "try again". Now every id the
 * configuration names is checked against Slack at start-up: a missing one stops the bot (exit
 * 2, each problem listed); when Slack cannot be asked, a warning that `/connect policy`
 * repeats; and an approver whose group cannot be read is told the real cause.
 */

const dir = mkdtempSync(join(tmpdir(), "policy-directory-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function policyFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("start-up checks every user and group the policy names", () => {
  let standin: SlackStandin;
  beforeAll(async () => {
    standin = await startSlackStandin();
  });
  afterAll(async () => {
    await standin?.close();
  });

  it("a missing group and a missing user stop `tsx src/main.ts` with the listed error", async () => {
    const path = policyFile(
      "missing.yml",
      `groups:
  network: [${STANDIN_IDS.approverGroup}, S0NOSUCHGRP]
  finance: [U0NOBODY99]
rules:
  - name: Big
    monthlyFrom: 1000
    approvals: 2
    from: [network, finance]
    atLeastOneFrom: finance
  - name: Everything else
    approvals: 1
    from: [network]
`,
    );
    const root = new URL("../..", import.meta.url).pathname;
    const result = await promisify(execFile)(join(root, "node_modules/.bin/tsx"), ["src/main.ts"], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        SLACK_BOT_TOKEN: standin.botToken,
        SLACK_SIGNING_SECRET: "policy-directory-secret",
        SLACK_API_URL: standin.apiUrl,
        APPROVALS_CHANNEL: STANDIN_IDS.approvals,
        APPROVAL_POLICY: path,
        PORT: String(await freePort()),
        LOG_LEVEL: "silent",
      },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Configuration is not valid \(3 problems\):/);
    const problems = result.stderr.split("\n").filter((line) => line.startsWith("  - "));
    expect(problems).toEqual([
      "  - APPROVAL_POLICY groups.network names the user group S0NOSUCHGRP, which does not exist in this Slack workspace",
      "  - APPROVAL_POLICY groups.finance names the user U0NOBODY99, who does not exist in this Slack workspace",
      // Grace (the only member of S0APPROVERS) is one person; finance has nobody who exists.
      '  - APPROVAL_POLICY rules[0] ("Big") can never be satisfied: it needs 2 distinct approvers, and only 1 person in Slack can approve under it',
    ]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    // The groups and users were asked of Slack itself.
    expect(standin.calls("usergroups.list").length).toBeGreaterThan(0);
    expect(standin.calls("users.info").map((call) => call.args.user)).toContain("U0NOBODY99");
  }, 60_000);
});

describe("when Slack cannot be asked at start-up", () => {
  let env: TestBot;
  beforeAll(async () => {
    env = await startTestBot({
      prepare: (standin) => standin.failNext("usergroups.list", { status: 503 }),
    });
  });
  afterAll(async () => {
    await env?.close();
  });

  it("starts with a warning in the log, and `/connect policy` repeats it", async () => {
    const warned = env.logLines.find((line) => line.includes('"directory":"unchecked"'));
    expect(warned).toContain("could not be checked");
    expect(warned).toContain("usergroups.list");
    await env.connect("policy", STANDIN_IDS.outsider);
    const reply = await env.standin.waitForEphemeral(STANDIN_IDS.outsider, (m) =>
      m.text.includes("Every order needs"),
    );
    const shown = readable((reply.blocks ?? []) as KnownBlock[]);
    expect(shown).toContain("could not be checked: Slack did not answer (usergroups.list:");
    // The approvers as Slack shows them: the group by its handle, never a raw "S0…" id.
    expect(shown).toContain(`<!subteam^${STANDIN_IDS.approverGroup}>`);
    expect(shown).not.toContain(`user group \`${STANDIN_IDS.approverGroup}\``);
  });
});

describe("an approver whose user group cannot be read", () => {
  let env: TestBot;
  let client: WebClient;
  beforeAll(async () => {
    env = await startTestBot();
    client = new WebClient(env.standin.botToken, {
      slackApiUrl: env.standin.apiUrl,
      retryConfig: { retries: 0 },
    });
  });
  afterAll(async () => {
    await env?.close();
  });

  it("is told the real cause, not 'try again', and the log carries it", async () => {
    const sandbox = env.bot.sandbox!;
    const dcf = sandbox.state.world.dcfs.find(
      (d) => d.ready && d.kind === "ON_NET" && !d.edge && d.speeds.length > 0,
    );
    if (!dcf) throw new Error("the sandbox has no ready on-net DCF");
    const submitted = await submitForApproval({
      services: env.bot.services,
      client,
      submission: portOrderRequest({
        portName: "directory-cause-1",
        companyUsername: (await env.bot.services.identity()).companyUsername,
        dataCenterFacility: dcf.username,
        speed: String(dcf.speeds[0]),
      }),
    });
    if (!submitted.ok) throw new Error("not submitted");
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("directory-cause-1"),
    );
    const grace = STANDIN_IDS.groupApprover;

    // The group is deleted in Slack after start-up: Grace approves only through it.
    const group = env.standin.workspace.userGroups.get(STANDIN_IDS.approverGroup)!;
    env.standin.workspace.userGroups.delete(STANDIN_IDS.approverGroup);
    await env.slack.clickButton({ userId: grace, message: request, actionId: "approval_approve" });
    const missing = await env.standin.waitForEphemeral(grace, (m) => m.text.includes("I can't"));
    expect(missing.text).toContain(
      `the user group \`${STANDIN_IDS.approverGroup}\`, which does not exist in this Slack workspace`,
    );
    expect(missing.text).toContain("no_such_subteam");
    expect(missing.text).toContain("Trying again will not help");
    expect(missing.text).not.toContain("try again in a minute");
    const logged = env.logLines.find(
      (line) => line.includes('"audit":"approval"') && line.includes("no_such_subteam"),
    );
    expect(logged).toContain(`approver check failed: user group ${STANDIN_IDS.approverGroup}`);

    // The group is back, but the bot may not read groups (a scope an admin must add).
    env.standin.workspace.userGroups.set(group.id, group);
    env.standin.failNext("usergroups.users.list", { error: "missing_scope" });
    await env.slack.clickButton({ userId: grace, message: request, actionId: "approval_approve" });
    const scope = await env.standin.waitForEphemeral(grace, (m) =>
      m.text.includes("missing_scope"),
    );
    expect(scope.text).toContain("usergroups:read");

    // Slack failing on its side: this one can be tried again.
    env.standin.failNext("usergroups.users.list", { error: "fatal_error" });
    await env.slack.clickButton({ userId: grace, message: request, actionId: "approval_approve" });
    const down = await env.standin.waitForEphemeral(grace, (m) =>
      m.text.includes("couldn't reach"),
    );
    expect(down.text).toContain("try again in a minute");
    expect((await env.bot.services.approvals.store.get(submitted.approval.id))?.status).toBe(
      "pending",
    );
  });
});
