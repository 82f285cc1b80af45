import type { KnownBlock } from "@slack/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMoney as moneyIn } from "../../src/domain/money.js";
import type { Port } from "../../src/provider/api.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import {
  enterKeyEffect,
  interactiveElements,
  type StandinView,
  viewStateValues,
} from "../../src/standin/index.js";

/** Amounts as the bot shows them: the harness sets no PRICE_CURRENCY, so USD. */
const formatMoney = (amount: unknown) => moneyIn(amount, "USD") ?? "—";

import { remainingCapacity } from "../../src/domain/catalog/connections.js";
import { formatMbps } from "../../src/domain/units.js";
import {
  LAYER2_ACTIONS,
  LAYER2_BANDWIDTH_PROBLEM_BLOCK,
  LAYER2_BLOCKS,
  LAYER2_PRICE_BLOCK,
  LAYER2_REVIEW_BLOCK,
} from "../../views/layer2/layer2Modal.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { readable } from "../views/support.js";

// `/connect l2` end to end: a signed slash command opens the form, the stand-in fills it like a
// person (dispatching inputs rebuild it), the submission goes to approval, an approver approves
// and the placement job calls the sandbox once. Expected values come from the sandbox itself.

const USER = STANDIN_IDS.requester;
const PARTNER = "globex-cloud";

describe("/connect l2, end to end", () => {
  let env: TestBot;
  let sandbox: Sandbox;
  let company: string;
  let own: Port[];
  let partner: Port[];

  beforeAll(async () => {
    env = await startTestBot();
    sandbox = env.bot.sandbox!;
    company = (await env.bot.services.identity()).companyUsername;
    own = await env.bot.services.provider.listPorts(company, { deleted: false });
    partner = await env.bot.services.provider.listPorts(PARTNER, { deleted: false });
  });
  afterAll(async () => {
    await env?.close();
  });

  const ownPort = (name: string) => {
    const port = own.find((p) => p.name === name);
    if (!port) throw new Error(`the sandbox has no port ${name}`);
    return port;
  };
  const partnerPort = (name: string) => {
    const port = partner.find((p) => p.name === name);
    if (!port) throw new Error(`the sandbox has no partner port ${name}`);
    return port;
  };

  function text(view: StandinView): string {
    return readable(view.view.blocks as KnownBlock[]);
  }

  function hasBlock(view: StandinView, blockId: string): boolean {
    return view.view.blocks.some((b) => (b as { block_id?: string }).block_id === blockId);
  }

  /** Opens the form and resolves once the ports are loaded into it. */
  async function openForm(): Promise<StandinView> {
    const before = env.standin.currentView(USER)?.view.id;
    const ack = await env.connect("l2");
    expect(ack.status).toBe(200);
    return env.standin.waitForView(
      USER,
      (v) =>
        v.view.id !== before &&
        v.view.callback_id === "layer2_request" &&
        hasBlock(v, LAYER2_BLOCKS.sourcePort),
    );
  }

  /** How many times the sandbox was asked `operation` (its request log). */
  async function sandboxCalls(operation: string): Promise<number> {
    const summary = (await (await fetch(`${sandbox.url}/__sandbox/requests?summary=1`)).json()) as {
      byOperation: Record<string, number>;
    };
    return summary.byOperation[operation] ?? 0;
  }

  const layer2Calls = () => sandboxCalls("createLayer2Connection");

  function serviceNamed(name: string) {
    return [...sandbox.state.services.values()].find((s) => s.name === name);
  }

  async function approve(name: string) {
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes(name),
    );
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: request,
      actionId: "approval_approve",
    });
    const placed = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.ts !== request.ts && m.text.includes("Ordered"),
      { timeoutMs: 15_000 },
    );
    const parent = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.ts === request.ts && JSON.stringify(m.blocks).includes("Ordered"),
    );
    return { request, placed, parent };
  }

  it("port-to-port to another company's port: shows the destination and the price, places it once on approval, and says it waits on that company", async () => {
    const source = ownPort("iad-core-01");
    const dest = partnerPort("globex-iad-01");
    await openForm();
    await env.slack.fillView(USER, {
      "Source port": source.id,
      "Destination port": dest.id,
      Bandwidth: "500",
      "Class of service": "GOLD",
      Duration: "12",
      "Connection name": "e2e-l2-p2p-1",
    });

    // The destination was looked up: company, metro and speed, and who will have to accept.
    // The form is rebuilt after each choice, one at a time, newest last: wait for the price of
    // what was chosen (an earlier rebuild may show the price of the form as it was then).
    const priced = await env.standin.waitForView(
      USER,
      (v) =>
        hasBlock(v, LAYER2_PRICE_BLOCK) &&
        text(v).includes("Layer 2 price") &&
        text(v).includes("GOLD"),
    );
    const shown = text(priced);
    expect(shown).toContain(dest.name);
    expect(shown).toContain(PARTNER);
    expect(shown).toContain(dest.metro?.name ?? "?");
    expect(shown).toContain("10G");
    expect(shown).toMatch(/another company.*PENDING/s);

    // The price is the sandbox's own for the same connection, with its formula and factors.
    const [expected] = await env.bot.services.provider.priceConnections([
      {
        srcDcf: source.dataCenterFacilityId!,
        destDcf: dest.dataCenterFacilityId!,
        bandwidth: 500,
        classOfService: "GOLD",
        duration: { value: 12, unit: "m" },
      },
    ]);
    expect(shown).toContain(formatMoney(expected!.price));
    expect(shown).toContain("Formula");
    for (const factor of ["margin", "portFee", "bandwidthCost", "multiplier", "duration"]) {
      expect(shown).toContain(factor);
    }
    expect(shown).toContain("Region-to-region rate used");

    const before = await layer2Calls();
    const submitted = await env.slack.submitView(USER);
    expect(submitted.errors).toBeUndefined();
    expect(submitted.currentView).toBeUndefined();
    const confirmation = await env.standin.waitForEphemeral(USER, (m) =>
      m.text.includes("e2e-l2-p2p-1"),
    );
    expect(confirmation.text).toContain("waiting for approval");
    expect(confirmation.channel).toBe(STANDIN_IDS.general);

    const { request, placed, parent } = await approve("e2e-l2-p2p-1");
    const approvalText = JSON.stringify(request.blocks);
    for (const line of [
      "Port-to-port",
      source.id,
      dest.id,
      PARTNER,
      "500 Mbps",
      "GOLD",
      "12 months",
      "Waits on",
      "going to change",
      formatMoney(expected!.price),
    ]) {
      expect(approvalText).toContain(line);
    }

    expect((await layer2Calls()) - before).toBe(1);
    const created = serviceNamed("e2e-l2-p2p-1");
    expect(created?.request).toEqual({
      name: "e2e-l2-p2p-1",
      portId: source.id,
      destPortId: dest.id,
      destCompany: PARTNER,
      destMetroId: dest.metroId,
      duration: 12,
      durationUnit: "m",
      paymentType: "invoice",
      classOfService: "GOLD",
      speed: 500,
      type: "LAYER2",
      evergreen: false,
    });
    // The thread shows the connection; its root says whom it waits on.
    expect(placed.text).toContain(created!.id);
    expect(JSON.stringify(parent.blocks)).toMatch(/globex-cloud must accept the connection/);
  });

  it("business-to-business offers only layer 2 metros, that metro's data centers and its regions, and places the request once", async () => {
    const source = ownPort("lon-core-01");
    const metros = await env.bot.services.provider.listMetroCapabilities(company);
    const layer2Metros = metros.filter((m) => m.capabilities?.layer2 === true);
    const without = metros.filter((m) => m.capabilities?.layer2 !== true);
    expect(without.length).toBeGreaterThan(0);
    const metro = layer2Metros.find((m) => m.code === "AMS") ?? layer2Metros[0]!;

    await openForm();
    await env.slack.fillView(USER, {
      "Connection type": "business-to-business",
      "Source port": source.id,
    });
    const withMetros = await env.standin.waitForView(USER, (v) =>
      hasBlock(v, LAYER2_BLOCKS.destMetro),
    );
    const metroSelect = withMetros.view.blocks.find(
      (b) => (b as { block_id?: string }).block_id === LAYER2_BLOCKS.destMetro,
    ) as { element: { options: Array<{ value: string }> } };
    expect(metroSelect.element.options.map((o) => o.value).sort()).toEqual(
      layer2Metros.map((m) => m.id).sort(),
    );
    for (const m of without) expect(text(withMetros)).toContain(m.name!);

    await env.slack.fillView(USER, { "Destination metro": metro.id });
    const withDcfs = await env.standin.waitForView(USER, (v) => hasBlock(v, LAYER2_BLOCKS.destDcf));
    const dcfs = (
      await env.bot.services.provider.listDcfs({
        where: { "dataCenterFacility.metroId": metro.id },
      })
    ).filter((d) => d.dataCenterFacility?.ready !== false);
    const dcfSelect = withDcfs.view.blocks.find(
      (b) => (b as { block_id?: string }).block_id === LAYER2_BLOCKS.destDcf,
    ) as { element: { options: Array<{ value: string }> } };
    expect(dcfSelect.element.options.map((o) => o.value).sort()).toEqual(
      dcfs.map((d) => d.id).sort(),
    );
    const regionSelect = withDcfs.view.blocks.find(
      (b) => (b as { block_id?: string }).block_id === LAYER2_BLOCKS.destRegion,
    ) as { element: { options: Array<{ value: string }>; initial_option?: { value: string } } };
    expect(regionSelect.element.options.map((o) => o.value)).toEqual(metro.regionIds);

    const destDcf = dcfs[0]!;
    await env.slack.fillView(USER, {
      "Destination data center": destDcf.id,
      "Destination region": metro.regionIds![0]!,
      "Destination company": PARTNER,
      Bandwidth: "200",
      "Class of service": "SILVER",
      Duration: "6",
      Evergreen: ["evergreen"],
      "Connection name": "e2e-l2-b2b-1",
    });
    const priced = await env.standin.waitForView(
      USER,
      (v) => text(v).includes("Layer 2 price") && text(v).includes("6 months"),
    );
    expect(text(priced)).toContain(destDcf.name);

    const before = await layer2Calls();
    const submitted = await env.slack.submitView(USER);
    expect(submitted.errors).toBeUndefined();
    await env.standin.waitForEphemeral(USER, (m) => m.text.includes("e2e-l2-b2b-1"));
    const { request } = await approve("e2e-l2-b2b-1");
    expect(JSON.stringify(request.blocks)).toContain("Business-to-business");
    expect((await layer2Calls()) - before).toBe(1);
    expect(serviceNamed("e2e-l2-b2b-1")?.request).toEqual({
      name: "e2e-l2-b2b-1",
      portId: source.id,
      destCompany: PARTNER,
      destMetroId: metro.id,
      destDcf: destDcf.id,
      destRegionId: metro.regionIds![0],
      duration: 6,
      durationUnit: "m",
      paymentType: "invoice",
      classOfService: "SILVER",
      speed: 200,
      type: "LAYER2",
      evergreen: true,
    });
  });

  it("shows the price again when the values changed after it was shown, and needs a second submit", async () => {
    const source = ownPort("nyc-edge-01");
    const dest = ownPort("iad-core-01");
    await openForm();
    await env.slack.fillView(USER, {
      "Source port": source.id,
      "Destination port": dest.id,
      Bandwidth: "100",
      Duration: "12",
      "Connection name": "e2e-l2-review-1",
    });
    const priced = await env.standin.waitForView(USER, (v) => text(v).includes("Layer 2 price"));
    // A bandwidth typed without Enter never rebuilt the form: the shown price is for 100.
    const values = viewStateValues(priced.view.blocks, priced.entered);
    values[LAYER2_BLOCKS.bandwidth] = {
      [Object.keys(values[LAYER2_BLOCKS.bandwidth]!)[0]!]: { type: "number_input", value: "150" },
    };
    const before = await layer2Calls();
    const first = await env.slack.submitView(USER, undefined, values);
    expect(first.responseAction).toBe("update");
    expect(first.currentView && hasBlock(first.currentView, LAYER2_REVIEW_BLOCK)).toBe(true);
    expect(text(first.currentView!)).toContain("150 Mbps");
    const second = await env.slack.submitView(USER, undefined, values);
    expect(second.errors).toBeUndefined();
    expect(second.currentView).toBeUndefined();
    await env.standin.waitForEphemeral(USER, (m) => m.text.includes("e2e-l2-review-1"));
    // Own port to own port: nothing ordered before approval, and nobody else to wait on.
    expect((await layer2Calls()) - before).toBe(0);
    const approval = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("e2e-l2-review-1"),
    );
    expect(JSON.stringify(approval.blocks)).toContain("150 Mbps");
    expect(JSON.stringify(approval.blocks)).not.toContain("Waits on");
  });

  it("Enter in a text or number field confirms that field and never submits the half-filled order", async () => {
    await openForm();
    await env.slack.fillView(USER, {
      "Connection type": "business-to-business",
      "Source port": ownPort("lon-core-01").id,
    });
    const form = await env.standin.waitForView(USER, (v) => hasBlock(v, LAYER2_BLOCKS.destMetro));
    // Every typed input of the order form sends block_actions on Enter; none submits it.
    const typed = interactiveElements(form.view.blocks).filter(
      (e) => e.element.type === "plain_text_input" || e.element.type === "number_input",
    );
    expect(typed.map((e) => e.label)).toEqual([
      "Destination company",
      "Bandwidth",
      "Duration",
      "Connection name",
    ]);
    for (const input of typed) expect(enterKeyEffect(input)).toBe("dispatch");

    // The person types the company first and presses Enter: the metro, data center, bandwidth
    // and name are not reached yet, and nothing marks them.
    const approvalsBefore = env.standin.messages(STANDIN_IDS.approvals).length;
    await env.slack.fillView(USER, { "Destination company": PARTNER });
    const enter = await env.slack.pressEnter(USER, "Destination company");
    expect(enter).toMatchObject({ effect: "dispatch", ack: { status: 200 } });
    expect(enter).not.toHaveProperty("refused");
    const still = env.standin.currentView(USER);
    expect(still?.view.id).toBe(form.view.id);
    expect(still?.errors).toBeUndefined();
    expect(still?.view.state.values[LAYER2_BLOCKS.destCompany]).toEqual({
      [LAYER2_ACTIONS.destCompany]: { type: "plain_text_input", value: PARTNER },
    });

    // The same for the name typed before the rest.
    await env.slack.fillView(USER, { "Connection name": "e2e-l2-enter" });
    expect(await env.slack.pressEnter(USER, "Connection name")).toMatchObject({
      effect: "dispatch",
    });
    expect(env.standin.currentView(USER)?.errors).toBeUndefined();
    expect(env.standin.messages(STANDIN_IDS.approvals)).toHaveLength(approvalsBefore);
    await env.slack.closeView(USER);
  });

  describe("field errors next to their fields", () => {
    /** Fills the form, waits for its rebuild to show `ready`, then submits (forged values too). */
    async function fillAndSubmit(
      inputs: Record<string, string | string[]>,
      forge: Partial<Record<keyof typeof LAYER2_BLOCKS, unknown>> = {},
      ready: (view: StandinView) => boolean = (v) => text(v).includes("Layer 2 price"),
    ) {
      await openForm();
      await env.slack.fillView(USER, inputs);
      const current = await env.standin.waitForView(USER, ready);
      const values = viewStateValues(current.view.blocks, current.entered) as Record<
        string,
        Record<string, unknown>
      >;
      for (const [field, value] of Object.entries(forge)) {
        const key = field as keyof typeof LAYER2_BLOCKS;
        values[LAYER2_BLOCKS[key]] = { [LAYER2_ACTIONS[key]]: value };
      }
      const before = await layer2Calls();
      const outcome = await env.slack.submitView(USER, undefined, values as never, {
        allowMissingRequired: true,
      });
      expect((await layer2Calls()) - before).toBe(0);
      await env.slack.closeView(USER);
      return outcome;
    }

    const base = () => ({
      "Source port": ownPort("iad-core-01").id,
      "Destination port": partnerPort("globex-lon-01").id,
      Bandwidth: "100",
      Duration: "12",
      "Connection name": "e2e-l2-errors",
    });

    it("an unknown destination port id", async () => {
      const outcome = await fillAndSubmit(
        { ...base(), "Destination port": "ffffffffffffffffffffffff" },
        {},
        (v) => text(v).includes("No port has the id"),
      );
      expect(outcome.responseAction).toBe("errors");
      expect(outcome.errors?.[LAYER2_BLOCKS.destPort]).toContain("No port has the id");
    });

    it("the source port as destination", async () => {
      const outcome = await fillAndSubmit({
        ...base(),
        "Destination port": ownPort("iad-core-01").id,
      });
      expect(outcome.errors?.[LAYER2_BLOCKS.destPort]).toContain("another port than the source");
    });

    it("a bandwidth above the source port's free capacity", async () => {
      const source = ownPort("iad-core-01");
      const outcome = await fillAndSubmit(
        { ...base(), Bandwidth: String((source.capacity?.remaining ?? 0) + 1) },
        {},
        (v) => hasBlock(v, LAYER2_BANDWIDTH_PROBLEM_BLOCK),
      );
      expect(outcome.errors?.[LAYER2_BLOCKS.bandwidth]).toMatch(
        /^Bandwidth must be at most [\d,]+ Mbps: the free capacity of iad-core-01$/,
      );
    });

    it("a bandwidth the ports can't carry, or no whole number, is said under Bandwidth as it is typed, and never priced", async () => {
      // Read now: earlier tests may have ordered connections on this port.
      const source = await env.bot.services.provider.getPort(company, ownPort("iad-core-01").id);
      const free = formatMbps(remainingCapacity(source));
      for (const [typed, expected] of [
        ["99999999", `Bandwidth must be at most ${free}: the free capacity of iad-core-01`],
        [
          "0",
          `Bandwidth must be a whole number of Mbps, from 1 to ${free} (the free capacity of iad-core-01)`,
        ],
      ] as const) {
        await openForm();
        const pricedBefore = await sandboxCalls("calculatePricing");
        await env.slack.fillView(USER, { ...base(), Bandwidth: typed });
        const shown = await env.standin.waitForView(USER, (v) =>
          hasBlock(v, LAYER2_BANDWIDTH_PROBLEM_BLOCK),
        );
        // Right under the Bandwidth input, in plain words; the price area waits for it.
        const ids = shown.view.blocks.map((b) => (b as { block_id?: string }).block_id);
        const at = ids.indexOf(LAYER2_BANDWIDTH_PROBLEM_BLOCK);
        expect(ids[at - 1]).toBe(LAYER2_BLOCKS.bandwidth);
        expect(readable([shown.view.blocks[at] as KnownBlock])).toContain(expected);
        const price = text(shown);
        expect(price).toContain("The price appears here once the bandwidth above is fixed");
        expect(price).not.toContain("provider refused");
        expect(await sandboxCalls("calculatePricing")).toBe(pricedBefore);

        // The submission says the same next to the field.
        const values = viewStateValues(shown.view.blocks, shown.entered);
        const outcome = await env.slack.submitView(USER, undefined, values, {
          allowMissingRequired: true,
        });
        expect(outcome.errors?.[LAYER2_BLOCKS.bandwidth]).toBe(expected);
        expect(await sandboxCalls("calculatePricing")).toBe(pricedBefore);
        await env.slack.closeView(USER);
      }
    });

    it("a duration longer than ten years (9,999 months once became an order)", async () => {
      const outcome = await fillAndSubmit({ ...base(), Duration: "9999" });
      expect(outcome.responseAction).toBe("errors");
      expect(outcome.errors).toEqual({
        [LAYER2_BLOCKS.duration]: "Duration must be at most 120 months (10 years)",
      });
    });

    it("a name already used by a connection, or by a request waiting for approval", async () => {
      const existing = ownPort("iad-core-01").connections?.[0]?.name;
      expect(existing).toBeTruthy();
      const taken = await fillAndSubmit({ ...base(), "Connection name": existing! });
      expect(taken.errors?.[LAYER2_BLOCKS.name]).toContain("already exists");
      // "e2e-l2-review-1" is waiting for approval (above), in other letter case.
      const pending = await fillAndSubmit({ ...base(), "Connection name": "E2E-L2-Review-1" });
      expect(pending.errors?.[LAYER2_BLOCKS.name]).toContain("already exists");
    });

    it("values no person could pick: class of service, duration unit, a port of another company as source, a huge name", async () => {
      const outcome = await fillAndSubmit(base(), {
        classOfService: {
          type: "static_select",
          selected_option: { text: { type: "plain_text", text: "PLATINUM" }, value: "PLATINUM" },
        },
        durationUnit: {
          type: "static_select",
          selected_option: { text: { type: "plain_text", text: "Weeks" }, value: "w" },
        },
        sourcePort: {
          type: "static_select",
          selected_option: {
            text: { type: "plain_text", text: "theirs" },
            value: partnerPort("globex-iad-01").id,
          },
        },
        name: { type: "plain_text_input", value: "x".repeat(5000) },
      });
      expect(outcome.errors?.[LAYER2_BLOCKS.classOfService]).toContain("Class of service");
      expect(outcome.errors?.[LAYER2_BLOCKS.durationUnit]).toContain("months");
      expect(outcome.errors?.[LAYER2_BLOCKS.sourcePort]).toContain("Pick one of your ports");
      expect(outcome.errors?.[LAYER2_BLOCKS.name]).toContain("at most 100 characters");
    });

    it("business-to-business: a company that is not a username, a data center and region of another metro", async () => {
      const metros = (await env.bot.services.provider.listMetroCapabilities(company)).filter(
        (m) => m.capabilities?.layer2 === true,
      );
      const [metro, other] = metros;
      const otherDcf = (
        await env.bot.services.provider.listDcfs({
          where: { "dataCenterFacility.metroId": other!.id },
        })
      )[0]!;
      const outcome = await fillAndSubmit(
        {
          "Connection type": "business-to-business",
          "Source port": ownPort("iad-core-01").id,
          "Destination metro": metro!.id,
          "Destination company": "not a username!",
          Bandwidth: "100",
          Duration: "12",
          "Connection name": "e2e-l2-b2b-errors",
        },
        {
          destDcf: {
            type: "static_select",
            selected_option: { text: { type: "plain_text", text: "x" }, value: otherDcf.id },
          },
          destRegion: {
            type: "static_select",
            selected_option: { text: { type: "plain_text", text: "x" }, value: "no-such-region" },
          },
        },
        (v) => hasBlock(v, LAYER2_BLOCKS.destDcf),
      );
      expect(outcome.errors?.[LAYER2_BLOCKS.destCompany]).toContain("company username");
      expect(outcome.errors?.[LAYER2_BLOCKS.destDcf]).toContain("Pick a data center in");
      expect(outcome.errors?.[LAYER2_BLOCKS.destRegion]).toContain("regions of");
    });

    it("business-to-business: a destination company the provider does not have, looked up by its public port list", async () => {
      const metro = (await env.bot.services.provider.listMetroCapabilities(company)).find(
        (m) => m.capabilities?.layer2 === true,
      )!;
      const destDcf = (
        await env.bot.services.provider.listDcfs({
          where: { "dataCenterFacility.metroId": metro.id },
        })
      ).find((d) => d.dataCenterFacility?.ready !== false)!;
      const inputs = {
        "Connection type": "business-to-business",
        "Source port": ownPort("iad-core-01").id,
        "Destination metro": metro.id,
        "Destination data center": destDcf.id,
        "Destination region": metro.regionIds![0]!,
        "Destination company": "globex-clowd",
        Bandwidth: "100",
        Duration: "12",
        "Connection name": "e2e-l2-b2b-nocompany",
      };
      const outcome = await fillAndSubmit(inputs);
      expect(outcome.errors?.[LAYER2_BLOCKS.destCompany]).toBe(
        'The provider has no company with the username "globex-clowd": check it with the company (it is their provider username, not their name)',
      );
      expect(Object.keys(outcome.errors ?? {})).toEqual([LAYER2_BLOCKS.destCompany]);

      // The look-up failing is not the person's fault: the form goes on, and approvers are told.
      env.bot.sandbox!.faults.add({ match: "GET /api/company/globex-cloud/ports", status: 500 });
      try {
        await openForm();
        await env.slack.fillView(USER, {
          ...inputs,
          "Destination company": PARTNER,
          "Connection name": "e2e-l2-b2b-unchecked",
        });
        await env.standin.waitForView(USER, (v) => text(v).includes("Layer 2 price"));
        const submitted = await env.slack.submitView(USER);
        expect(submitted.errors).toBeUndefined();
        const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
          m.text.includes("e2e-l2-b2b-unchecked"),
        );
        expect(JSON.stringify(request.blocks)).toContain(
          `${PARTNER} (another company; could not be checked at the provider)`,
        );
      } finally {
        env.bot.sandbox!.faults.clear();
      }
    });
  });

  it("logged no error and never failed to update a form", () => {
    const bad = env.logLines.filter(
      (line) => /"level":(50|60)/.test(line) || line.includes("could not update"),
    );
    expect(bad).toEqual([]);
  });
});
