import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dcf } from "../../src/provider/api.js";
import type { StandinMessage, StepExecution } from "../../src/standin/index.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";

// Workflow Builder custom steps (issue 30) end to end: Slack's signed `function_executed`
// events into the bot over HTTP, the embedded sandbox as the provider, the Slack stand-in as
// Slack (which issues each run its own token and records how the bot ends it).

const REQUESTER = STANDIN_IDS.requester;

function isOffNet(dcf: Dcf): boolean {
  return (dcf.tags ?? []).some((t) => /off|ext/i.test(t));
}

describe("Workflow Builder steps, end to end over signed HTTP", () => {
  let env: TestBot;
  let dcf: Dcf & { username: string };
  let speed: number;
  let existingPortName: string;

  beforeAll(async () => {
    env = await startTestBot();
    const provider = env.bot.services.provider;
    const dcfs = await provider.listDcfs({ where: { "dataCenterFacility.ready": true } });
    const found = dcfs.find(
      (d) => !isOffNet(d) && (d.dataCenterFacility?.speeds?.length ?? 0) > 1 && d.username,
    );
    if (!found?.username) throw new Error("the sandbox has no on-net DCF with speeds");
    dcf = found as Dcf & { username: string };
    speed = Number(found.dataCenterFacility?.speeds?.[0]);
    const company = (await env.bot.services.identity()).companyUsername;
    const ports = await provider.listPorts(company, { deleted: false });
    const named = ports.find((p) => typeof p.name === "string" && p.name.trim() !== "");
    if (!named?.name) throw new Error("the sandbox company has no named port");
    existingPortName = named.name;
  });
  afterAll(async () => {
    await env?.close();
  });

  async function sandboxCalls(operation: string): Promise<number> {
    const url = `${env.bot.sandbox!.url}/__sandbox/requests?summary=1`;
    const summary = (await (await fetch(url)).json()) as { byOperation: Record<string, number> };
    return summary.byOperation[operation] ?? 0;
  }

  async function run(callbackId: string, inputs: Record<string, unknown>) {
    const sent = await env.slack.runStep(callbackId, inputs);
    expect(sent.status).toBe(200);
    return sent.run;
  }

  async function ended(run: StepExecution, timeoutMs = 10_000): Promise<StepExecution> {
    return env.standin.waitForStepEnd(run.executionId, { timeoutMs });
  }

  async function requestsStored(): Promise<number> {
    return (await env.bot.services.approvals.store.list({ limit: 1000 })).length;
  }

  /** The approval message of a request step's request. */
  async function approvalMessage(portName: string): Promise<StandinMessage> {
    return env.standin.waitForMessage(STANDIN_IDS.approvals, (m) => m.text.includes(portName));
  }

  function portOrderInputs(portName: string, extra: Record<string, unknown> = {}) {
    return {
      requester: REQUESTER,
      data_center: dcf.username,
      speed_mbps: speed,
      term_months: 12,
      port_name: portName,
      ...extra,
    };
  }

  it("price_port answers the price at once, ended with the step's own token", async () => {
    const pricedBefore = await sandboxCalls("calculatePricing");
    const step = await run("price_port", {
      data_center: dcf.username,
      speed_mbps: speed,
      term_months: 12,
    });
    const end = await ended(step);
    expect(end.end.state).toBe("completed");
    if (end.end.state !== "completed") return;
    const outputs = end.end.outputs;
    expect(outputs.currency).toBe("USD");
    expect(typeof outputs.monthly_price).toBe("number");
    expect(outputs.total_price).toBe((outputs.monthly_price as number) * 12);
    expect(String(outputs.summary)).toContain(dcf.username);
    // Bolt's complete() used the token Slack gave this run, not the bot token.
    const call = env.standin
      .calls("functions.completeSuccess")
      .find((c) => c.args.function_execution_id === step.executionId);
    expect(call?.token).toBe(step.token);
    expect(end.completions).toEqual([{ method: "functions.completeSuccess", ok: true }]);
    // The counter under test counts: the good input was priced by the provider.
    expect(await sandboxCalls("calculatePricing")).toBe(pricedBefore + 1);
  });

  it("price_port names an unknown data center and a speed not offered", async () => {
    const unknown = await ended(
      await run("price_port", { data_center: "atlantis-9", speed_mbps: speed, term_months: 12 }),
    );
    expect(unknown.end).toEqual({
      state: "failed",
      error: expect.stringContaining('Unknown data center "atlantis-9"'),
    });
    const pricedBefore = await sandboxCalls("calculatePricing");
    const slow = await ended(
      await run("price_port", { data_center: dcf.username, speed_mbps: 7, term_months: 12 }),
    );
    expect(slow.end.state).toBe("failed");
    if (slow.end.state === "failed") {
      expect(slow.end.error).toContain("does not offer 7 Mbps");
      expect(slow.end.error).toContain("choose one of");
    }
    // Whatever a person typed comes back inert (‹ ›, not `&lt;`: the run history is plain
    // text), so a workflow that posts the error in a channel pings nobody.
    const hostile = await ended(
      await run("price_port", { data_center: "<!channel>", speed_mbps: speed, term_months: 12 }),
    );
    expect(hostile.end).toEqual({
      state: "failed",
      error: expect.stringContaining('"‹!channel›"'),
    });
    const term = await ended(
      await run("price_port", { data_center: dcf.username, speed_mbps: speed, term_months: 36 }),
    );
    expect(term.end).toEqual({ state: "failed", error: expect.stringContaining("not 36 months") });
    expect(await sandboxCalls("calculatePricing")).toBe(pricedBefore);
  });

  it("price_layer2 prices between two data centers", async () => {
    const provider = env.bot.services.provider;
    const dcfs = await provider.listDcfs({ where: { "dataCenterFacility.ready": true } });
    const other = dcfs.find((d) => d.username && d.id !== dcf.id && !isOffNet(d));
    const end = await ended(
      await run("price_layer2", {
        source: dcf.username,
        destination: other?.username,
        bandwidth_mbps: 500,
        term_months: 12,
      }),
    );
    expect(end.end.state).toBe("completed");
    if (end.end.state !== "completed") return;
    expect(end.end.outputs.currency).toBe("USD");
    expect(end.end.outputs.total_price).toBeGreaterThan(0);
    expect(String(end.end.outputs.summary)).toContain("500 Mbps");
  });

  it("order_status answers a port order's status, and names an id it cannot find", async () => {
    const company = (await env.bot.services.identity()).companyUsername;
    const order = await env.bot.services.provider.createPortOrder(company, {
      dataCenterFacility: dcf.username,
      speed: String(speed),
      durationUnit: "y",
      portName: "step-status-1",
      paymentType: "invoice",
    });
    const end = await ended(await run("order_status", { order_id: order.id }));
    expect(end.end.state).toBe("completed");
    if (end.end.state === "completed") {
      expect(end.end.outputs.status).toBe(order.status);
      expect(String(end.end.outputs.summary)).toContain("step-status-1");
      expect(Number.isNaN(Date.parse(String(end.end.outputs.updated_at)))).toBe(false);
    }
    const missing = await ended(await run("order_status", { order_id: "no-such-order-1" }));
    expect(missing.end).toEqual({
      state: "failed",
      error: expect.stringContaining('"no-such-order-1"'),
    });
  });

  it("bad request inputs end the step with the reason, store nothing and order nothing", async () => {
    const stored = await requestsStored();
    const ordered = await sandboxCalls("createPortOrder");
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        portOrderInputs("step-bad-1", { data_center: "atlantis-9" }),
        'Unknown data center "atlantis-9"',
      ],
      [portOrderInputs("step-bad-2", { speed_mbps: 7 }), "does not offer 7 Mbps"],
      [portOrderInputs(existingPortName), `already has a port named "${existingPortName}"`],
      [portOrderInputs("step-bad-3", { requester: "not-a-person" }), "Requester must be a person"],
      [
        portOrderInputs("step-bad-4", { speed_mbps: "fast" }),
        "Speed (Mbps) must be a whole number",
      ],
    ];
    for (const [inputs, error] of cases) {
      const end = await ended(await run("request_port_order", inputs));
      expect(end.end, error).toEqual({ state: "failed", error: expect.stringContaining(error) });
    }
    expect(await requestsStored()).toBe(stored);
    expect(await sandboxCalls("createPortOrder")).toBe(ordered);
  });

  it("approved: the step waits, then ends with the provider's order id once placed", async () => {
    const step = await run(
      "request_port_order",
      portOrderInputs("step-approve-1", { channel: STANDIN_IDS.general }),
    );
    const message = await approvalMessage("step-approve-1");
    // The card and its thread go to the workflow's channel.
    const card = await env.standin.waitForMessage(STANDIN_IDS.general, (m) =>
      m.text.includes("step-approve-1"),
    );
    // The card's place is recorded just after it is posted.
    const record = await waitFor(
      async () =>
        (await env.bot.services.approvals.store.list({ limit: 100 })).find(
          (r) => r.title === "step-approve-1" && r.slack.cardTs !== undefined,
        ),
      { description: "the request with its card recorded" },
    );
    expect(record?.step).toEqual({
      executionId: step.executionId,
      callbackId: "request_port_order",
    });
    expect(record?.slack.cardChannel).toBe(STANDIN_IDS.general);
    expect(card.ts).toBe(record?.slack.cardTs);
    expect(env.standin.stepRun(step.executionId)?.end.state).toBe("running");

    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message,
      actionId: "approval_approve",
    });
    const end = await ended(step, 20_000);
    const placed = await env.bot.services.approvals.store.get(record!.id);
    expect(placed?.status).toBe("placed");
    expect(end.end).toEqual({
      state: "completed",
      outputs: {
        request_id: record!.id,
        order_id: placed?.result?.providerId,
        status: placed?.result?.status,
        summary: expect.stringContaining("step-approve-1"),
      },
    });
    expect(placed?.result?.providerId).toMatch(/\S/);
    expect(end.completions).toEqual([{ method: "functions.completeSuccess", ok: true }]);
    const call = env.standin
      .calls("functions.completeSuccess")
      .find((c) => c.args.function_execution_id === step.executionId);
    expect(call?.token).toBe(step.token);
    // The step's token is a secret: never logged (the bot logs at debug level here).
    expect(env.logLines.some((line) => line.includes(step.token))).toBe(false);
  });

  it("request_layer2_connection: port to port by name, approved, ends with the connection's id", async () => {
    const step = await run("request_layer2_connection", {
      requester: REQUESTER,
      source_port: "nyc-edge-01",
      destination: "iad-core-01",
      bandwidth_mbps: 100,
      term_months: 12,
      connection_name: "step-l2-1",
      channel: STANDIN_IDS.general,
    });
    const message = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.text.includes("step-l2-1") && !m.thread_ts,
      { timeoutMs: 10_000 },
    );
    expect(env.standin.stepRun(step.executionId)?.end.state).toBe("running");
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message,
      actionId: "approval_approve",
    });
    const end = await ended(step, 20_000);
    const record = (await env.bot.services.approvals.store.list({ limit: 100 })).find(
      (r) => r.kind === "layer2" && r.reconcileKey === "step-l2-1",
    );
    expect(record?.status).toBe("placed");
    expect(record?.step?.callbackId).toBe("request_layer2_connection");
    expect(end.end).toEqual({
      state: "completed",
      outputs: expect.objectContaining({
        request_id: record?.id,
        order_id: record?.result?.providerId,
      }),
    });
    expect(record?.result?.providerId).toMatch(/\S/);
  });

  /** A ready data center in a layer 2 metro, for a business-to-business destination. */
  async function layer2Dcf(): Promise<Dcf & { username: string }> {
    const company = (await env.bot.services.identity()).companyUsername;
    const metros = await env.bot.services.provider.listMetroCapabilities(company);
    const metro = metros.find((m) => m.capabilities?.layer2 === true && m.code === "AMS");
    const metroIds = new Set(
      (metro ? [metro] : metros.filter((m) => m.capabilities?.layer2 === true)).map((m) => m.id),
    );
    const dcfs = await env.bot.services.provider.listDcfs({
      where: { "dataCenterFacility.ready": true },
    });
    const found = dcfs.find(
      (d) => d.username && metroIds.has(d.dataCenterFacility?.metroId ?? "") && !isOffNet(d),
    );
    if (!found?.username) throw new Error("the sandbox has no data center in a layer 2 metro");
    return found as Dcf & { username: string };
  }

  it("request_layer2_connection: business to business as <company> @ <data center>, approved, ends with the connection's id", async () => {
    const destDcf = await layer2Dcf();
    const created = await sandboxCalls("createLayer2Connection");
    const step = await run("request_layer2_connection", {
      requester: REQUESTER,
      source_port: "lon-core-01",
      destination: `globex-cloud @ ${destDcf.username}`,
      bandwidth_mbps: 100,
      term_months: 12,
      connection_name: "step-l2-b2b-1",
    });
    const message = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.text.includes("step-l2-b2b-1") && !m.thread_ts,
      { timeoutMs: 10_000 },
    );
    const approvalText = JSON.stringify(message.blocks);
    expect(approvalText).toContain("globex-cloud");
    expect(approvalText).toContain("Business-to-business");
    expect(env.standin.stepRun(step.executionId)?.end.state).toBe("running");
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message,
      actionId: "approval_approve",
    });
    const end = await ended(step, 20_000);
    const record = (await env.bot.services.approvals.store.list({ limit: 100 })).find(
      (r) => r.kind === "layer2" && r.reconcileKey === "step-l2-b2b-1",
    );
    expect(record?.status).toBe("placed");
    expect(end.end).toEqual({
      state: "completed",
      outputs: expect.objectContaining({
        request_id: record?.id,
        order_id: record?.result?.providerId,
      }),
    });
    expect(record?.result?.providerId).toMatch(/\S/);
    expect(end.completions).toEqual([{ method: "functions.completeSuccess", ok: true }]);
    expect((await sandboxCalls("createLayer2Connection")) - created).toBe(1);
    // The provider got the business-to-business request: the company, the data center, its
    // metro and that metro's region, as the form sends them.
    const company = (await env.bot.services.identity()).companyUsername;
    const metro = (await env.bot.services.provider.listMetroCapabilities(company)).find(
      (m) => m.id === destDcf.dataCenterFacility?.metroId,
    );
    const service = [...env.bot.sandbox!.state.services.values()].find(
      (s) => s.name === "step-l2-b2b-1",
    );
    expect(service?.request).toMatchObject({
      destCompany: "globex-cloud",
      destDcf: destDcf.id,
      destMetroId: metro?.id,
      destRegionId: metro?.regionIds?.[0],
    });
    expect(service?.request).not.toHaveProperty("destPortId");
  });

  it("request_layer2_connection business to business: an unknown company, an unknown or ambiguous data center is named, nothing stored or ordered", async () => {
    const destDcf = await layer2Dcf();
    const stored = await requestsStored();
    const created = await sandboxCalls("createLayer2Connection");
    const base = {
      requester: REQUESTER,
      source_port: "lon-core-01",
      bandwidth_mbps: 100,
      term_months: 12,
      connection_name: "step-l2-b2b-bad",
    };
    const unknownCompany = await ended(
      await run("request_layer2_connection", {
        ...base,
        destination: `globex-clowd @ ${destDcf.username}`,
      }),
    );
    expect(unknownCompany.end).toEqual({
      state: "failed",
      error: expect.stringContaining('no company with the username "globex-clowd"'),
    });
    const unknownDcf = await ended(
      await run("request_layer2_connection", {
        ...base,
        destination: "globex-cloud @ nowhere-dc-9",
      }),
    );
    expect(unknownDcf.end).toEqual({
      state: "failed",
      error: expect.stringContaining('Unknown destination data center "nowhere-dc-9"'),
    });
    const notUsername = await ended(
      await run("request_layer2_connection", {
        ...base,
        destination: `Globex Cloud Inc @ ${destDcf.username}`,
      }),
    );
    expect(notUsername.end).toEqual({
      state: "failed",
      error: expect.stringContaining('"Globex Cloud Inc" is not a company username'),
    });
    // Several data centers answer to an airport code: the error names them and asks for one.
    const ambiguous = await ended(
      await run("request_layer2_connection", { ...base, destination: "globex-cloud @ AMS" }),
    );
    expect(ambiguous.end).toEqual({
      state: "failed",
      error: expect.stringMatching(
        /^Destination: "AMS" matches \d+ data centers \(.+\): give the destination data center by its username$/,
      ),
    });
    // A data center in a metro without layer 2: said before the provider is asked.
    const company = (await env.bot.services.identity()).companyUsername;
    const without = new Set(
      (await env.bot.services.provider.listMetroCapabilities(company))
        .filter((m) => m.capabilities?.layer2 !== true)
        .map((m) => m.id),
    );
    const elsewhere = (
      await env.bot.services.provider.listDcfs({ where: { "dataCenterFacility.ready": true } })
    ).find((d) => d.username && without.has(d.dataCenterFacility?.metroId ?? ""));
    if (!elsewhere?.username) throw new Error("the sandbox has no DCF in a metro without layer 2");
    const noLayer2 = await ended(
      await run("request_layer2_connection", {
        ...base,
        destination: `globex-cloud @ ${elsewhere.username}`,
      }),
    );
    expect(noLayer2.end).toEqual({
      state: "failed",
      error: expect.stringContaining("where layer 2 is not offered"),
    });
    expect(await requestsStored()).toBe(stored);
    expect(await sandboxCalls("createLayer2Connection")).toBe(created);
  });

  it("request_layer2_connection refuses a source port the company does not have", async () => {
    const stored = await requestsStored();
    const end = await ended(
      await run("request_layer2_connection", {
        requester: REQUESTER,
        source_port: "no-such-port",
        destination: "iad-core-01",
        bandwidth_mbps: 100,
        term_months: 12,
        connection_name: "step-l2-bad",
      }),
    );
    expect(end.end).toEqual({
      state: "failed",
      error: expect.stringContaining('no port with the id or name "no-such-port"'),
    });
    expect(await requestsStored()).toBe(stored);
  });

  it("rejected: the step ends with the approver's name and reason", async () => {
    const step = await run("request_port_order", portOrderInputs("step-reject-1"));
    const message = await approvalMessage("step-reject-1");
    // Without a channel the card goes to the requester's DM.
    await env.standin.waitForMessage(REQUESTER, (m) => m.text.includes("step-reject-1"));
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message,
      actionId: "approval_reject",
    });
    await env.standin.waitForView(
      STANDIN_IDS.approver,
      (v) => v.view.callback_id === "approval_reject_reason",
    );
    await env.slack.fillView(STANDIN_IDS.approver, { Reason: "budget frozen this quarter" });
    await env.slack.submitView(STANDIN_IDS.approver);
    const end = await ended(step);
    expect(end.end.state).toBe("failed");
    if (end.end.state === "failed") {
      // Slack's @name is the person's display name (the stand-in's Alex: alex.approver).
      const alex = env.standin.workspace.users.get(STANDIN_IDS.approver)?.profile?.display_name;
      expect(end.end.error).toMatch(
        new RegExp(`^Rejected by @${alex}: budget frozen this quarter`),
      );
    }
  });

  it("withdrawn: the step ends with an error saying so, and nothing is ordered", async () => {
    const ordered = await sandboxCalls("createPortOrder");
    const step = await run("request_port_order", portOrderInputs("step-withdraw-1"));
    await approvalMessage("step-withdraw-1");
    const record = (await env.bot.services.approvals.store.list({ limit: 100 })).find(
      (r) => r.title === "step-withdraw-1",
    );
    await env.connect(`withdraw ${record!.id}`);
    const end = await ended(step);
    const rita = env.standin.workspace.users.get(REQUESTER)?.profile?.display_name;
    expect(end.end).toEqual({
      state: "failed",
      error: expect.stringMatching(new RegExp(`^Withdrawn by @${rita} before it was approved`)),
    });
    expect(await sandboxCalls("createPortOrder")).toBe(ordered);
  });

  it("provider refusal: the step ends with the provider's reason", async () => {
    env.bot.sandbox!.faults.add({
      match: "PUT /api/company/*/ports/orders",
      status: 400,
      times: 1,
    });
    const step = await run("request_port_order", portOrderInputs("step-refused-1"));
    const message = await approvalMessage("step-refused-1");
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message,
      actionId: "approval_approve",
    });
    const end = await ended(step, 20_000);
    expect(end.end.state).toBe("failed");
    if (end.end.state === "failed") {
      expect(end.end.error).toContain("The provider did not place the order");
    }
  });

  it("a step Slack has ended already: the request goes on and the thread says so", async () => {
    const step = await run("request_port_order", portOrderInputs("step-gone-1"));
    const message = await approvalMessage("step-gone-1");
    const card = await env.standin.waitForMessage(REQUESTER, (m) => m.text.includes("step-gone-1"));
    env.standin.endStepBySlack(step.executionId);
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message,
      actionId: "approval_approve",
    });
    const note = await env.standin.waitForMessage(
      REQUESTER,
      (m) => m.thread_ts === card.ts && m.text.includes("no longer waits"),
      { timeoutMs: 20_000 },
    );
    expect(note.text).toContain("step-gone-1");
    const record = (await env.bot.services.approvals.store.list({ limit: 100 })).find(
      (r) => r.title === "step-gone-1",
    );
    expect(record?.status).toBe("placed");
    expect(env.standin.stepRun(step.executionId)?.completions).toEqual([
      { method: "functions.completeSuccess", ok: false, error: "execution_not_in_running_state" },
    ]);
  });

  it("the stand-in refuses to end a step with any token but its own", async () => {
    const step = env.standin.workspace.functions.start("price_port", {});
    const call = (token: string) =>
      fetch(`${env.standin.apiUrl}functions.completeSuccess`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ function_execution_id: step.executionId, outputs: {} }),
      }).then((r) => r.json() as Promise<{ ok: boolean; error?: string }>);
    expect(await call(env.standin.botToken)).toEqual({ ok: false, error: "invalid_auth" });
    expect(await call(step.token)).toEqual({ ok: true });
    expect(await call(step.token)).toEqual({
      ok: false,
      error: "execution_not_in_running_state",
    });
  });
});

describe("Workflow Builder steps over Socket Mode", () => {
  let env: TestBot;

  beforeAll(async () => {
    // Only Rita may request here: a step naming anyone else is refused like a form would be.
    env = await startTestBot({
      env: {
        SLACK_APP_TOKEN: "xapp-steps-socket-token",
        REQUESTERS: `${REQUESTER},${STANDIN_IDS.approverGroup}`,
      },
    });
    await env.standin.waitForSocketConnection();
  });
  afterAll(async () => {
    await env?.close();
  });

  it("price_port and a bad request_port_order arrive as events_api envelopes", async () => {
    const socket = env.standin.socketDriver();
    const dcfs = await env.bot.services.provider.listDcfs({
      where: { "dataCenterFacility.ready": true },
    });
    const dcf = dcfs.find((d) => d.username && (d.dataCenterFacility?.speeds?.length ?? 0) > 0);
    const priced = await socket.runStep("price_port", {
      data_center: dcf?.username,
      speed_mbps: Number(dcf?.dataCenterFacility?.speeds?.[0]),
      term_months: 1,
    });
    const end = await env.standin.waitForStepEnd(priced.run.executionId, { timeoutMs: 10_000 });
    expect(end.end.state).toBe("completed");
    const refused = await socket.runStep("request_port_order", {
      requester: REQUESTER,
      data_center: "atlantis-9",
      speed_mbps: 1000,
      term_months: 12,
      port_name: "socket-bad-1",
    });
    const failed = await env.standin.waitForStepEnd(refused.run.executionId);
    expect(failed.end).toEqual({
      state: "failed",
      error: expect.stringContaining('Unknown data center "atlantis-9"'),
    });
  });

  it("a requester who may not request: the step ends with why, nothing stored", async () => {
    const socket = env.standin.socketDriver();
    const dcfs = await env.bot.services.provider.listDcfs({
      where: { "dataCenterFacility.ready": true },
    });
    const dcf = dcfs.find(
      (d) =>
        d.username &&
        (d.dataCenterFacility?.speeds?.length ?? 0) > 0 &&
        !(d.tags ?? []).some((t) => /off|ext/i.test(t)),
    );
    const sent = await socket.runStep("request_port_order", {
      requester: STANDIN_IDS.outsider,
      data_center: dcf?.username,
      speed_mbps: Number(dcf?.dataCenterFacility?.speeds?.[0]),
      term_months: 12,
      port_name: "socket-outsider-1",
    });
    const end = await env.standin.waitForStepEnd(sent.run.executionId, { timeoutMs: 10_000 });
    // Plain text in the run history: the requesters by name and handle, not <@U…> or &lt;@U…&gt;.
    const rita = env.standin.workspace.users.get(REQUESTER)?.profile?.display_name;
    expect(rita).toMatch(/\S/);
    expect(end.end).toEqual({
      state: "failed",
      error: `You are not allowed to request orders. Requesters: @${rita}, @network-approvers.`,
    });
    expect(await env.bot.services.approvals.store.list({ limit: 10 })).toEqual([]);
  });
});
