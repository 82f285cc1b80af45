import type { KnownBlock } from "@slack/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Asn, Port } from "../../src/provider/api.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { type StandinView, viewStateValues } from "../../src/standin/index.js";
import {
  IOD_ACTIONS,
  IOD_BLOCKS,
  IOD_PORT_STATUS_BLOCK,
  IOD_ROUTING_NOTE_BLOCK,
} from "../../views/iod/iodModal.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { apiWordsInErrors } from "../support/plainWords.js";
import { readable } from "../views/support.js";

// `/connect iod` end to end: the form offers only what the IO-D rules allow, each routing and
// ASN combination is submitted, approved and placed once with exactly the body the rules ask
// for, a port without IO-D is refused plainly, and the BGP key never leaves the provider call.

const USER = STANDIN_IDS.requester;
const BGP_KEY = "Zq7-secret-bgp-key";

describe("/connect iod, end to end", () => {
  let env: TestBot;
  let sandbox: Sandbox;
  let companyId: string;
  let own: Port[];
  let publicAsns: Asn[];
  let suggested: number;

  beforeAll(async () => {
    env = await startTestBot();
    sandbox = env.bot.sandbox!;
    const identity = await env.bot.services.identity();
    companyId = identity.companyId;
    own = await env.bot.services.provider.listPorts(identity.companyUsername, { deleted: false });
    publicAsns = await env.bot.services.provider.listVerifiedAsns(companyId);
    suggested = await env.bot.services.provider.suggestPrivateAsn();
  });
  afterAll(async () => {
    await env?.close();
  });

  const port = (name: string) => {
    const found = own.find((p) => p.name === name);
    if (!found) throw new Error(`the sandbox has no port ${name}`);
    return found;
  };

  const text = (view: StandinView) => readable(view.view.blocks as KnownBlock[]);
  const hasBlock = (view: StandinView, blockId: string) =>
    view.view.blocks.some((b) => (b as { block_id?: string }).block_id === blockId);
  const element = (view: StandinView, blockId: string) =>
    (
      view.view.blocks.find(
        (b) => (b as { block_id?: string }).block_id === blockId,
      ) as unknown as {
        element: Record<string, unknown>;
      }
    ).element;

  async function openForm(): Promise<StandinView> {
    const before = env.standin.currentView(USER)?.view.id;
    expect((await env.connect("iod")).status).toBe(200);
    return env.standin.waitForView(
      USER,
      (v) =>
        v.view.id !== before &&
        v.view.callback_id === "iod_request" &&
        hasBlock(v, IOD_BLOCKS.accessPort),
    );
  }

  async function giaCalls(): Promise<number> {
    const summary = (await (await fetch(`${sandbox.url}/__sandbox/requests?summary=1`)).json()) as {
      byOperation: Record<string, number>;
    };
    return summary.byOperation.createGiaService ?? 0;
  }

  const serviceNamed = (name: string) =>
    [...sandbox.state.services.values()].find((s) => s.name === name);

  /** Submits the open form, approves the request and resolves once it is ordered. */
  async function submitApproveAndPlace(name: string) {
    const before = await giaCalls();
    const submitted = await env.slack.submitView(USER);
    expect(submitted.errors).toBeUndefined();
    expect(submitted.currentView).toBeUndefined();
    const confirmation = await env.standin.waitForEphemeral(USER, (m) => m.text.includes(name));
    expect(confirmation.text).toContain("waiting for approval");
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes(name),
    );
    expect(await giaCalls()).toBe(before);
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
    expect((await giaCalls()) - before).toBe(1);
    const service = serviceNamed(name);
    expect(service).toBeDefined();
    expect(placed.text).toContain(service!.id);
    return { request, placed, service: service! };
  }

  it("DYNAMIC with a private ASN: the suggested ASN is pre-filled, the BGP key goes to the provider and nowhere else", async () => {
    const access = port("lon-core-01");
    await openForm();
    await env.slack.fillView(USER, { "Access port": access.id });
    const checked = await env.standin.waitForView(USER, (v) => hasBlock(v, IOD_PORT_STATUS_BLOCK));
    expect(text(checked)).toContain("is IO-D enabled");
    // DYNAMIC is the default; the private ASN input carries the provider's suggestion.
    expect(element(checked, IOD_BLOCKS.privateAsn).initial_value).toBe(String(suggested));
    await env.slack.fillView(USER, {
      "BGP key": BGP_KEY,
      "IPv4 block": "/28",
      IPv6: "48",
      "Rate limit": "300",
      Duration: "30",
      "Geo country": "gb",
      "Geo city": "London",
      "Service name": "e2e-iod-private",
    });
    const { request, service } = await submitApproveAndPlace("e2e-iod-private");
    expect(service.request).toEqual({
      accessPortId: access.id,
      name: "e2e-iod-private",
      rateLimit: 300,
      type: "DYNAMIC",
      privateAsn: true,
      privateAsnRequested: suggested,
      bgpKey: BGP_KEY,
      ipBlock: 28,
      enableIpv6: true,
      ipv6Block: 48,
      duration: { quantity: 30, unit: "d" },
      paymentType: "payg",
      ipGeoCountry: "GB",
      ipGeoCity: "London",
    });
    const approval = JSON.stringify(request.blocks);
    // How IO-D is billed and where the rate is, in the message and in Approve's confirmation.
    const billing =
      "No fixed price: IO-D is billed pay as you go (payg), by use over its 30-day term, at your account's IO-D rate. The provider's API does not give that rate, so it is not shown here: see your account's IO-D pricing in the provider's portal.";
    expect(approval).toContain(`*Price:* ${billing}`);
    expect(approval).toContain("Pay as you go (payg), 30-day term");
    const approve = (request.blocks ?? [])
      .flatMap((b) => (b as { elements?: unknown[] }).elements ?? [])
      .find((e) => (e as { action_id?: string }).action_id === "approval_approve") as
      | { confirm?: { title: { text: string }; text: { text: string } } }
      | undefined;
    expect(approve?.confirm?.title.text).toBe("Approve this IO-D service?");
    expect(approve?.confirm?.text.text).toBe(billing);
    expect(approval).toContain("BGP key");
    expect(approval).toContain("set (hidden)");
    expect(approval).toContain(`Private AS${suggested}`);

    // The key is in no Slack call the bot made (messages, views, ephemerals) and in no log line.
    const slackCalls = JSON.stringify(env.standin.calls());
    expect(slackCalls).not.toContain(BGP_KEY);
    expect(env.logLines.join("\n")).not.toContain(BGP_KEY);
    const approvalId = JSON.stringify(request.blocks).match(/apr_[a-z2-7]{16}/)?.[0];
    const record = await env.bot.services.approvals.store.get(approvalId!);
    expect(record?.summary.some((line) => line.value.includes(BGP_KEY))).toBe(false);
    // The provider got it (service.request above); placed, the call is never sent again, so the
    // record keeps it no longer (docs/SECURITY.md) while the rest of the call stays.
    expect(record?.status).toBe("placed");
    expect(JSON.stringify(record?.call)).not.toContain(BGP_KEY);
    expect(record?.call.body).toMatchObject({ name: "e2e-iod-private", rateLimit: 300 });
  });

  it("DYNAMIC with a public ASN: only verified ASNs, the record id as asnId, no private ASN fields", async () => {
    const access = port("iad-core-01");
    const asn = publicAsns.find((a) => a.asn === "64500")!;
    expect(asn).toBeDefined();
    await openForm();
    await env.slack.fillView(USER, { "Access port": access.id, ASN: "public" });
    const withPublic = await env.standin.waitForView(USER, (v) =>
      hasBlock(v, IOD_BLOCKS.publicAsn),
    );
    // Public hides the private ASN input (and its auto-assign).
    expect(hasBlock(withPublic, IOD_BLOCKS.privateAsn)).toBe(false);
    const offered = (element(withPublic, IOD_BLOCKS.publicAsn).options as Array<{ value: string }>)
      .map((o) => o.value)
      .sort();
    expect(offered).toEqual(publicAsns.map((a) => a.id).sort());
    expect(publicAsns.every((a) => a.status === "VERIFIED" && a.private !== true)).toBe(true);
    await env.slack.fillView(USER, {
      "Public ASN": asn.id,
      "IPv4 block": "none",
      "Rate limit": "100",
      Duration: "7",
      "Service name": "e2e-iod-public",
    });
    const { request, service } = await submitApproveAndPlace("e2e-iod-public");
    expect(service.request).toEqual({
      accessPortId: access.id,
      name: "e2e-iod-public",
      rateLimit: 100,
      type: "DYNAMIC",
      privateAsn: false,
      asnId: asn.id,
      autoAssignBgpKey: true,
      duration: { quantity: 7, unit: "d" },
      paymentType: "payg",
    });
    expect(JSON.stringify(request.blocks)).toContain("AS64500");
  });

  it("STATIC: the ASN and BGP key disappear, and privateAsn true with auto-assign is sent", async () => {
    const access = port("nyc-edge-01");
    await openForm();
    await env.slack.fillView(USER, { "Access port": access.id, Routing: "STATIC" });
    const statik = await env.standin.waitForView(USER, (v) => hasBlock(v, IOD_ROUTING_NOTE_BLOCK));
    for (const hidden of ["asnChoice", "privateAsn", "publicAsn", "bgpKey"] as const) {
      expect(hasBlock(statik, IOD_BLOCKS[hidden])).toBe(false);
    }
    expect(text(statik)).toContain("the provider assigns a private ASN");
    await env.slack.fillView(USER, {
      "IPv4 block": "/29",
      "Rate limit": "50",
      Duration: "1",
      "Service name": "e2e-iod-static",
    });
    const { request, service } = await submitApproveAndPlace("e2e-iod-static");
    expect(service.request).toEqual({
      accessPortId: access.id,
      name: "e2e-iod-static",
      rateLimit: 50,
      type: "STATIC",
      privateAsn: true,
      privateAsnAutoAssign: true,
      ipBlock: 29,
      duration: { quantity: 1, unit: "d" },
      paymentType: "payg",
    });
    expect(JSON.stringify(request.blocks)).toContain("static routing has no BGP session");
  });

  it("refuses a port that is not IO-D enabled, saying so plainly", async () => {
    const access = port("fra-nni-01");
    const info = await env.bot.services.provider.getPortInfo(companyId, access.id);
    expect(info.capabilities?.giaStandardV1).toBe(false);
    await openForm();
    await env.slack.fillView(USER, {
      "Access port": access.id,
      "Rate limit": "100",
      "Service name": "e2e-iod-not-enabled",
    });
    const shown = await env.standin.waitForView(USER, (v) => hasBlock(v, IOD_PORT_STATUS_BLOCK));
    expect(text(shown)).toContain("fra-nni-01 is not enabled for Internet On-Demand (IO-D)");
    const before = await giaCalls();
    const outcome = await env.slack.submitView(USER);
    expect(outcome.responseAction).toBe("errors");
    expect(outcome.errors?.[IOD_BLOCKS.accessPort]).toContain(
      "is not enabled for Internet On-Demand (IO-D)",
    );
    expect((await giaCalls()) - before).toBe(0);
    await env.slack.closeView(USER);
  });

  describe("each IO-D rule violation next to its field", () => {
    async function submitWith(
      inputs: Record<string, string>,
      forge: Partial<Record<keyof typeof IOD_BLOCKS, unknown>> = {},
    ) {
      await openForm();
      await env.slack.fillView(USER, inputs);
      // The form is rebuilt after each choice that changes it (one at a time, newest last):
      // wait for the last one, which shows the verified ASN list once "public" is chosen.
      const current = await env.standin.waitForView(
        USER,
        (v) =>
          hasBlock(v, IOD_PORT_STATUS_BLOCK) &&
          (inputs.ASN !== "public" || hasBlock(v, IOD_BLOCKS.publicAsn)),
      );
      const values = viewStateValues(current.view.blocks, current.entered) as Record<
        string,
        Record<string, unknown>
      >;
      for (const [field, value] of Object.entries(forge)) {
        const key = field as keyof typeof IOD_BLOCKS;
        values[IOD_BLOCKS[key]] = { [IOD_ACTIONS[key]]: value };
      }
      const before = await giaCalls();
      const outcome = await env.slack.submitView(USER, undefined, values as never);
      expect(outcome.responseAction).toBe("errors");
      expect((await giaCalls()) - before).toBe(0);
      await env.slack.closeView(USER);
      return outcome.errors ?? {};
    }

    const base = () => ({
      "Access port": port("lon-core-01").id,
      "Rate limit": "100",
      "Service name": "e2e-iod-rules",
    });

    it("every problem in one answer, filled as a person types: duration 0, a rate over the port's capacity, a short BGP key, a country by name, a public ASN number as private", async () => {
      const remaining = port("lon-core-01").capacity?.remaining ?? 0;
      const errors = await submitWith({
        ...base(),
        "Private ASN": "64500",
        "BGP key": "abc",
        "Rate limit": String(remaining + 1_000_000),
        Duration: "0",
        "Geo country": "Holland",
      });
      expect(Object.keys(errors).sort()).toEqual(
        [
          IOD_BLOCKS.privateAsn,
          IOD_BLOCKS.bgpKey,
          IOD_BLOCKS.rateLimit,
          IOD_BLOCKS.duration,
          IOD_BLOCKS.geoCountry,
        ].sort(),
      );
      expect(errors[IOD_BLOCKS.duration]).toBe(
        "Duration must be a whole number of days, from 1 to 3,653",
      );
      expect(errors[IOD_BLOCKS.rateLimit]).toMatch(/^The port has [\d,]+ Mbps left; choose/);
      expect(apiWordsInErrors(errors)).toEqual({});
    });

    it("a BGP key shorter than 6 characters (rule 3)", async () => {
      const errors = await submitWith({ ...base(), "BGP key": "abc" });
      expect(errors[IOD_BLOCKS.bgpKey]).toContain("6 to 24 characters");
      expect(JSON.stringify(errors)).not.toContain("abc");
    });

    it("an IPv6 block other than /48 (rule 4)", async () => {
      const errors = await submitWith(base(), {
        ipv6: {
          type: "static_select",
          selected_option: { text: { type: "plain_text", text: "/56" }, value: "56" },
        },
      });
      expect(errors[IOD_BLOCKS.ipv6]).toBe("IPv6 block can only be /48");
    });

    it("no IPv4 block with a private ASN (rule 1)", async () => {
      const errors = await submitWith(base(), {
        ipBlock: {
          type: "static_select",
          selected_option: { text: { type: "plain_text", text: "None" }, value: "none" },
        },
      });
      expect(errors[IOD_BLOCKS.ipBlock]).toContain("A private ASN needs an IPv4 block");
    });

    it("a rate limit above the port's remaining capacity", async () => {
      const remaining = port("lon-core-01").capacity?.remaining ?? 0;
      const errors = await submitWith({ ...base(), "Rate limit": String(remaining + 1) });
      // Said in words (no API field names); earlier tests used some of the port's capacity.
      expect(errors[IOD_BLOCKS.rateLimit]).toMatch(
        /^The port has ([\d,]+ Mbps) left; choose \1 or less$/,
      );
    });

    it("a private ASN outside the private ranges (rule 1), and a public ASN that is not verified (rule 2)", async () => {
      const privateErrors = await submitWith({ ...base(), "Private ASN": "64500" });
      expect(privateErrors[IOD_BLOCKS.privateAsn]).toContain("Private ASN must be in 64512–65534");

      // Every ASN record of the company, unfiltered: one is not verified yet.
      const all = (await (
        await fetch(`${sandbox.url}/app-user/${companyId}/asns`, {
          headers: { authorization: "Bearer test" },
        })
      ).json()) as Asn[];
      const pending = all.find((a) => a.status !== "VERIFIED" && a.private !== true);
      expect(pending).toBeDefined();
      const publicErrors = await submitWith(
        { ...base(), ASN: "public" },
        {
          publicAsn: {
            type: "static_select",
            selected_option: { text: { type: "plain_text", text: "x" }, value: pending!.id },
          },
        },
      );
      expect(publicErrors[IOD_BLOCKS.publicAsn]).toBe(
        "Pick one of your verified ASNs from the list",
      );
    });
  });

  it("logged no error and never failed to update a form", () => {
    const bad = env.logLines.filter(
      (line) => /"level":(50|60)/.test(line) || line.includes("could not update"),
    );
    expect(bad).toEqual([]);
  });
});
