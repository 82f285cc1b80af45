// `/connect price port` (inline and modal) and `/connect price l2`, end to end: signed Slack
// requests through the running bot, the sandbox as the provider, the stand-in as Slack. Prices
// are compared with what the sandbox answers for the same input through ProviderApi.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMoney as moneyIn } from "../../src/domain/money.js";
import type { Dcf, PricingResult } from "../../src/provider/api.js";
import type { StandinEphemeral, ViewStateValue, ViewStateValues } from "../../src/standin/index.js";
import { portDcfId } from "../../src/usecases/layer2/load.js";
import { LAYER2_BLOCKS, LAYER2_VIEW } from "../../views/layer2/layer2Modal.js";
import {
  ACTION_ORDER_THIS_L2,
  ACTION_ORDER_THIS_PORT,
  ACTION_SHARE_L2_PRICE,
} from "../../views/orderThis.js";
import { PORT_ORDER_BLOCKS, PORT_ORDER_VIEW } from "../../views/portOrder/portOrderModal.js";

/** Amounts as the bot shows them: the harness sets no PRICE_CURRENCY, so USD. */
const formatMoney = (amount: unknown) => moneyIn(amount, "USD") ?? "—";

import { ACTION_PRICE_PICK_DCF } from "../../views/pricing/pricing.js";
import {
  L2_PRICE_ACTIONS,
  L2_PRICE_BLOCKS,
  PORT_PRICE_ACTIONS,
  PORT_PRICE_BLOCKS,
  PRICE_L2_VIEW,
  PRICE_PORT_VIEW,
} from "../../views/pricing/pricingModals.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";

const USER = STANDIN_IDS.requester;

/** A select's state as Slack sends it, with any value (forged ones included). */
function picked(type: string, value: string): ViewStateValue {
  return { type, selected_option: { text: { type: "plain_text", text: value }, value } };
}

describe("/connect price, end to end", () => {
  let env: TestBot;
  let dcfs: Dcf[];

  beforeAll(async () => {
    env = await startTestBot();
    dcfs = await env.bot.services.provider.listDcfs();
  });
  afterAll(async () => {
    await env?.close();
  });

  function dcf(username: string): Dcf {
    const found = dcfs.find((d) => d.username === username);
    if (!found) throw new Error(`no sandbox DCF ${username}`);
    return found;
  }

  async function sandboxPortPrice(
    username: string,
    speed: number,
    durationUnit: "y" | "m",
    includeCrossConnect = false,
  ): Promise<PricingResult> {
    const [result] = await env.bot.services.provider.pricePorts(
      [{ dcf: dcf(username).id, speed, durationUnit }],
      { includeCrossConnect },
    );
    if (!result) throw new Error("the sandbox gave no price");
    return result;
  }

  /** The next ephemeral to the requester (new, or an old one replaced) matching `predicate`. */
  function nextEphemeral(
    predicate: (m: StandinEphemeral) => boolean,
  ): () => Promise<StandinEphemeral> {
    const seen = new Set(env.standin.ephemerals(USER).map((m) => `${m.ts}|${m.text}`));
    return () =>
      env.standin.waitForEphemeral(USER, (m) => !seen.has(`${m.ts}|${m.text}`) && predicate(m));
  }

  const blocksText = (m: { blocks?: unknown }) => JSON.stringify(m.blocks ?? []);

  /** Runs a command that opens a modal (closing any left open) and waits for the new one. */
  async function openModal(command: string, callbackId: string) {
    for (let top = env.standin.currentView(USER); top; top = env.standin.currentView(USER)) {
      await env.slack.closeView(USER, top.view.id);
    }
    await env.connect(command);
    return env.standin.waitForView(USER, (v) => v.view.callback_id === callbackId);
  }

  describe("inline", () => {
    it("prices a port by DCF username, 10G for 1y, with the sandbox's amounts", async () => {
      const answer = nextEphemeral((m) => m.text.includes("Port price"));
      await env.connect("price port ironbridge-docklands-ld8 10G 1y");
      const reply = await answer();
      const expected = await sandboxPortPrice("ironbridge-docklands-ld8", 10000, "y");
      const text = blocksText(reply);
      expect(reply.text).toContain("Port price: Ironbridge Docklands LD8 · 10G · 1 year");
      expect(text).toContain(`*Price (total for 1 year)*\\n${formatMoney(expected.price)}`);
      expect(text).toContain(`*Monthly*\\n${formatMoney(expected.basicMonthlyAmount)}`);
      expect(text).toContain(
        `*Pre-authorisation (monthly)*\\n${formatMoney(expected.preAuthAmount)}`,
      );
      expect(text).toContain("/connect price port ironbridge-docklands-ld8 10G 1y");
      // No PRICE_CURRENCY set: every amount carries USD, as a code, never a symbol.
      expect(text).toContain(`${formatMoney(expected.price).replace(" USD", "")} USD`);
      expect(text).toContain("Amounts are in USD");
      expect(text).not.toMatch(/[$€£]/);
      expect(text).toContain("Share in channel");
      expect(text).toContain("Sandbox");
    });

    it("prices by airport code when only one facility there offers the speed, and reads 12m as the 1-year term", async () => {
      const answer = nextEphemeral((m) => m.text.includes("Port price"));
      await env.connect("price port AMS 100G 12m");
      const reply = await answer();
      const yearly = await sandboxPortPrice("ironbridge-science-park-am3", 100000, "y");
      expect(reply.text).toContain("Ironbridge Science Park AM3 · 100G · 12 months");
      const text = blocksText(reply);
      expect(text).toContain(`*Price (total for 12 months)*\\n${formatMoney(yearly.price)}`);
      expect(text).toContain(
        'Only this one of the 3 data centers matching \\"AMS\\" can price 100G',
      );
    });

    it("reads a speed in Mbps (1000) and 1m as month to month, a different price from 1y", async () => {
      const answer = nextEphemeral((m) => m.text.includes("Port price: Meridian Slough LD5"));
      await env.connect("price port meridian-slough-ld5 1000 1m");
      const reply = await answer();
      const monthly = await sandboxPortPrice("meridian-slough-ld5", 1000, "m");
      const yearly = await sandboxPortPrice("meridian-slough-ld5", 1000, "y");
      expect(monthly.price).not.toBe(yearly.price);
      expect(reply.text).toContain("1G · 1 month");
      expect(blocksText(reply)).toContain(
        `*Price (total for 1 month)*\\n${formatMoney(monthly.price)}`,
      );
    });

    it("reads a two-word speed and term, a multi-word name and xc (the cross connect)", async () => {
      const answer = nextEphemeral((m) => m.text.includes("Port price: Ironbridge IAD1"));
      await env.connect("price port ironbridge iad1 1 Gbps 1 year xc");
      const reply = await answer();
      const expected = await sandboxPortPrice("ironbridge-iad1", 1000, "y", true);
      expect(expected.crossConnectAmount).toBeGreaterThan(0);
      const text = blocksText(reply);
      expect(text).toContain(`*Cross connect*\\n${formatMoney(expected.crossConnectAmount)}`);
      expect(text).toContain(`*Price (total for 1 year)*\\n${formatMoney(expected.price)}`);
    });

    it("offers choices for an ambiguous name, then prices the one picked, keeping xc", async () => {
      const choices = nextEphemeral((m) => m.text.includes("Several data centers match"));
      await env.connect("price port ironbridge 10G 1y xc");
      const list = await choices();
      const buttons = (list.blocks ?? []).filter((b) =>
        JSON.stringify(b).includes(ACTION_PRICE_PICK_DCF),
      );
      expect(buttons.length).toBe(6);
      const docklands = buttons.find((b) => JSON.stringify(b).includes("Docklands"));
      expect(docklands?.block_id).toBeDefined();

      const priced = nextEphemeral((m) => m.text.includes("Port price: Ironbridge Docklands LD8"));
      const ack = await env.slack.clickButton({
        userId: USER,
        message: list,
        actionId: ACTION_PRICE_PICK_DCF,
        blockId: docklands?.block_id,
      });
      expect(ack.status).toBe(200);
      const reply = await priced();
      // The choices were replaced by the price, not added to.
      expect(reply.ts).toBe(list.ts);
      const expected = await sandboxPortPrice("ironbridge-docklands-ld8", 10000, "y", true);
      const text = blocksText(reply);
      expect(text).toContain(`*Price (total for 1 year)*\\n${formatMoney(expected.price)}`);
      expect(text).toContain(`*Cross connect*\\n${formatMoney(expected.crossConnectAmount)}`);
    });

    it("Order this opens the port order form with the priced data center, speed and term", async () => {
      const answer = nextEphemeral((m) => m.text.includes("Port price: Ironbridge Docklands LD8"));
      await env.connect("price port ironbridge-docklands-ld8 10G 1m");
      const reply = await answer();
      expect(blocksText(reply)).toContain('"text":"Order this"');
      const monthly = await sandboxPortPrice("ironbridge-docklands-ld8", 10000, "m");

      const before = env.standin.currentView(USER)?.view.id;
      await env.slack.clickButton({
        userId: USER,
        message: reply,
        actionId: ACTION_ORDER_THIS_PORT,
      });
      // The form, not the loading modal that opens before it (same callback id).
      const opened = await env.standin.waitForView(
        USER,
        (v) =>
          v.view.callback_id === PORT_ORDER_VIEW &&
          v.view.id !== before &&
          JSON.stringify(v.view.blocks).includes(PORT_ORDER_BLOCKS.speed),
      );
      const blocks = opened.view.blocks as Array<{ block_id?: string; element?: unknown }>;
      const ld8 = dcf("ironbridge-docklands-ld8");
      const element = (id: string) => blocks.find((b) => b.block_id === id)?.element;
      expect(element(PORT_ORDER_BLOCKS.dcf)).toMatchObject({
        initial_option: { value: `${ld8.id}|ironbridge-docklands-ld8` },
      });
      expect(element(PORT_ORDER_BLOCKS.speed)).toMatchObject({
        initial_option: { value: "10000" },
      });
      expect(element(PORT_ORDER_BLOCKS.term)).toMatchObject({ initial_option: { value: "1m" } });
      // The form's live price is the one the answer showed.
      expect(JSON.stringify(opened.view.blocks)).toContain(formatMoney(monthly.price));
      await env.slack.closeView(USER, opened.view.id);
    });

    it("lists the valid speeds when the DCF does not offer the one asked for", async () => {
      const answer = nextEphemeral((m) => m.text.includes("doesn't offer"));
      await env.connect("price port ironbridge-science-park-am3 400G 1y");
      const reply = await answer();
      expect(reply.text).toContain("doesn't offer 400G ports");
      expect(reply.text).toContain("Valid speeds there: 1G, 10G, 100G");
      expect(reply.text).toContain("/connect price port ironbridge-science-park-am3 10G 1y");
    });

    it("says so when nothing matches, and refuses a term the provider cannot price", async () => {
      const none = nextEphemeral((m) => m.text.includes("No data center matches"));
      await env.connect("price port atlantis 10G 1y");
      expect((await none()).text).toContain('"atlantis"');

      const term = nextEphemeral((m) => m.text.includes("no 36-month term"));
      await env.connect("price port ironbridge-iad1 10G 36m");
      expect((await term()).text).toContain("`1y` or `12m`");
    });

    it("refuses a not-ready DCF without asking the provider for a price", async () => {
      const answer = nextEphemeral((m) => m.text.includes("not ready for orders"));
      await env.connect("price port atlas-colo-la4 10G 1y");
      expect((await answer()).text).toContain("Atlas Colo LA4");
    });

    it("opens the modal with the data center and speed typed when the term is missing", async () => {
      const opened = await openModal("price port ironbridge-iad1 10G", PRICE_PORT_VIEW);
      const text = JSON.stringify(opened.view.blocks);
      expect(text).toContain("`/connect price port ironbridge-iad1 10G` has no term");
      const blocks = opened.view.blocks as Array<{ block_id?: string; element?: unknown }>;
      const dcfInput = blocks.find((b) => b.block_id === PORT_PRICE_BLOCKS.dcf);
      const speedInput = blocks.find((b) => b.block_id === PORT_PRICE_BLOCKS.speed);
      const iad1 = dcf("ironbridge-iad1");
      expect(dcfInput?.element).toMatchObject({
        initial_option: { value: `${iad1.id}|ironbridge-iad1` },
      });
      expect(speedInput?.element).toMatchObject({ initial_option: { value: "10000" } });

      // Submitted as opened (the term has its default), it prices what was typed.
      const answer = nextEphemeral((m) => m.text.includes("Port price: Ironbridge IAD1"));
      const submitted = await env.slack.submitView(USER, opened.view.id);
      expect(submitted.errors).toBeUndefined();
      const expected = await sandboxPortPrice("ironbridge-iad1", 10000, "y");
      expect(blocksText(await answer())).toContain(formatMoney(expected.price));
    });

    it("opens the modal without a data center, saying how many matched, when several do", async () => {
      const opened = await openModal("price port ironbridge 10G", PRICE_PORT_VIEW);
      const text = JSON.stringify(opened.view.blocks);
      expect(text).toMatch(/\\"ironbridge\\" matches \d+ data centers: pick one/);
      expect(text).not.toContain('initial_option":{"text":{"type":"plain_text","text":"Ironbridge');
    });

    it("prices what it can read and names the words it ignored", async () => {
      const answer = nextEphemeral((m) => m.text.includes("Port price: Ironbridge IAD1"));
      await env.connect("price port ironbridge-iad1 10G 12m extra");
      const reply = await answer();
      const expected = await sandboxPortPrice("ironbridge-iad1", 10000, "y");
      const text = blocksText(reply);
      expect(text).toContain(`*Price (total for 12 months)*\\n${formatMoney(expected.price)}`);
      expect(text).toContain("Ignored `extra`");
      expect(text).not.toContain("has no speed and term");
    });
  });

  describe("the port modal", () => {
    function speedOptions(): string[] {
      const view = env.standin.currentView(USER)?.view;
      const block = (view?.blocks ?? []).find(
        (b) => (b as { block_id?: string }).block_id === PORT_PRICE_BLOCKS.speed,
      ) as { element?: { options?: Array<{ value: string }> } } | undefined;
      return (block?.element?.options ?? []).map((o) => o.value);
    }

    const openPortModal = () => openModal("price port", PRICE_PORT_VIEW);

    it("searches DCFs as the person types, shows only the chosen DCF's speeds, and prices on submit", async () => {
      const opened = await openPortModal();
      expect(speedOptions()).toEqual([]);

      const suggested = await env.slack.suggest(
        USER,
        opened.view.id,
        PORT_PRICE_ACTIONS.dcf,
        PORT_PRICE_BLOCKS.dcf,
        "AMS",
      );
      expect(suggested.map((o) => o.text.text)).toEqual(
        expect.arrayContaining([
          "Ironbridge Science Park AM3 · Amsterdam, NL",
          "Northpoint Schiphol-Rijk · Amsterdam, NL",
        ]),
      );
      const offNet = suggested.find((o) => o.text.text.startsWith("Northpoint Schiphol"));
      expect(offNet?.description?.text).toContain("off-net");
      expect(offNet?.value).toBe(`${dcf("northpoint-schiphol-rijk").id}|northpoint-schiphol-rijk`);

      await env.slack.fillView(USER, { "Data center": { query: "docklands" } });
      await expect.poll(speedOptions).toEqual(["1000", "10000", "100000", "400000"]);

      await env.slack.fillView(USER, { "Data center": { query: "bluewater park royal" } });
      await expect.poll(speedOptions).toEqual(["100", "1000", "10000"]);

      await env.slack.fillView(USER, {
        Speed: "10G",
        Term: "1 year",
        "Include cross connect": ["xc"],
      });
      const answer = nextEphemeral((m) => m.text.includes("Port price: Bluewater Park Royal"));
      const submitted = await env.slack.submitView(USER);
      expect(submitted.problems).toEqual([]);
      expect(submitted.responseAction).toBeUndefined();
      expect(submitted.currentView).toBeUndefined();

      const reply = await answer();
      expect(reply.channel).toBe(STANDIN_IDS.general);
      const expected = await sandboxPortPrice("bluewater-park-royal", 10000, "y", true);
      const text = blocksText(reply);
      expect(text).toContain(`*Price (total for 1 year)*\\n${formatMoney(expected.price)}`);
      expect(text).toContain(`*Monthly*\\n${formatMoney(expected.basicMonthlyAmount)}`);
      expect(text).toContain(
        `*Pre-authorisation (monthly)*\\n${formatMoney(expected.preAuthAmount)}`,
      );
      expect(text).toContain(`*Cross connect*\\n${formatMoney(expected.crossConnectAmount)}`);
      expect(text).toContain("Repeat: `/connect price port bluewater-park-royal 10G 1y xc`");
      expect(text).toContain("Share in channel");
      expect(text).toContain("Sandbox");
    });

    it("answers an empty submission with an error next to the data center", async () => {
      const opened = await openPortModal();
      const outcome = await env.slack.submitView(USER, opened.view.id, undefined, {
        allowMissingRequired: true,
      });
      expect(outcome.responseAction).toBe("errors");
      expect(outcome.problems).toEqual([]);
      expect(outcome.errors?.[PORT_PRICE_BLOCKS.dcf]).toBe("Choose a data center");
      expect(outcome.currentView?.view.id).toBe(opened.view.id);
    });

    it("re-checks forged values on the server: a speed not offered, a huge value, an unknown term", async () => {
      await openPortModal();
      await env.slack.fillView(USER, { "Data center": { query: "science park" } });
      await expect.poll(speedOptions).toEqual(["1000", "10000", "100000"]);
      const viewId = env.standin.currentView(USER)?.view.id;
      const am3 = dcf("ironbridge-science-park-am3");
      const values = (
        speed: string,
        term = "1y",
        dcfValue = `${am3.id}|${am3.username}`,
      ): ViewStateValues => ({
        [PORT_PRICE_BLOCKS.dcf]: {
          [PORT_PRICE_ACTIONS.dcf]: picked("external_select", dcfValue),
        },
        [PORT_PRICE_BLOCKS.speed]: {
          [PORT_PRICE_ACTIONS.speed]: picked("static_select", speed),
        },
        [PORT_PRICE_BLOCKS.term]: {
          [PORT_PRICE_ACTIONS.term]: picked("static_select", term),
        },
      });

      const notOffered = await env.slack.submitView(USER, viewId, values("400000"));
      expect(notOffered.errors).toEqual({
        [PORT_PRICE_BLOCKS.speed]: "Choose one of this data center's speeds: 1G, 10G, 100G",
      });

      const huge = await env.slack.submitView(
        USER,
        viewId,
        values("1000", "1y", "x".repeat(100_000)),
      );
      expect(huge.errors?.[PORT_PRICE_BLOCKS.dcf]).toBe("Pick a data center from the list");

      const unknownId = await env.slack.submitView(
        USER,
        viewId,
        values("1000", "1y", "00000000-0000-0000-0000-000000000000|nowhere"),
      );
      expect(unknownId.errors?.[PORT_PRICE_BLOCKS.dcf]).toBe("Pick a data center from the list");

      const badTerm = await env.slack.submitView(USER, viewId, values("1000", "36m"));
      expect(badTerm.errors).toEqual({
        [PORT_PRICE_BLOCKS.term]: "Choose 1 year or month to month",
      });
      for (const outcome of [notOffered, huge, unknownId, badTerm]) {
        expect(outcome.responseAction).toBe("errors");
        expect(outcome.problems).toEqual([]);
      }
    });

    it("answers a slow provider search within Slack's 3 seconds with a hint", async () => {
      const opened = await openPortModal();
      env.bot.sandbox?.faults.add({
        match: "GET /v2/data-center-facility/search",
        latencyMs: 5_000,
        times: 1,
      });
      try {
        const started = performance.now();
        const options = await env.slack.suggest(
          USER,
          opened.view.id,
          PORT_PRICE_ACTIONS.dcf,
          PORT_PRICE_BLOCKS.dcf,
          "frankfurt",
        );
        expect(performance.now() - started).toBeLessThan(3_000);
        expect(options).toHaveLength(1);
        expect(options[0]?.text.text).toContain("slow");
        expect(options[0]?.value).toBe("hint:timeout");
      } finally {
        env.bot.sandbox?.faults.clear();
      }
    });
  });

  describe("the layer 2 modal", () => {
    const openL2Modal = () => openModal("price l2", PRICE_L2_VIEW);

    it("opens prefilled from `price l2 ams lon 500`: both ends found as price port finds them, 500 Mbps", async () => {
      const opened = await openModal("price l2 ams lon 500", PRICE_L2_VIEW);
      const blocks = opened.view.blocks as Array<{ block_id?: string; element?: unknown }>;
      const element = (id: string) =>
        blocks.find((b) => b.block_id === id)?.element as
          | { initial_option?: { value: string; text: { text: string } }; initial_value?: string }
          | undefined;
      const src = element(L2_PRICE_BLOCKS.srcDcf)?.initial_option;
      const dest = element(L2_PRICE_BLOCKS.destDcf)?.initial_option;
      const srcDcf = dcfs.find((d) => src?.value.startsWith(`${d.id}|`));
      const destDcf = dcfs.find((d) => dest?.value.startsWith(`${d.id}|`));
      expect(srcDcf?.name).toMatch(/Amsterdam|AM3|Schiphol|Zuidoost/);
      expect(destDcf?.company?.addresses?.[0]?.city ?? destDcf?.name).toMatch(
        /London|LD|Park Royal|Croydon/,
      );
      expect(element(L2_PRICE_BLOCKS.bandwidth)?.initial_value).toBe("500");
      const note = JSON.stringify(opened.view.blocks);
      expect(note).toContain(`Source: \\"ams\\" matches`);
      expect(note).toContain(`*${srcDcf?.name}* is chosen. Not the one you meant? Pick another`);

      // Submitted as opened, it prices that connection.
      const answer = nextEphemeral((m) => m.text.includes("Layer 2 price"));
      const submitted = await env.slack.submitView(USER, opened.view.id);
      expect(submitted.errors).toBeUndefined();
      const reply = await answer();
      expect(blocksText(reply)).toContain(srcDcf?.name ?? "missing");
      expect(blocksText(reply)).toContain("500 Mbps");
    });

    it("says which typed end matched nothing, and opens the form anyway", async () => {
      const opened = await openModal("price l2 atlantis lon", PRICE_L2_VIEW);
      expect(JSON.stringify(opened.view.blocks)).toContain(
        'Source: no data center matches \\"atlantis\\"; pick one.',
      );
    });

    it("prices a connection and shows the formula, every factor and the regional rate", async () => {
      await openL2Modal();
      await env.slack.fillView(USER, {
        "Source data center": { query: "docklands" },
        "Destination data center": { query: "ironbridge iad1" },
        Bandwidth: "500",
        "Class of service": "GOLD",
        Duration: "6",
        "Duration unit": "Months",
      });
      const answer = nextEphemeral((m) => m.text.includes("Layer 2 price"));
      const submitted = await env.slack.submitView(USER);
      expect(submitted.problems).toEqual([]);
      expect(submitted.currentView).toBeUndefined();
      const reply = await answer();

      const [expected] = await env.bot.services.provider.priceConnections([
        {
          bandwidth: 500,
          classOfService: "GOLD",
          duration: { value: 6, unit: "m" },
          srcDcf: dcf("ironbridge-docklands-ld8").id,
          destDcf: dcf("ironbridge-iad1").id,
        },
      ]);
      const text = blocksText(reply);
      expect(reply.text).toContain("Ironbridge Docklands LD8 → Ironbridge IAD1");
      expect(text).toContain(formatMoney(expected?.price));
      expect(text).toContain("(bandwidthCost*multiplier)*duration/(1-margin)+portFee");
      for (const factor of [
        "margin",
        "portFee",
        "nniFee",
        "bandwidthCost",
        "multiplier",
        "duration",
      ])
        expect(text).toContain(`*${factor}`);
      expect(text).toContain("Europe → North America");
      expect(text).toContain("Sandbox");

      // Share in channel, as under a port price (issue 32, item 20): priced again and posted
      // for everyone where it was asked, saying who shared it.
      await env.slack.clickButton({
        userId: USER,
        message: reply,
        actionId: ACTION_SHARE_L2_PRICE,
      });
      const shared = await env.standin.waitForMessage(reply.channel, (m) =>
        JSON.stringify(m.blocks).includes("Shared by"),
      );
      expect(shared.text).toContain("Ironbridge Docklands LD8 → Ironbridge IAD1");
      expect(JSON.stringify(shared.blocks)).toContain(formatMoney(expected?.price) ?? "missing");
      expect(JSON.stringify(shared.blocks)).toContain(`Shared by <@${USER}>`);

      // Order this: the layer 2 form, business-to-business to the priced destination, with the
      // priced bandwidth, class and term, from your port in the priced source data center.
      const before = env.standin.currentView(USER)?.view.id;
      await env.slack.clickButton({ userId: USER, message: reply, actionId: ACTION_ORDER_THIS_L2 });
      const form = await env.standin.waitForView(
        USER,
        (v) =>
          v.view.id !== before &&
          v.view.callback_id === LAYER2_VIEW &&
          JSON.stringify(v.view.blocks).includes(LAYER2_BLOCKS.destDcf),
      );
      const formText = JSON.stringify(form.view.blocks);
      const initial = (id: string) => {
        const block = (form.view.blocks as Array<{ block_id?: string; element?: unknown }>).find(
          (b) => b.block_id === id,
        );
        const element = block?.element as
          | { initial_option?: { value: string }; initial_value?: string }
          | undefined;
        return element?.initial_option?.value ?? element?.initial_value;
      };
      expect(initial(LAYER2_BLOCKS.mode)).toBe("business-to-business");
      expect(initial(LAYER2_BLOCKS.destDcf)).toBe(dcf("ironbridge-iad1").id);
      expect(initial(LAYER2_BLOCKS.bandwidth)).toBe("500");
      expect(initial(LAYER2_BLOCKS.classOfService)).toBe("GOLD");
      expect(initial(LAYER2_BLOCKS.duration)).toBe("6");
      const identity = await env.bot.services.identity();
      const own = await env.bot.services.provider.listPorts(identity.companyUsername, {
        deleted: false,
      });
      const inLd8 = own.find((p) => portDcfId(p) === dcf("ironbridge-docklands-ld8").id);
      expect(inLd8, "the sandbox company has a port in Docklands LD8").toBeDefined();
      expect(initial(LAYER2_BLOCKS.sourcePort)).toBe(inLd8?.id);
      expect(formText).toContain("Sandbox");
      await env.slack.closeView(USER, form.view.id);
    });

    it("puts bad values next to their fields, and a forged unit next to the unit", async () => {
      const opened = await openL2Modal();
      const outcome = await env.slack.submitView(
        USER,
        opened.view.id,
        {
          [L2_PRICE_BLOCKS.bandwidth]: {
            [L2_PRICE_ACTIONS.bandwidth]: { type: "number_input", value: "lots" },
          },
          [L2_PRICE_BLOCKS.classOfService]: {
            [L2_PRICE_ACTIONS.classOfService]: picked("static_select", "PLATINUM"),
          },
          [L2_PRICE_BLOCKS.duration]: {
            [L2_PRICE_ACTIONS.duration]: { type: "number_input", value: "12" },
          },
          [L2_PRICE_BLOCKS.durationUnit]: {
            [L2_PRICE_ACTIONS.durationUnit]: picked("static_select", "y"),
          },
        },
        { allowMissingRequired: true },
      );
      expect(outcome.responseAction).toBe("errors");
      expect(outcome.problems).toEqual([]);
      expect(outcome.errors).toEqual({
        [L2_PRICE_BLOCKS.srcDcf]: "Choose the source data center",
        [L2_PRICE_BLOCKS.destDcf]: "Choose the destination data center",
        [L2_PRICE_BLOCKS.bandwidth]:
          "Bandwidth must be a whole number of Mbps, from 1 Mbps to 100,000 Mbps (100 Gbps, the fastest port)",
        [L2_PRICE_BLOCKS.classOfService]:
          "Class of service must be one of GOLD, SILVERPLUS, SILVER, BRONZE",
        [L2_PRICE_BLOCKS.durationUnit]: "Duration unit must be months or weeks",
      });
    });

    it("keeps the form open with the range at Bandwidth for 99999999 Mbps, what was typed kept", async () => {
      const opened = await openL2Modal();
      await env.slack.fillView(USER, {
        "Source data center": { query: "docklands" },
        "Destination data center": { query: "ironbridge iad1" },
        Bandwidth: "99999999",
        Duration: "12",
      });
      const outcome = await env.slack.submitView(USER);
      expect(outcome.problems).toEqual([]);
      expect(outcome.responseAction).toBe("errors");
      expect(outcome.errors).toEqual({
        [L2_PRICE_BLOCKS.bandwidth]:
          "Bandwidth must be from 1 Mbps to 100,000 Mbps (100 Gbps, the fastest port)",
      });
      // Still the same form, with everything the person entered.
      expect(outcome.currentView?.view.id).toBe(opened.view.id);
      const values = outcome.currentView?.view.state.values;
      expect(values?.[L2_PRICE_BLOCKS.bandwidth]?.[L2_PRICE_ACTIONS.bandwidth]?.value).toBe(
        "99999999",
      );
      expect(
        values?.[L2_PRICE_BLOCKS.srcDcf]?.[L2_PRICE_ACTIONS.srcDcf]?.selected_option?.value,
      ).toContain(dcf("ironbridge-docklands-ld8").id);
    });

    it("Enter in Bandwidth before the data centers are chosen confirms it and submits nothing", async () => {
      const opened = await openL2Modal();
      await env.slack.fillView(USER, { Bandwidth: "500" });
      const enter = await env.slack.pressEnter(USER, "Bandwidth");
      expect(enter).toMatchObject({ effect: "dispatch", ack: { status: 200 } });
      expect(env.standin.currentView(USER)?.view.id).toBe(opened.view.id);
      expect(env.standin.currentView(USER)?.errors).toBeUndefined();
      expect(await env.slack.pressEnter(USER, "Duration")).toMatchObject({ effect: "dispatch" });
    });

    it("keeps the form open with the provider's refusal next to the data center it refuses (no layer 2 in Toronto)", async () => {
      const opened = await openL2Modal();
      await env.slack.fillView(USER, {
        "Source data center": { query: "northpoint front street" },
        "Destination data center": { query: "ironbridge iad1" },
        Bandwidth: "100",
      });
      const outcome = await env.slack.submitView(USER);
      expect(outcome.problems).toEqual([]);
      expect(outcome.currentView?.view.id).toBe(opened.view.id);
      expect(Object.keys(outcome.errors ?? {})).toEqual([L2_PRICE_BLOCKS.srcDcf]);
      expect(outcome.errors?.[L2_PRICE_BLOCKS.srcDcf]).toMatch(
        /^The provider can't price this connection: .*Layer 2 is not available.*Toronto/,
      );
    });
  });
});

describe("/connect price with PRICE_CURRENCY set, end to end", () => {
  let env: TestBot;
  beforeAll(async () => {
    env = await startTestBot({ env: { PRICE_CURRENCY: "eur" } });
  });
  afterAll(async () => {
    await env?.close();
  });

  it("labels the answer's amounts with the configured code", async () => {
    const seen = new Set(env.standin.ephemerals(USER).map((m) => m.ts));
    await env.connect("price port ironbridge-docklands-ld8 10G 1y");
    const reply = await env.standin.waitForEphemeral(
      USER,
      (m) => !seen.has(m.ts) && m.text.includes("Port price"),
    );
    const dcf = (await env.bot.services.provider.listDcfs()).find(
      (d) => d.username === "ironbridge-docklands-ld8",
    );
    const [expected] = await env.bot.services.provider.pricePorts([
      { dcf: dcf!.id, speed: 10000, durationUnit: "y" },
    ]);
    const text = JSON.stringify(reply.blocks);
    expect(text).toContain(`*Price (total for 1 year)*\\n${moneyIn(expected?.price, "EUR")}`);
    expect(text).toContain("Amounts are in EUR");
    expect(text).not.toContain("USD");
  });
});
