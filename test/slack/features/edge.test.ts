// The Edge feature's listeners (src/slack/features/edge), each called by its id with fake
// ack/client (test/support/fakeSlack.ts) and a scripted provider: what each acks, what it asks
// the provider, what it tells whom, its field errors and refusals. No Slack, Redis or HTTP; the
// end-to-end suites (test/e2e/edgeQuote*.test.ts) stay beside these.
import { describe, expect, it, vi } from "vitest";
import type { EdgeQuotationRequest } from "../../../src/domain/catalog/edge.js";
import type { ProviderApi } from "../../../src/provider/api.js";
import { readQuoteResult } from "../../../src/provider/edgeResponses.js";
import { httpError } from "../../../src/provider/errors.js";
import { registerEdgeListeners } from "../../../src/slack/features/edge/index.js";
import type { ListenerDeps } from "../../../src/slack/listeners.js";
import { draftBody } from "../../../src/usecases/edge/drafts.js";
import { quoteRef } from "../../../src/usecases/edge/quote.js";
import { EDGE_DRAFT_BUTTONS } from "../../../views/edge/edgeDrafts.js";
import {
  EDGE_DISCOUNT_BLOCK,
  EDGE_DISCOUNT_INPUT,
  EDGE_DISCOUNT_VIEW,
  EDGE_ENTER_ONLY_INPUTS,
  EDGE_ORDER_BLOCKS,
  EDGE_ORDER_INPUTS,
  EDGE_ORDER_VIEW,
  EDGE_QUOTE_BLOCKS,
  EDGE_QUOTE_INPUTS,
  EDGE_QUOTE_VIEW,
  EDGE_RENAME_BLOCK,
  EDGE_RENAME_INPUT,
  EDGE_RENAME_VIEW,
  type EdgeModalMetadata,
  encodeEdgeMetadata,
} from "../../../views/edge/edgeModals.js";
import { EDGE_QUOTE_BUTTONS, encodeQuoteRef } from "../../../views/edge/edgeQuote.js";
import { fakeAck, fakeClient, fakeRegistry, listenerServices } from "../../support/fakeSlack.js";

const CALL = {
  operation: "applyEdgeDiscount",
  method: "GET",
  path: "/v2/edge/price/calculate",
  subject: "the Edge quote",
};
const FRANCE = { id: "FR", name: "France" };
const SINGAPORE = { id: "SG", name: "Singapore" };
const REQUEST: EdgeQuotationRequest = {
  country: FRANCE,
  bandwidth: "1",
  bandwidthUnit: "Gbps",
  "contract-term": "12",
  contractTermUnit: "month",
  "formatted-address": "1 Rue de Rivoli, Paris",
};
const RESULT = {
  status: "COMPLETED",
  data: [{ quoteKey: "q1", vendor: "Acme", monthlyPrice: 100 }],
};
const QUOTE = readQuoteResult("r1", RESULT);
const REF = quoteRef("r1", REQUEST);
const REF_VALUE = encodeQuoteRef(REF)!;
const DRAFT = { id: "d1", ...draftBody({ request: REQUEST, quote: QUOTE, savedBy: "U1" }) };

/** A registry with the Edge feature registered, on a scripted provider. */
function setup() {
  const provider = {
    listEdgeCountries: async () => ({ items: [FRANCE, SINGAPORE] }),
    listEdgeBandwidths: async () => ({ items: ["1 Gbps", "10 Gbps"] }),
    listEdgeContractTerms: async () => ({ items: [12, 24] }),
    startEdgeQuote: vi.fn(async () => ({ responseId: "r2" })),
    getEdgeQuoteResult: vi.fn(async () => RESULT),
    applyEdgeDiscount: vi.fn(async (_id: string, code: string) => {
      if (code !== "NETSAVE10") throw httpError(CALL, 404, '{"message":"no such code"}');
      return { ...RESULT, data: [{ quoteKey: "q1", vendor: "Acme", monthlyPrice: 90 }] };
    }),
    listDrafts: vi.fn(async () => [DRAFT]),
    createDraft: vi.fn(async (body: typeof DRAFT) => ({ ...body, id: "d2" })),
    updateDraft: vi.fn(async (id: string, body: typeof DRAFT) => ({ ...body, id })),
    deleteDraft: vi.fn(async () => undefined),
    sendEdgeSelect: vi.fn(async () => undefined),
    sendEdgeEnquiry: vi.fn(async () => undefined),
    listPorts: async () => [{ name: "paris-1" }],
    listEdgeOrders: async () => ({ items: [] }),
  };
  const jobs = {
    quotePoller: { start: vi.fn(async () => ({ started: true })) },
    draftReminders: {
      remember: vi.fn(async () => undefined),
      forget: vi.fn(async () => undefined),
    },
  };
  const services = listenerServices({
    provider: provider as unknown as ProviderApi,
    jobs: jobs as unknown as ListenerDeps["jobs"],
    identity: async () => ({ companyUsername: "acme" }) as never,
    clock: { now: () => new Date("2026-01-01T00:00:00Z") } as never,
    // No request holds a port name (the approvals' one rule; src/approvals/names.ts).
    approvals: { store: { namesHeld: async () => new Set<string>() } } as never,
  });
  const registry = fakeRegistry();
  registerEdgeListeners(registry.registry, services);
  return { registry, provider, jobs, slack: fakeClient() };
}

const tested = new Set<string>();
const covers = (kind: string, id: string) => tested.add(`${kind}:${id}`);

function click(actionId: string, value: string | undefined) {
  covers("action", actionId);
  return {
    body: {
      user: { id: "U1" },
      channel: { id: "C1" },
      trigger_id: "T1",
      message: { ts: "1700000000.000100" },
    },
    action: { action_id: actionId, value },
  };
}

function submitted(
  callbackId: string,
  metadata: EdgeModalMetadata,
  values: Record<string, Record<string, unknown>>,
  blocks: Array<{ block_id: string }> = [],
) {
  covers("view", callbackId);
  return {
    body: { user: { id: "U1" } },
    view: {
      id: "V1",
      hash: "h1",
      callback_id: callbackId,
      private_metadata: encodeEdgeMetadata(metadata),
      state: { values },
      blocks: blocks.map((b) => ({ type: "input", ...b })),
    },
  };
}

/** The callback id of the view a views.open or views.update call showed. */
const callbackIdOf = (call: Record<string, unknown> | undefined) =>
  (call?.view as { callback_id?: string } | undefined)?.callback_id;
const selected = (value: string) => ({ selected_option: { value } });
const ephemeralTexts = (slack: ReturnType<typeof fakeClient>) =>
  slack.callsTo("chat.postEphemeral").map((c) => String(c.text));

describe("the Edge feature's listeners", () => {
  it("acks Enter in the typed inputs and does nothing else", async () => {
    const { registry, slack } = setup();
    for (const id of EDGE_ENTER_ONLY_INPUTS) {
      covers("action", id);
      const { ack, acked } = fakeAck();
      await registry.run("action", id, { ack, client: slack.client });
      expect(acked).toEqual([undefined]);
    }
    expect(slack.calls).toEqual([]);
  });

  it("shows Post code when the chosen country needs one, and leaves other modals alone", async () => {
    const { registry, slack } = setup();
    covers("action", EDGE_QUOTE_INPUTS.country);
    const view = { id: "V1", hash: "h1", callback_id: EDGE_QUOTE_VIEW, blocks: [] };
    const { ack, acked } = fakeAck();
    await registry.run("action", EDGE_QUOTE_INPUTS.country, {
      ack,
      body: { view },
      action: { selected_option: { value: "SG" } },
      client: slack.client,
    });
    expect(acked).toEqual([undefined]);
    const [update] = slack.callsTo("views.update");
    expect(update?.view_id).toBe("V1");
    expect(JSON.stringify(update?.view)).toContain(EDGE_QUOTE_BLOCKS.postCode);

    await registry.run("action", EDGE_QUOTE_INPUTS.country, {
      ack,
      body: { view: { ...view, callback_id: "other" } },
      action: { selected_option: { value: "SG" } },
      client: slack.client,
    });
    expect(slack.callsTo("views.update")).toHaveLength(1);
  });

  it("loads the countries matching what is typed", async () => {
    const { registry } = setup();
    covers("options", EDGE_QUOTE_INPUTS.country);
    const { ack, acked } = fakeAck();
    await registry.run("options", EDGE_QUOTE_INPUTS.country, { ack, payload: { value: "fra" } });
    expect(acked).toEqual([{ options: [expect.objectContaining({ value: "FR" })] }]);
  });

  it("refuses a quote form with field errors, and requests a valid one and starts polling", async () => {
    const { registry, provider, jobs, slack } = setup();
    const bad = fakeAck();
    await registry.run("view", EDGE_QUOTE_VIEW, {
      ack: bad.ack,
      client: slack.client,
      ...submitted(EDGE_QUOTE_VIEW, {}, {}, [{ block_id: EDGE_QUOTE_BLOCKS.country }]),
    });
    expect(bad.acked[0]).toMatchObject({
      response_action: "errors",
      errors: { [EDGE_QUOTE_BLOCKS.country]: "Choose a country" },
    });
    expect(provider.startEdgeQuote).not.toHaveBeenCalled();

    const good = fakeAck();
    await registry.run("view", EDGE_QUOTE_VIEW, {
      ack: good.ack,
      client: slack.client,
      ...submitted(
        EDGE_QUOTE_VIEW,
        { channelId: "C1" },
        {
          [EDGE_QUOTE_BLOCKS.country]: { [EDGE_QUOTE_INPUTS.country]: selected("FR") },
          [EDGE_QUOTE_BLOCKS.bandwidth]: { [EDGE_QUOTE_INPUTS.bandwidth]: selected("1|Gbps") },
          [EDGE_QUOTE_BLOCKS.term]: { [EDGE_QUOTE_INPUTS.term]: selected("12|month") },
          [EDGE_QUOTE_BLOCKS.address]: { [EDGE_QUOTE_INPUTS.address]: { value: "1 Rue, Paris" } },
        },
      ),
    });
    expect(good.acked).toEqual([undefined]);
    expect(provider.startEdgeQuote).toHaveBeenCalledOnce();
    const [root] = slack.callsTo("chat.postMessage");
    expect(root?.channel).toBe("C1");
    expect(jobs.quotePoller.start).toHaveBeenCalledWith(
      expect.objectContaining({ responseId: "r2", channel: "C1", userId: "U1" }),
    );
  });

  it("Order opens a loading modal, then the order form with the quote's offers", async () => {
    const { registry, slack } = setup();
    const { ack, acked } = fakeAck();
    await registry.run("action", EDGE_QUOTE_BUTTONS.order, {
      ack,
      client: slack.client,
      ...click(EDGE_QUOTE_BUTTONS.order, REF_VALUE),
    });
    expect(acked).toEqual([undefined]);
    expect(slack.callsTo("views.open")).toHaveLength(1);
    const [update] = slack.callsTo("views.update");
    expect(callbackIdOf(update)).toBe(EDGE_ORDER_VIEW);
  });

  it("Discount code opens the discount modal carrying the quote", async () => {
    const { registry, slack } = setup();
    const { ack } = fakeAck();
    await registry.run("action", EDGE_QUOTE_BUTTONS.discount, {
      ack,
      client: slack.client,
      ...click(EDGE_QUOTE_BUTTONS.discount, REF_VALUE),
    });
    const [opened] = slack.callsTo("views.open");
    expect(callbackIdOf(opened)).toBe(EDGE_DISCOUNT_VIEW);
  });

  it("Save as draft saves once, queues its reminders and says so in the thread", async () => {
    const { registry, provider, jobs, slack } = setup();
    provider.listDrafts.mockResolvedValueOnce([]);
    const { ack } = fakeAck();
    await registry.run("action", EDGE_QUOTE_BUTTONS.saveDraft, {
      ack,
      client: slack.client,
      ...click(EDGE_QUOTE_BUTTONS.saveDraft, REF_VALUE),
    });
    expect(provider.createDraft).toHaveBeenCalledOnce();
    expect(jobs.draftReminders.remember).toHaveBeenCalledWith(
      expect.objectContaining({ draftId: "d2", userId: "U1" }),
    );
    const [posted] = slack.callsTo("chat.postMessage");
    expect(posted).toMatchObject({ channel: "C1", thread_ts: "1700000000.000100" });
  });

  it("Ask for a 10 Gbps offer and Contact support send the enquiry and say so", async () => {
    const { registry, provider, slack } = setup();
    const { ack } = fakeAck();
    await registry.run("action", EDGE_QUOTE_BUTTONS.tenGig, {
      ack,
      client: slack.client,
      ...click(EDGE_QUOTE_BUTTONS.tenGig, REF_VALUE),
    });
    expect(provider.sendEdgeSelect).toHaveBeenCalledWith(
      expect.objectContaining({ bandwidth: "10", bandwidthUnit: "Gbps" }),
      expect.anything(),
    );
    await registry.run("action", EDGE_QUOTE_BUTTONS.support, {
      ack,
      client: slack.client,
      ...click(EDGE_QUOTE_BUTTONS.support, REF_VALUE),
    });
    expect(provider.sendEdgeEnquiry).toHaveBeenCalledOnce();
    expect(slack.callsTo("chat.postMessage")).toHaveLength(2);
  });

  it("Request the quote again requests it, and tells the person when the provider refuses", async () => {
    const { registry, provider, slack } = setup();
    const { ack } = fakeAck();
    await registry.run("action", EDGE_QUOTE_BUTTONS.retry, {
      ack,
      client: slack.client,
      ...click(EDGE_QUOTE_BUTTONS.retry, REF_VALUE),
    });
    expect(provider.startEdgeQuote).toHaveBeenCalledOnce();
    provider.startEdgeQuote.mockRejectedValueOnce(httpError(CALL, 400, "{}"));
    await registry.run("action", EDGE_QUOTE_BUTTONS.retry, {
      ack,
      client: slack.client,
      ...click(EDGE_QUOTE_BUTTONS.retry, REF_VALUE),
    });
    expect(ephemeralTexts(slack).at(-1)).toMatch(
      /Couldn't request the Edge quote: .*external pricing provider is not configured \(HTTP 400\)/,
    );
  });

  it("a discount code: refused next to the field when lost or unknown, else the new prices", async () => {
    const { registry, slack } = setup();
    const code = (value: string) => ({
      [EDGE_DISCOUNT_BLOCK]: { [EDGE_DISCOUNT_INPUT]: { value } },
    });
    const lost = fakeAck();
    await registry.run("view", EDGE_DISCOUNT_VIEW, {
      ack: lost.ack,
      client: slack.client,
      ...submitted(EDGE_DISCOUNT_VIEW, {}, code("NETSAVE10")),
    });
    expect(lost.acked[0]).toMatchObject({
      errors: { [EDGE_DISCOUNT_BLOCK]: expect.stringMatching(/lost its quote/) },
    });
    const unknown = fakeAck();
    await registry.run("view", EDGE_DISCOUNT_VIEW, {
      ack: unknown.ack,
      client: slack.client,
      ...submitted(EDGE_DISCOUNT_VIEW, { channelId: "C1", ref: REF }, code("NOPE")),
    });
    expect(unknown.acked[0]).toMatchObject({
      errors: { [EDGE_DISCOUNT_BLOCK]: expect.stringMatching(/isn't a valid discount code/) },
    });
    const valid = fakeAck();
    await registry.run("view", EDGE_DISCOUNT_VIEW, {
      ack: valid.ack,
      client: slack.client,
      ...submitted(EDGE_DISCOUNT_VIEW, { channelId: "C1", ref: REF }, code("NETSAVE10")),
    });
    expect(valid.acked).toEqual([undefined]);
    expect(slack.callsTo("chat.postMessage")).toHaveLength(1);
  });

  it("an order whose port name is taken is refused next to the name, nothing submitted", async () => {
    const { registry, slack } = setup();
    const { ack, acked } = fakeAck();
    await registry.run("view", EDGE_ORDER_VIEW, {
      ack,
      client: slack.client,
      ...submitted(
        EDGE_ORDER_VIEW,
        { channelId: "C1", ref: REF },
        {
          [EDGE_ORDER_BLOCKS.offer]: { [EDGE_ORDER_INPUTS.offer]: selected("q1") },
          [EDGE_ORDER_BLOCKS.portName]: { [EDGE_ORDER_INPUTS.portName]: { value: "paris-1" } },
        },
        [{ block_id: EDGE_ORDER_BLOCKS.offer }, { block_id: EDGE_ORDER_BLOCKS.portName }],
      ),
    });
    expect(acked[0]).toMatchObject({
      response_action: "errors",
      errors: { [EDGE_ORDER_BLOCKS.portName]: expect.stringMatching(/already exists/) },
    });
    expect(slack.calls).toEqual([]);
  });

  it("a draft's Order opens the order form, or says why when the draft is gone", async () => {
    const { registry, provider, slack } = setup();
    const { ack } = fakeAck();
    await registry.run("action", EDGE_DRAFT_BUTTONS.order, {
      ack,
      client: slack.client,
      ...click(EDGE_DRAFT_BUTTONS.order, "d1"),
    });
    expect(callbackIdOf(slack.callsTo("views.update")[0])).toBe(EDGE_ORDER_VIEW);
    provider.listDrafts.mockResolvedValueOnce([]);
    await registry.run("action", EDGE_DRAFT_BUTTONS.order, {
      ack,
      client: slack.client,
      ...click(EDGE_DRAFT_BUTTONS.order, "d1"),
    });
    expect(JSON.stringify(slack.callsTo("views.update")[1]?.view)).not.toContain(EDGE_ORDER_VIEW);
  });

  it("a draft's Re-quote requests a quote from what the draft saved", async () => {
    const { registry, provider, slack } = setup();
    const { ack } = fakeAck();
    await registry.run("action", EDGE_DRAFT_BUTTONS.requote, {
      ack,
      client: slack.client,
      ...click(EDGE_DRAFT_BUTTONS.requote, "d1"),
    });
    expect(provider.startEdgeQuote).toHaveBeenCalledWith(
      expect.objectContaining({ "formatted-address": REQUEST["formatted-address"] }),
      expect.anything(),
    );
  });

  it("a draft's Rename opens the rename modal; its submission renames or refuses an empty name", async () => {
    const { registry, provider, slack } = setup();
    const { ack } = fakeAck();
    await registry.run("action", EDGE_DRAFT_BUTTONS.rename, {
      ack,
      client: slack.client,
      ...click(EDGE_DRAFT_BUTTONS.rename, "d1"),
    });
    expect(callbackIdOf(slack.callsTo("views.update")[0])).toBe(EDGE_RENAME_VIEW);

    const name = (value: string) => ({ [EDGE_RENAME_BLOCK]: { [EDGE_RENAME_INPUT]: { value } } });
    const empty = fakeAck();
    await registry.run("view", EDGE_RENAME_VIEW, {
      ack: empty.ack,
      client: slack.client,
      ...submitted(EDGE_RENAME_VIEW, { draftId: "d1" }, name(" ")),
    });
    expect(empty.acked[0]).toMatchObject({
      errors: { [EDGE_RENAME_BLOCK]: "Enter a name for the draft" },
    });
    const renamed = fakeAck();
    await registry.run("view", EDGE_RENAME_VIEW, {
      ack: renamed.ack,
      client: slack.client,
      ...submitted(EDGE_RENAME_VIEW, { draftId: "d1", channelId: "C1" }, name("Paris site")),
    });
    expect(renamed.acked).toEqual([undefined]);
    expect(provider.updateDraft).toHaveBeenCalledWith(
      "d1",
      expect.objectContaining({ name: "Paris site" }),
      expect.anything(),
    );
    expect(ephemeralTexts(slack)).toHaveLength(1);
  });

  it("a draft's Delete is refused to anyone but its saver, and deletes it for them", async () => {
    const { registry, provider, jobs, slack } = setup();
    const { ack } = fakeAck();
    const other = click(EDGE_DRAFT_BUTTONS.delete, "d1");
    await registry.run("action", EDGE_DRAFT_BUTTONS.delete, {
      ack,
      client: slack.client,
      ...other,
      body: { ...other.body, user: { id: "U2" } },
    });
    expect(provider.deleteDraft).not.toHaveBeenCalled();
    expect(ephemeralTexts(slack)).toHaveLength(1);

    await registry.run("action", EDGE_DRAFT_BUTTONS.delete, {
      ack,
      client: slack.client,
      ...click(EDGE_DRAFT_BUTTONS.delete, "d1"),
    });
    expect(provider.deleteDraft).toHaveBeenCalledWith("d1", expect.anything());
    expect(jobs.draftReminders.forget).toHaveBeenCalledWith("d1", "deleted");
    expect(ephemeralTexts(slack)).toHaveLength(2);
  });

  // Runs last (tests run in order): every listener the feature registers has a test above.
  it("has a test for every listener id the feature registers", () => {
    const { registry } = setup();
    const registered = (["action", "view", "options"] as const).flatMap((kind) =>
      registry.ids(kind).map((id) => `${kind}:${id}`),
    );
    expect([...tested].sort()).toEqual(registered.sort());
  });
});
