import type { KnownBlock } from "@slack/types";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dcfRef } from "../../src/domain/catalog/dcfs.js";
import type { Dcf } from "../../src/provider/api.js";
import type { StandinMessage } from "../../src/standin/types.js";
import { IOD_BLOCKS, IOD_ROUTING_NOTE_BLOCK } from "../../views/iod/iodModal.js";
import { PORT_ORDER_BLOCKS, PORT_ORDER_VIEW } from "../../views/portOrder/portOrderModal.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";
import { readable } from "../views/support.js";

/**
 * Issue 29, item 2: a request the provider refused gave its name back in the store, yet the port
 * form still said "already waiting or being ordered" (three taken-name rules with different
 * status lists). Now one rule (src/approvals/names.ts) serves every form. For each kind, through
 * signed requests: the form is submitted, approved, the provider refuses the order (a sandbox
 * fault answering 400 once), and the same name submitted again through the form is accepted.
 */
const USER = STANDIN_IDS.requester;

describe("a refused request's name is accepted again by the form", () => {
  let env: TestBot;

  beforeAll(async () => {
    env = await startTestBot({
      sandbox: { edgeQuote: { readyAfterPolls: 1, readyAfterMs: 3_600_000 } },
      jobs: { quoteSettings: { firstDelayMs: 50, maxDelayMs: 200 } },
    });
  });
  afterAll(async () => {
    await env?.close();
  });
  afterEach(() => {
    env.bot.sandbox!.faults.clear();
  });

  const company = async () => (await env.bot.services.identity()).companyUsername;
  const ownPort = async (name: string) => {
    const ports = await env.bot.services.provider.listPorts(await company(), { deleted: false });
    const port = ports.find((p) => p.name === name);
    if (!port) throw new Error(`the sandbox has no port ${name}`);
    return port;
  };
  const requestsNamed = async (name: string) =>
    (await env.bot.services.approvals.store.list({ limit: 1000 })).filter(
      (r) => r.reconcileKey === name,
    );

  /**
   * The open form submitted (accepted), approved, refused by the provider once (`refuse`: the
   * create call's method and path): the request ends failed.
   */
  async function refusedOnce(name: string, refuse: string, submit: () => Promise<unknown>) {
    env.bot.sandbox!.faults.add({ match: refuse, status: 400, times: 1 });
    await submit();
    const request: StandinMessage = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => !m.thread_ts && m.text.includes(name),
    );
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: request,
      actionId: "approval_approve",
    });
    await waitFor(async () => (await requestsNamed(name)).some((r) => r.status === "failed"), {
      timeoutMs: 15_000,
      description: "the provider's refusal recorded",
    });
  }

  /** The same name submitted again: accepted (the form closes), a new pending request. */
  async function acceptedAgain(name: string, submit: () => Promise<{ errors?: unknown }>) {
    const again = await submit();
    expect(again.errors, "the form's answer to the same name").toBeUndefined();
    await waitFor(async () => (await requestsNamed(name)).some((r) => r.status === "pending"), {
      description: "a new request under the same name",
    });
    expect((await requestsNamed(name)).map((r) => r.status).sort()).toEqual(["failed", "pending"]);
  }

  it("port order", async () => {
    const name = "refused-port-1";
    const dcfs = await env.bot.services.provider.listDcfs({
      where: { "dataCenterFacility.ready": true },
    });
    const dcf = dcfs.find(
      (d: Dcf) =>
        d.username &&
        (d.dataCenterFacility?.speeds ?? []).map(Number).includes(10000) &&
        !(d.tags ?? []).some((t) => /off|ext/i.test(t)),
    );
    if (!dcf) throw new Error("the sandbox has no on-net DCF offering 10G");
    const fill = async () => {
      expect((await env.connect("port order")).status).toBe(200);
      const form = await env.standin.waitForView(
        USER,
        (v) => v.view.callback_id === PORT_ORDER_VIEW,
      );
      await env.slack.fillView(USER, {
        "Data center": { query: dcf.name ?? dcf.username ?? "", pick: dcfRef(dcf) },
      });
      await env.standin.waitForView(USER, (v) =>
        JSON.stringify(v.view.blocks).includes(PORT_ORDER_BLOCKS.speed),
      );
      const values = await env.slack.fillView(USER, {
        Speed: "10G",
        Term: "1 year (12 months)",
        "Port name": name,
      });
      return env.slack.submitView(USER, form.view.id, values);
    };
    await refusedOnce(name, "PUT /api/company/*/ports/orders", fill);
    await acceptedAgain(name, fill);

    // The failed request's message still offers Retry (nothing changed on it): a click is
    // refused, naming the request that holds the name, and the message then offers it no more.
    const failed = (await requestsNamed(name)).find((r) => r.status === "failed")!;
    const message = () =>
      env.standin.messages(STANDIN_IDS.approvals).find((m) => m.ts === failed.slack.approvalTs)!;
    expect(JSON.stringify(message().blocks)).toContain("approval_retry");
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: message(),
      actionId: "approval_retry",
    });
    await env.standin.waitForEphemeral(STANDIN_IDS.approver, (m) =>
      m.text.includes(`has asked for the name "${name}" since`),
    );
    await waitFor(() => !JSON.stringify(message().blocks).includes("approval_retry"), {
      timeoutMs: 15_000,
      description: "the failed request's message without Retry",
    });
    expect((await env.bot.services.approvals.store.get(failed.id))?.status).toBe("failed");
  });

  it("layer 2 connection", async () => {
    const name = "refused-l2-1";
    const source = await ownPort("nyc-edge-01");
    const destination = await ownPort("iad-core-01");
    const fill = async () => {
      expect((await env.connect("l2")).status).toBe(200);
      await env.slack.fillView(USER, {
        "Source port": source.id,
        "Destination port": destination.id,
        Bandwidth: "100",
        Duration: "12",
        "Connection name": name,
      });
      await env.standin.waitForView(USER, (v) =>
        readable(v.view.blocks as KnownBlock[]).includes("Layer 2 price"),
      );
      return env.slack.submitView(USER);
    };
    await refusedOnce(name, "PUT /api/v2/company/*/connections/layer2", fill);
    await acceptedAgain(name, fill);
  });

  it("IO-D service", async () => {
    const name = "refused-iod-1";
    const access = await ownPort("nyc-edge-01");
    const fill = async () => {
      expect((await env.connect("iod")).status).toBe(200);
      await env.standin.waitForView(USER, (v) =>
        v.view.blocks.some((b) => (b as { block_id?: string }).block_id === IOD_BLOCKS.accessPort),
      );
      await env.slack.fillView(USER, { "Access port": access.id, Routing: "STATIC" });
      await env.standin.waitForView(USER, (v) =>
        v.view.blocks.some((b) => (b as { block_id?: string }).block_id === IOD_ROUTING_NOTE_BLOCK),
      );
      await env.slack.fillView(USER, {
        "IPv4 block": "/29",
        "Rate limit": "50",
        Duration: "1",
        "Service name": name,
      });
      return env.slack.submitView(USER);
    };
    await refusedOnce(name, "POST /app-user/*/gia-service", fill);
    await acceptedAgain(name, fill);
  });

  it("Edge port", async () => {
    const name = "refused-edge-1";
    await env.connect("edge quote");
    await env.standin.waitForView(
      USER,
      (v) => v.view.callback_id === "edge_quote" && v.view.submit !== undefined,
    );
    await env.slack.fillView(USER, {
      Country: "Netherlands",
      Bandwidth: "200 Mbps",
      "Contract term": "36 months",
      Address: "Dam 2, Amsterdam",
    });
    expect((await env.slack.submitView(USER)).errors).toBeUndefined();
    const quote = await env.standin.waitForMessage(
      STANDIN_IDS.general,
      (m) => m.thread_ts !== undefined && m.text.startsWith("Edge quote ready"),
      { timeoutMs: 15_000 },
    );
    const fill = async () => {
      await env.slack.clickButton({ userId: USER, message: quote, actionId: "edge_quote_order" });
      await env.standin.waitForView(
        USER,
        (v) => v.view.callback_id === "edge_order" && v.view.submit !== undefined,
      );
      await env.slack.fillView(USER, { "Port name": name });
      return env.slack.submitView(USER);
    };
    await refusedOnce(name, "POST /api/company/*/ports/edge-orders", fill);
    await acceptedAgain(name, fill);
  });
});
