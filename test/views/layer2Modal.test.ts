import type { InputBlock, KnownBlock, ModalView } from "@slack/types";
import { describe, expect, it } from "vitest";
import { LAYER2_NOTICE } from "../../src/domain/catalog/connections.js";
import type { MetroCapability, Port } from "../../src/provider/api.js";
import {
  createLocalModalSession,
  fillModal,
  inputLabels,
  viewProblems,
} from "../../src/standin/index.js";
import type { ViewOutput } from "../../src/standin/types.js";
import {
  type Layer2ModalData,
  type Layer2Quote,
  layer2Values,
} from "../../src/usecases/layer2/form.js";
import { SANDBOX_LABEL } from "../../views/blocks.js";
import {
  LAYER2_ACTIONS,
  LAYER2_BANDWIDTH_PROBLEM_BLOCK,
  LAYER2_BLOCKS,
  LAYER2_DEST_DETAILS_BLOCK,
  LAYER2_DISPATCH_FIELDS,
  LAYER2_ENTER_ONLY_FIELDS,
  LAYER2_PRICE_BLOCK,
  LAYER2_REVIEW_BLOCK,
  LAYER2_VIEW,
  layer2Modal,
} from "../../views/layer2/layer2Modal.js";
import {
  encodeOrderMetadata,
  orderLoadingModal,
  parseOrderMetadata,
} from "../../views/orderForms.js";
import { connectionPriceResult, dcfOnNet, metroAms, portActive } from "./fixtures.js";
import { readable } from "./support.js";

const IDENTITY = {
  userId: "u1",
  companyId: "600000000000000000000001",
  companyUsername: "acme-networks",
  companyName: "Acme Networks",
};

const source: Port = { ...portActive, company: { username: "acme-networks", name: "Acme" } };
const theirs: Port = {
  id: "5f2a9c0e1b3d4a5f6e7d8c77",
  name: "globex-lon-01",
  companyId: "600000000000000000000099",
  company: { username: "globex-cloud", name: "Globex Cloud" },
  speed: { value: 10000, name: "10000 Mbps" },
  status: "ACTIVE",
  metroId: "metro-lon",
  metro: { id: "metro-lon", name: "London", code: "LON" },
  dataCenterFacilityId: "dcf-lon",
  dataCenterFacility: { id: "dcf-lon", name: "Telehouse North" },
  capacity: { total: 10000, utilised: 0, remaining: 10000 },
};
const layer2Metro: MetroCapability = {
  ...metroAms,
  regionIds: ["r-eu"],
  capabilities: { layer2: true },
};
const toronto: MetroCapability = {
  id: "metro-yyz",
  name: "Toronto",
  code: "YYZ",
  regionIds: ["r-na"],
  capabilities: { layer2: false },
};

function data(overrides: Partial<Layer2ModalData> = {}, form = {}): Layer2ModalData {
  return {
    values: layer2Values(form),
    identity: IDENTITY,
    ports: { ok: true, value: [source] },
    ...overrides,
  };
}

const quote: Layer2Quote = {
  config: {
    srcDcf: dcfOnNet.id,
    destDcf: "dcf-lon",
    bandwidth: 500,
    classOfService: "SILVER",
    duration: { value: 12, unit: "m" },
  },
  result: connectionPriceResult,
  srcDcf: { id: dcfOnNet.id, name: "Equinix AM3" },
  destDcf: { id: "dcf-lon", name: "Telehouse North" },
  key: "k3y-of-this-price",
};

function blocksOf(view: ModalView): KnownBlock[] {
  return view.blocks as KnownBlock[];
}

function block(view: ModalView, blockId: string): KnownBlock | undefined {
  return blocksOf(view).find((b) => b.block_id === blockId);
}

function element(view: ModalView, blockId: string): Record<string, unknown> {
  const found = block(view, blockId) as InputBlock | undefined;
  if (!found) throw new Error(`no block ${blockId}`);
  return found.element as unknown as Record<string, unknown>;
}

const values = (options: unknown) => (options as Array<{ value: string }>).map((o) => o.value);
const text = (view: ModalView) => readable(blocksOf(view));

function expectSlackAccepts(view: ModalView) {
  expect(viewProblems(view, "modal")).toEqual([]);
  expect(view.title.text.length).toBeLessThanOrEqual(24);
  const ids = blocksOf(view)
    .map((b) => b.block_id)
    .filter(Boolean);
  expect(new Set(ids).size).toBe(ids.length);
}

describe("layer2Modal", () => {
  it("starts as port-to-port with the person's own ports, labelled as people expect", () => {
    const view = layer2Modal(data(), {
      metadata: { channelId: "C0GENERAL1" },
      sandbox: false,
      currency: "USD",
    });
    expectSlackAccepts(view);
    expect(view.callback_id).toBe(LAYER2_VIEW);
    expect(view.submit?.text).toBe("Request approval");
    expect(inputLabels(view.blocks as ViewOutput["blocks"])).toEqual([
      "Connection type",
      "Source port",
      "Destination port",
      "Bandwidth",
      "Class of service",
      "Duration",
      "Duration unit",
      "Evergreen",
      "Connection name",
    ]);
    expect((element(view, LAYER2_BLOCKS.mode).initial_option as { value: string }).value).toBe(
      "port-to-port",
    );
    expect(values(element(view, LAYER2_BLOCKS.sourcePort).options)).toEqual([source.id]);
    // Only months: the one unit the layer 2 request shows.
    expect(values(element(view, LAYER2_BLOCKS.durationUnit).options)).toEqual(["m"]);
    expect(values(element(view, LAYER2_BLOCKS.classOfService).options)).toEqual([
      "GOLD",
      "SILVERPLUS",
      "SILVER",
      "BRONZE",
    ]);
    expect(text(view)).toContain("The price appears here");
    expect(text(view)).toContain(LAYER2_NOTICE);
    expect(text(view)).not.toContain(SANDBOX_LABEL);
    expect(parseOrderMetadata(view.private_metadata)).toEqual({ channelId: "C0GENERAL1" });
  });

  it("asks Slack to tell the app about every input that changes the form, and no other", () => {
    const view = layer2Modal(
      data(
        { metros: { ok: true, value: { layer2: [layer2Metro], without: [] } } },
        {
          mode: "business-to-business",
        },
      ),
      { metadata: {}, sandbox: false, currency: "USD" },
    );
    const dispatching = blocksOf(view)
      .filter((b): b is InputBlock => b.type === "input" && b.dispatch_action === true)
      .map((b) => (b.element as { action_id: string }).action_id);
    // Each dispatching input has a listener: a rebuild, or an ack for Enter in a typed input.
    const listened = [...LAYER2_DISPATCH_FIELDS, ...LAYER2_ENTER_ONLY_FIELDS].map(
      (f) => LAYER2_ACTIONS[f],
    );
    for (const id of dispatching) expect(listened).toContain(id);
    expect(dispatching).toContain(LAYER2_ACTIONS.destMetro);
    // Enter in a typed input never submits the order (Slack submits unless the block dispatches).
    const typed = blocksOf(view).filter(
      (b): b is InputBlock =>
        b.type === "input" &&
        (b.element.type === "plain_text_input" || b.element.type === "number_input"),
    );
    expect(typed.map((b) => b.block_id)).toEqual([
      LAYER2_BLOCKS.destCompany,
      LAYER2_BLOCKS.bandwidth,
      LAYER2_BLOCKS.duration,
      LAYER2_BLOCKS.name,
    ]);
    for (const b of typed) expect(b.dispatch_action).toBe(true);
    // Slack's client would check a min/max alone, before the form's other problems.
    for (const b of typed) expect(b.element).not.toHaveProperty("min_value");
  });

  it("shows the destination port looked up: its company, metro and speed, and whom it will wait on", () => {
    const view = layer2Modal(
      data(
        { source, destination: { ok: true, value: theirs } },
        {
          sourcePort: source.id,
          destPort: theirs.id,
        },
      ),
      { metadata: {}, sandbox: true, currency: "USD" },
    );
    expectSlackAccepts(view);
    const details = readable([block(view, LAYER2_DEST_DETAILS_BLOCK)!]);
    for (const shown of ["globex-lon-01", "Globex Cloud", "globex-cloud", "London (LON)", "10G"]) {
      expect(details).toContain(shown);
    }
    expect(details).toContain("PENDING");
    expect(details).toContain("not a failure");
    expect(text(view)).toContain(SANDBOX_LABEL);
    // The bandwidth hint names the source port's free capacity.
    const bandwidth = block(view, LAYER2_BLOCKS.bandwidth) as InputBlock;
    expect(bandwidth.hint?.text).toContain("7,500 Mbps");
  });

  it("says nothing about waiting when the destination is the company's own port", () => {
    const mine: Port = { ...theirs, companyId: IDENTITY.companyId, company: undefined };
    const view = layer2Modal(data({ destination: { ok: true, value: mine } }), {
      metadata: {},
      sandbox: false,
      currency: "USD",
    });
    const details = readable([block(view, LAYER2_DEST_DETAILS_BLOCK)!]);
    expect(details).toContain("acme-networks");
    expect(details).not.toContain("PENDING");
  });

  it("says plainly when the destination id is unknown", () => {
    const view = layer2Modal(
      data({ destination: { ok: false, problem: "No port has the id ffff." } }),
      { metadata: {}, sandbox: false, currency: "USD" },
    );
    expect(readable([block(view, LAYER2_DEST_DETAILS_BLOCK)!])).toContain(
      "No port has the id ffff.",
    );
  });

  it("business-to-business offers only layer 2 metros, then that metro's data centers and regions", () => {
    const dcfLon = { ...dcfOnNet, id: "dcf-1", name: "Equinix <AM3> & Co" };
    const view = layer2Modal(
      data(
        {
          metros: { ok: true, value: { layer2: [layer2Metro], without: [toronto] } },
          metro: layer2Metro,
          dcfs: { ok: true, value: [dcfLon] },
          regions: [{ id: "r-eu", name: "Europe" }],
        },
        { mode: "business-to-business", destMetro: layer2Metro.id },
      ),
      { metadata: {}, sandbox: false, currency: "USD" },
    );
    expectSlackAccepts(view);
    expect(inputLabels(view.blocks as ViewOutput["blocks"])).toEqual([
      "Connection type",
      "Source port",
      "Destination metro",
      "Destination data center",
      "Destination region",
      "Destination company",
      "Bandwidth",
      "Class of service",
      "Duration",
      "Duration unit",
      "Evergreen",
      "Connection name",
    ]);
    expect(values(element(view, LAYER2_BLOCKS.destMetro).options)).toEqual([layer2Metro.id]);
    expect(text(view)).toContain("no layer 2 there: Toronto (YYZ)");
    expect(values(element(view, LAYER2_BLOCKS.destDcf).options)).toEqual(["dcf-1"]);
    // Option texts are plain text: no mrkdwn escaping shows through.
    expect(JSON.stringify(element(view, LAYER2_BLOCKS.destDcf).options)).toContain(
      "Equinix <AM3> & Co",
    );
    // A metro with one region has it chosen already.
    expect(
      (element(view, LAYER2_BLOCKS.destRegion).initial_option as { value: string }).value,
    ).toBe("r-eu");
    expect((block(view, LAYER2_BLOCKS.destCompany) as InputBlock).hint?.text).toContain(
      "acme-networks",
    );
  });

  it("business-to-business before a metro is chosen asks for one first", () => {
    const view = layer2Modal(
      data(
        { metros: { ok: true, value: { layer2: [layer2Metro], without: [] } } },
        { mode: "business-to-business" },
      ),
      { metadata: {}, sandbox: false, currency: "USD" },
    );
    expect(block(view, LAYER2_BLOCKS.destDcf)).toBeUndefined();
    expect(text(view)).toContain("Pick a metro first");
  });

  it("shows the price with its formula and factors, and remembers which price it showed", () => {
    const view = layer2Modal(data({ price: { ok: true, value: quote } }), {
      metadata: { channelId: "C0GENERAL1" },
      sandbox: false,
      currency: "USD",
    });
    expectSlackAccepts(view);
    const shown = text(view);
    expect(shown).toContain("Layer 2 price: Equinix AM3 → Telehouse North");
    expect(shown).toContain("6,870.00");
    expect(shown).toContain("Formula");
    for (const factor of ["margin", "portFee", "bandwidthCost", "multiplier"]) {
      expect(shown).toContain(factor);
    }
    expect(block(view, LAYER2_PRICE_BLOCK)).toBeDefined();
    expect(parseOrderMetadata(view.private_metadata)).toEqual({
      channelId: "C0GENERAL1",
      priceKey: quote.key,
    });
    expect(block(view, LAYER2_REVIEW_BLOCK)).toBeUndefined();
    const review = layer2Modal(data({ price: { ok: true, value: quote } }), {
      metadata: {},
      sandbox: false,
      currency: "USD",
      review: true,
    });
    expect(readable([block(review, LAYER2_REVIEW_BLOCK)!])).toContain("Check the price below");
  });

  it("shows why there is no price, and keeps no price key", () => {
    const view = layer2Modal(
      data({ price: { ok: false, problem: "Layer 2 is not available in metro Toronto" } }),
      { metadata: { priceKey: "old-key" }, sandbox: false, currency: "USD" },
    );
    // Two sentences: the provider's reason is not lower-cased after a colon.
    expect(text(view)).toContain("No price for this connection. Layer 2 is not available");
    expect(parseOrderMetadata(view.private_metadata).priceKey).toBeUndefined();
  });

  it("says a bandwidth problem right under Bandwidth, and that the price waits for it", () => {
    const problem = "Bandwidth must be at most 10,000 Mbps: the free capacity of *ams*";
    const view = layer2Modal(
      data({ source, bandwidthProblem: problem }, { bandwidth: "99999999" }),
      {
        metadata: {},
        sandbox: false,
        currency: "USD",
      },
    );
    expectSlackAccepts(view);
    const ids = view.blocks.map((b) => (b as { block_id?: string }).block_id);
    expect(ids.indexOf(LAYER2_BANDWIDTH_PROBLEM_BLOCK)).toBe(
      ids.indexOf(LAYER2_BLOCKS.bandwidth) + 1,
    );
    expect(readable([block(view, LAYER2_BANDWIDTH_PROBLEM_BLOCK)!])).toContain(
      "Bandwidth must be at most 10,000 Mbps: the free capacity of *ams*",
    );
    expect(readable([block(view, LAYER2_PRICE_BLOCK)!])).toContain(
      "The price appears here once the bandwidth above is fixed",
    );
    const fine = layer2Modal(data({ source }), { metadata: {}, sandbox: false, currency: "USD" });
    expect(block(fine, LAYER2_BANDWIDTH_PROBLEM_BLOCK)).toBeUndefined();
  });

  it("keeps what was entered as initial values, and only values a person could have entered", () => {
    const view = layer2Modal(
      data(
        { source },
        {
          sourcePort: source.id,
          bandwidth: "750",
          duration: "not a number",
          classOfService: "PLATINUM",
          evergreen: true,
          name: "my-connection",
        },
      ),
      { metadata: {}, sandbox: false, currency: "USD" },
    );
    expect(element(view, LAYER2_BLOCKS.bandwidth).initial_value).toBe("750");
    expect(element(view, LAYER2_BLOCKS.duration).initial_value).toBeUndefined();
    expect(
      (element(view, LAYER2_BLOCKS.classOfService).initial_option as { value: string }).value,
    ).toBe("SILVER");
    expect(element(view, LAYER2_BLOCKS.evergreen).initial_options).toHaveLength(1);
    expect(element(view, LAYER2_BLOCKS.name).initial_value).toBe("my-connection");
    expect(
      (element(view, LAYER2_BLOCKS.sourcePort).initial_option as { value: string }).value,
    ).toBe(source.id);
  });

  it("says why there is no source port to choose", () => {
    const failed = layer2Modal(
      data({ ports: { ok: false, problem: "The provider answered 500" } }),
      {
        metadata: {},
        sandbox: false,
        currency: "USD",
      },
    );
    expect(block(failed, LAYER2_BLOCKS.sourcePort)).toBeUndefined();
    expect(text(failed)).toContain("Couldn't list your ports: The provider answered 500");
    const none = layer2Modal(data({ ports: { ok: true, value: [] } }), {
      metadata: {},
      sandbox: false,
      currency: "USD",
    });
    expect(text(none)).toContain("/connect port order");
  });

  it("can be filled by label like a person would", async () => {
    const view = layer2Modal(data(), { metadata: {}, sandbox: false, currency: "USD" });
    const session = createLocalModalSession({
      ...(view as unknown as ViewOutput),
      id: "V1",
      hash: "h1",
      state: { values: {} },
    });
    const state = await fillModal(session, {
      "Source port": source.id,
      "Destination port": theirs.id,
      Bandwidth: "100",
      "Class of service": "GOLD",
      "Connection name": "c1",
      Evergreen: ["Renew automatically at the end of the term"],
    });
    expect(state[LAYER2_BLOCKS.destPort]?.[LAYER2_ACTIONS.destPort]?.value).toBe(theirs.id);
    expect(state[LAYER2_BLOCKS.duration]?.[LAYER2_ACTIONS.duration]?.value).toBe("12");
  });
});

describe("order modal metadata and the loading modal", () => {
  it("round-trips the channel and price key and reads anything else as empty", () => {
    const text = encodeOrderMetadata({ channelId: "C0GENERAL1", priceKey: "abc_DEF-123" });
    expect(parseOrderMetadata(text)).toEqual({ channelId: "C0GENERAL1", priceKey: "abc_DEF-123" });
    expect(parseOrderMetadata("not json")).toEqual({});
    expect(parseOrderMetadata(JSON.stringify({ c: "<@U1>", p: "x".repeat(500) }))).toEqual({});
    expect(parseOrderMetadata("x".repeat(5000))).toEqual({});
    expect(parseOrderMetadata(undefined)).toEqual({});
  });

  it("a loading modal Slack accepts, without a submit button", () => {
    const view = orderLoadingModal(LAYER2_VIEW, "Layer 2 connection", "your ports", true);
    expectSlackAccepts(view);
    expect(view.submit).toBeUndefined();
    expect(text(view)).toContain("Loading your ports");
    expect(text(view)).toContain(SANDBOX_LABEL);
  });
});
