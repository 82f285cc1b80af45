import type { ViewStateValue } from "@slack/bolt";
import type { KnownBlock } from "@slack/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dcfRef } from "../../src/domain/catalog/dcfs.js";
import { formatMoney as moneyIn } from "../../src/domain/money.js";
import type { Dcf } from "../../src/provider/api.js";
import type { StandinView } from "../../src/standin/index.js";
import { formatSpeed } from "../../views/format.js";

/** Amounts as the bot shows them: the harness sets no PRICE_CURRENCY, so USD. */
const formatMoney = (amount: unknown) => moneyIn(amount, "USD") ?? "—";

import {
  PORT_ORDER_ACTIONS,
  PORT_ORDER_BLOCKS,
  PORT_ORDER_LOA_BLOCK,
  PORT_ORDER_PRICE_BLOCK,
  PORT_ORDER_VIEW,
} from "../../views/portOrder/portOrderModal.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { readable } from "../views/support.js";

// `/connect port order` end to end: signed slash command, options loads and block actions into
// the bot over HTTP, the embedded sandbox as the provider, the Slack stand-in as Slack. Expected
// values come from the sandbox's own answers.

const USER = STANDIN_IDS.requester;

type Block = Record<string, unknown>;

function blocksOf(view: StandinView): Block[] {
  return view.view.blocks as unknown as Block[];
}

function blockById(view: StandinView, blockId: string): Block | undefined {
  return blocksOf(view).find((b) => b.block_id === blockId);
}

/** The values of the Speed options the person can pick, or undefined without a Speed input. */
function speedValues(view: StandinView): string[] | undefined {
  const block = blockById(view, PORT_ORDER_BLOCKS.speed) as
    | { element: { options: Array<{ value: string }> } }
    | undefined;
  return block?.element.options.map((o) => o.value);
}

function textOf(block: Block | undefined): string {
  return block ? readable([block as unknown as KnownBlock]) : "";
}

function labels(view: StandinView): string[] {
  return blocksOf(view)
    .filter((b) => b.type === "input")
    .map((b) => (b.label as { text: string }).text);
}

function isOffNet(dcf: Dcf): boolean {
  return (dcf.tags ?? []).some((t) => /off|ext/i.test(t));
}

describe("/connect port order, end to end", () => {
  let env: TestBot;
  let companyUsername: string;
  let onNet: Dcf;
  let offNet: Dcf;
  let existingPortName: string;

  beforeAll(async () => {
    env = await startTestBot();
    const provider = env.bot.services.provider;
    companyUsername = (await env.bot.services.identity()).companyUsername;
    const dcfs = await provider.listDcfs({ where: { "dataCenterFacility.ready": true } });
    const speedsOf = (d: Dcf) => (d.dataCenterFacility?.speeds ?? []).map(Number);
    const found = dcfs.find((d) => !isOffNet(d) && speedsOf(d).includes(100000) && d.username);
    const far = dcfs.find((d) => isOffNet(d) && speedsOf(d).length > 0 && d.username);
    if (!found || !far) throw new Error("the sandbox has no on-net and off-net DCFs with speeds");
    onNet = found;
    offNet = far;
    const ports = await provider.listPorts(companyUsername, { deleted: false });
    const named = ports.find((p) => typeof p.name === "string" && p.name.trim() !== "");
    if (!named?.name) throw new Error("the sandbox company has no named port");
    existingPortName = named.name;
  });
  afterAll(async () => {
    await env?.close();
  });

  async function openForm(): Promise<StandinView> {
    const before = env.standin.currentView(USER)?.view.id;
    const ack = await env.connect("port order");
    expect(ack.status).toBe(200);
    return env.standin.waitForView(
      USER,
      (v) => v.view.callback_id === PORT_ORDER_VIEW && v.view.id !== before,
    );
  }

  async function pickDcf(dcf: Dcf): Promise<StandinView> {
    await env.slack.fillView(USER, {
      "Data center": { query: dcf.name ?? dcf.username ?? "", pick: dcfRef(dcf) },
    });
    const expected = (dcf.dataCenterFacility?.speeds ?? []).map((s) => String(Number(s)));
    return env.standin.waitForView(
      USER,
      (v) =>
        JSON.stringify(speedValues(v)) ===
        JSON.stringify([...expected].sort((a, b) => Number(a) - Number(b))),
    );
  }

  async function sandboxOrders(): Promise<Array<Record<string, unknown>>> {
    const response = await fetch(`${env.bot.sandbox!.url}/__sandbox/orders`);
    return (await response.json()) as Array<Record<string, unknown>>;
  }

  async function portOrderCalls(): Promise<number> {
    const url = `${env.bot.sandbox!.url}/__sandbox/requests?summary=1`;
    const summary = (await (await fetch(url)).json()) as { byOperation: Record<string, number> };
    return summary.byOperation.createPortOrder ?? 0;
  }

  it("opens the order form with the fields a person expects, labelled as the sandbox", async () => {
    const view = await openForm();
    expect(view.view.title?.text).toBe("Order a port");
    expect(labels(view)).toEqual(["Data center", "Term", "Port name"]);
    expect(readable(view.view.blocks as KnownBlock[])).toContain("Sandbox");
    // No speeds until a data center is chosen: only that DCF's speeds can be offered.
    expect(speedValues(view)).toBeUndefined();
    await env.slack.closeView(USER);
  });

  it("offers data centers as the person types, with city and tags in words", async () => {
    const view = await openForm();
    const options = await env.slack.suggest(
      USER,
      view.view.id,
      PORT_ORDER_ACTIONS.dcf,
      PORT_ORDER_BLOCKS.dcf,
      offNet.name ?? "",
    );
    const option = options.find((o) => o.value === dcfRef(offNet));
    expect(option, JSON.stringify(options)).toBeDefined();
    expect(option?.text.text).toContain(offNet.name);
    const city = offNet.company?.addresses?.find((a) => a.primary)?.city;
    if (city) expect(option?.text.text).toContain(city);
    expect(option?.description?.text).toContain("off-net");

    const tooShort = await env.slack.suggest(
      USER,
      view.view.id,
      PORT_ORDER_ACTIONS.dcf,
      PORT_ORDER_BLOCKS.dcf,
      "x",
    );
    expect(tooShort.map((o) => o.text.text).join(" ")).toContain("at least 2");
    await env.slack.closeView(USER);
  });

  it("shows only the chosen DCF's speeds, the live price and LOA path; refuses duplicate names; orders once after approval", async () => {
    await openForm();

    // Choosing a DCF fills Speed with its speeds; choosing another replaces them.
    await pickDcf(offNet);
    let view = await pickDcf(onNet);
    expect(speedValues(view)).toContain("100000");
    expect(textOf(blockById(view, PORT_ORDER_LOA_BLOCK))).toContain("about 24 hours");

    // Speed and term chosen: the price is the provider's for that same input.
    await env.slack.fillView(USER, { Speed: "100G", Term: "Month to month" });
    const [monthly] = await env.bot.services.provider.pricePorts([
      { dcf: onNet.id, speed: 100000, durationUnit: "m" },
    ]);
    view = await env.standin.waitForView(USER, (v) =>
      textOf(blockById(v, PORT_ORDER_PRICE_BLOCK)).includes(formatMoney(monthly?.price)),
    );
    await env.slack.fillView(USER, { Term: "1 year (12 months)" });
    const [yearly] = await env.bot.services.provider.pricePorts([
      { dcf: onNet.id, speed: 100000, durationUnit: "y" },
    ]);
    expect(yearly?.price).not.toBe(monthly?.price);
    view = await env.standin.waitForView(USER, (v) =>
      textOf(blockById(v, PORT_ORDER_PRICE_BLOCK)).includes(formatMoney(yearly?.price)),
    );
    expect(textOf(blockById(view, PORT_ORDER_PRICE_BLOCK))).toContain("100G");

    // A name the company's ports already use is refused next to "Port name" (any case).
    await env.slack.fillView(USER, { "Port name": `  ${existingPortName.toUpperCase()} ` });
    const duplicate = await env.slack.submitView(USER);
    expect(duplicate.responseAction).toBe("errors");
    expect(Object.keys(duplicate.errors ?? {})).toEqual([PORT_ORDER_BLOCKS.portName]);
    expect(duplicate.errors?.[PORT_ORDER_BLOCKS.portName]).toContain("already has a port");

    const portName = "e2e-port-order-1";
    await env.slack.fillView(USER, { "Port name": `  ${portName} ` });
    const submitted = await env.slack.submitView(USER);
    expect(submitted.errors).toBeUndefined();
    expect(submitted.problems).toEqual([]);
    expect(submitted.currentView).toBeUndefined();

    // The request in the approvals channel shows every field that goes to the provider.
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes(portName),
    );
    const shown = readable(request.blocks as KnownBlock[]);
    for (const expected of [
      onNet.name ?? "",
      onNet.username ?? "",
      "Speed",
      "100G",
      "Term",
      "1 year (12 months)",
      "Port name",
      portName,
      "Payment type",
      "Invoice",
      "LOA path",
      "about 24 hours",
      formatMoney(yearly?.price),
      "Sandbox",
    ]) {
      expect(shown).toContain(expected);
    }
    // The requester is told privately, in the channel the command came from, with the link.
    const confirmation = await env.standin.waitForEphemeral(USER, (m) => m.text.includes(portName));
    expect(confirmation.channel).toBe(STANDIN_IDS.general);
    expect(confirmation.text).toContain("waiting for approval");
    expect(confirmation.text).toMatch(/<https?:[^|>]+\|in the approvals channel>/);

    // While it waits, the same name cannot be asked for again.
    await openForm();
    await pickDcf(onNet);
    await env.slack.fillView(USER, { Speed: "10G", "Port name": portName.toUpperCase() });
    const again = await env.slack.submitView(USER);
    expect(again.errors?.[PORT_ORDER_BLOCKS.portName]).toContain("already waiting");
    await env.slack.closeView(USER);

    // Approved: exactly one port order with exactly the body shown, and "Ordered" in the thread.
    const before = await portOrderCalls();
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: request,
      actionId: "approval_approve",
    });
    await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.ts !== request.ts && m.text.includes("Ordered"),
      { timeoutMs: 15_000 },
    );
    expect((await portOrderCalls()) - before).toBe(1);
    const records = await env.bot.services.approvals.store.list({ limit: 10 });
    const record = records.find((r) => r.title === portName);
    expect(record?.status).toBe("placed");
    expect(record?.call).toEqual({
      operation: "createPortOrder",
      pathParams: { companyUsername },
      body: {
        dataCenterFacility: onNet.username,
        speed: "100000",
        durationUnit: "y",
        portName,
        paymentType: "invoice",
      },
    });
    expect(record?.reconcileKey).toBe(portName);
    expect(record?.price?.total).toBe(yearly?.price);
    const orders = await sandboxOrders();
    expect(orders.filter((o) => o.portName === portName)).toHaveLength(1);
    const order = [...env.bot.sandbox!.state.orders.values()].find((o) => o.portName === portName);
    expect(order).toMatchObject({
      dcfId: onNet.id,
      speed: 100000,
      durationUnit: "y",
      paymentType: "invoice",
    });
  });

  it("confirms by direct message when the command's channel refuses an ephemeral message", async () => {
    await openForm();
    await pickDcf(onNet);
    const portName = "e2e-port-order-dm";
    await env.slack.fillView(USER, { Speed: "1G", "Port name": portName });
    env.standin.failNext("chat.postEphemeral", { error: "channel_not_found" });
    const submitted = await env.slack.submitView(USER);
    expect(submitted.errors).toBeUndefined();
    const dm = await env.standin.waitForMessage(USER, (m) => m.text.includes(portName));
    expect(dm.text).toContain("waiting for approval");
    await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) => m.text.includes(portName));
  });

  it("refuses a port name with spaces or emoji next to the field, saying what a valid name is", async () => {
    await openForm();
    await pickDcf(onNet);
    for (const portName of ["ams core 1", "ams-core-🚀"]) {
      await env.slack.fillView(USER, { Speed: "1G", "Port name": portName });
      const submitted = await env.slack.submitView(USER);
      expect(submitted.responseAction, portName).toBe("errors");
      expect(submitted.errors?.[PORT_ORDER_BLOCKS.portName]).toBe(
        "Port name must be one word: letters, digits and signs such as - _ . but no spaces or emoji, at most 100 characters (e.g. ams-core-01)",
      );
    }
    expect(
      env.standin.messages(STANDIN_IDS.approvals).some((m) => m.text.includes("ams core")),
    ).toBe(false);
    await env.slack.closeView(USER);
  });

  it("shows the 4–6 weeks LOA path for an off-net DCF", async () => {
    await openForm();
    const view = await pickDcf(offNet);
    const loa = textOf(blockById(view, PORT_ORDER_LOA_BLOCK));
    expect(loa).toContain("4–6 weeks");
    expect(loa).toContain("partner");
    const speed = formatSpeed(Number(offNet.dataCenterFacility?.speeds?.[0]));
    await env.slack.fillView(USER, { Speed: speed });
    const priced = await env.standin.waitForView(USER, (v) =>
      textOf(blockById(v, PORT_ORDER_PRICE_BLOCK)).includes(speed),
    );
    // The LOA path stays in view with the price.
    expect(textOf(blockById(priced, PORT_ORDER_LOA_BLOCK))).toContain("4–6 weeks");
    await env.slack.closeView(USER);
  });

  it("Enter in Port name before the data center is chosen confirms the name and orders nothing", async () => {
    const opened = await openForm();
    const before = await portOrderCalls();
    await env.slack.fillView(USER, { "Port name": "ams-enter-1" });
    const enter = await env.slack.pressEnter(USER, "Port name");
    expect(enter).toMatchObject({ effect: "dispatch", ack: { status: 200 } });
    expect(env.standin.currentView(USER)?.view.id).toBe(opened.view.id);
    expect(env.standin.currentView(USER)?.errors).toBeUndefined();
    expect(await portOrderCalls()).toBe(before);
    await env.slack.closeView(USER);
  });

  it("answers forged or broken submissions with field errors, never a crash", async () => {
    await openForm();
    await pickDcf(onNet);
    const current = env.standin.currentView(USER)!;
    const before = await portOrderCalls();
    const B = PORT_ORDER_BLOCKS;
    const A = PORT_ORDER_ACTIONS;
    const select = (value: string, type = "static_select"): ViewStateValue => ({
      type,
      selected_option: { text: { type: "plain_text", text: value }, value },
    });
    const forged = await env.slack.submitView(USER, current.view.id, {
      [B.dcf]: { [A.dcf]: select("hint:short", "external_select") },
      [B.speed]: { [A.speed]: select("1e9") },
      [B.term]: { [A.term]: select("36m") },
      [B.portName]: { [A.portName]: { type: "plain_text_input", value: "x".repeat(100_000) } },
    });
    expect(forged.status).toBe(200);
    expect(forged.responseAction).toBe("errors");
    expect(forged.errors?.[B.dcf]).toContain("from the list");
    expect(forged.errors?.[B.speed]).toContain("speeds listed");
    expect(forged.errors?.[B.term]).toContain("1 year or month to month");
    expect(forged.errors?.[B.portName]).toContain("at most 100");

    // A real DCF with a speed it does not offer (the server looks the DCF up again).
    const unoffered = await env.slack.submitView(USER, current.view.id, {
      [B.dcf]: { [A.dcf]: select(dcfRef(onNet), "external_select") },
      [B.speed]: { [A.speed]: select("400001") },
      [B.term]: { [A.term]: select("1y") },
      [B.portName]: { [A.portName]: { type: "plain_text_input", value: "line\nbreak" } },
    });
    expect(unoffered.errors?.[B.speed]).toContain("one of this data center's speeds");
    expect(unoffered.errors?.[B.portName]).toContain("line breaks");
    expect(await portOrderCalls()).toBe(before);
    await env.slack.closeView(USER);
  });
});

describe("/connect port order, when ordering is not set up or not allowed", () => {
  it("says so instead of opening a form when there is no approvals channel", async () => {
    const env = await startTestBot({ env: { APPROVALS_CHANNEL: "", APPROVERS: "" } });
    try {
      await env.connect("port order");
      const reply = await env.standin.waitForEphemeral(USER);
      expect(reply.text).toContain("APPROVALS_CHANNEL");
      expect(env.standin.calls("views.open")).toEqual([]);
    } finally {
      await env.close();
    }
  });

  it("tells a person who may not request orders, before and after the form", async () => {
    const env = await startTestBot({ env: { REQUESTERS: USER } });
    try {
      await env.connect("port order", STANDIN_IDS.outsider);
      const refused = await env.standin.waitForEphemeral(STANDIN_IDS.outsider);
      expect(refused.text).toContain("not allowed to request orders");
      expect(env.standin.calls("views.open")).toEqual([]);

      // Allowed when the form opened, no longer when it is submitted: checked again.
      const dcfs = await env.bot.services.provider.listDcfs({
        where: { "dataCenterFacility.ready": true },
      });
      const dcf = dcfs.find((d) => (d.dataCenterFacility?.speeds ?? []).map(Number).includes(1000));
      if (!dcf) throw new Error("the sandbox has no DCF offering 1G");
      await env.connect("port order");
      await env.standin.waitForView(USER, (v) => v.view.callback_id === PORT_ORDER_VIEW);
      await env.slack.fillView(USER, {
        "Data center": { query: dcf.name ?? "", pick: dcfRef(dcf) },
      });
      await env.slack.fillView(USER, { Speed: "1G", "Port name": "e2e-not-allowed" });
      env.bot.services.approvals.requesters.splice(0, 1, STANDIN_IDS.approver);
      const submitted = await env.slack.submitView(USER);
      expect(submitted.errors).toBeUndefined();
      const reply = await env.standin.waitForEphemeral(USER, (m) => m.text.includes("not allowed"));
      expect(reply.channel).toBe(STANDIN_IDS.general);
      expect(env.standin.messages(STANDIN_IDS.approvals)).toEqual([]);
      expect(await env.bot.services.approvals.store.listPending()).toEqual([]);
    } finally {
      await env.close();
    }
  });
});
