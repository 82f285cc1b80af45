import type { KnownBlock } from "@slack/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import type { StandinEphemeral } from "../../src/standin/index.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { readable } from "../views/support.js";

// The look-up commands end to end: a signed slash command into the bot over HTTP, the bot
// asking the embedded sandbox, and the ephemeral answer as the Slack stand-in shows it.
// Expected values come from the sandbox itself (its state or its own HTTP answers).

const USER = STANDIN_IDS.requester;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe("/connect look-ups, end to end over signed HTTP", () => {
  let env: TestBot;
  let sandbox: Sandbox;

  beforeAll(async () => {
    env = await startTestBot();
    sandbox = env.bot.sandbox!;
  });
  afterAll(async () => {
    await env?.close();
  });

  /** Runs `/connect <text>` and resolves with the answer: the next new ephemeral message. */
  async function ask(text: string): Promise<StandinEphemeral & { readable: string }> {
    const before = new Set(env.standin.ephemerals(USER).map((m) => m.ts));
    const ack = await env.connect(text);
    expect(ack.status).toBe(200);
    const reply = await env.standin.waitForEphemeral(USER, (m) => !before.has(m.ts));
    return { ...reply, readable: readable((reply.blocks ?? []) as KnownBlock[]) };
  }

  /** The sandbox's own answer, without the bot in between. */
  async function sandboxCall<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: {
        authorization: "Bearer test-key",
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    expect(response.ok).toBe(true);
    return (await response.json()) as T;
  }

  const company = () => sandbox.apiUser;

  function buttonIds(message: StandinEphemeral): string[] {
    return (message.blocks ?? []).flatMap((b) =>
      b.type === "actions" && "elements" in b
        ? (b.elements as Array<{ action_id?: string }>).map((e) => e.action_id ?? "")
        : [],
    );
  }

  function expectNoInternals(text: string) {
    expect(text).not.toMatch(/\n\s+at |Error:|ProviderError|stack/);
    expect(text).not.toContain("test-key");
  }

  describe("dcf", () => {
    it("finds the facilities matching the text, with their metros named", async () => {
      const expected = await sandboxCall<Array<{ name: string }>>(
        "GET",
        `/v2/data-center-facility/search?criteria=${encodeURIComponent(JSON.stringify({ text: "ams" }))}`,
      );
      expect(expected.length).toBeGreaterThan(0);
      const reply = await ask("dcf ams");
      expect(reply.readable).toContain('Data centers matching "ams"');
      for (const dcf of expected) expect(reply.readable).toContain(dcf.name);
      // Metro names come from the metro capabilities call, not ids.
      expect(reply.readable).toContain("Amsterdam (AMS)");
      const others = sandbox.state.world.dcfs.filter(
        (d) => !expected.some((e) => e.name === d.name),
      );
      for (const dcf of others) expect(reply.readable).not.toContain(`*${dcf.name}*`);
      expect(buttonIds(reply)).toContain("connect_share");
      expect(buttonIds(reply)).not.toContain("connect_page_next");
    });

    it("pages through every facility: Next replaces the answer with the next page", async () => {
      const all = sandbox.state.world.dcfs.map((d) => d.name);
      expect(all.length).toBeGreaterThan(20);
      const first = await ask("dcf");
      expect(first.readable).toContain("Showing 1–10");
      for (const name of all.slice(0, 10)) expect(first.readable).toContain(name);
      expect(first.readable).not.toContain(`*${all[10]}*`);
      expect(buttonIds(first)).toContain("connect_page_next");
      expect(buttonIds(first)).not.toContain("connect_page_prev");

      const ack = await env.slack.clickButton({
        userId: USER,
        message: first,
        actionId: "connect_page_next",
      });
      expect(ack.status).toBe(200);
      const second = await env.standin.waitForEphemeral(
        USER,
        (m) => m.ts === first.ts && readable((m.blocks ?? []) as KnownBlock[]).includes("11–20"),
      );
      const text = readable((second.blocks ?? []) as KnownBlock[]);
      for (const name of all.slice(10, 20)) expect(text).toContain(name);
      expect(text).not.toContain(`*${all[0]}*`);
      expect(buttonIds(second)).toEqual(
        expect.arrayContaining(["connect_page_prev", "connect_page_next"]),
      );
      expect(env.standin.responses().at(-1)?.applied).toBe("replaced");
    });

    it("says so when nothing matches", async () => {
      const reply = await ask("dcf zzqqxx");
      expect(reply.text).toContain('No data center matches "zzqqxx"');
    });
  });

  describe("ports and port", () => {
    interface SandboxPort {
      id: string;
      name: string;
      deleted?: boolean;
      capacity?: { total?: number; utilised?: number; remaining?: number };
    }

    it("lists the company's ports without the deleted ones, with their capacity", async () => {
      const all = await sandboxCall<{ results: SandboxPort[] }>(
        "GET",
        `/api/company/${company().companyUsername}/ports`,
      );
      const live = all.results.filter((p) => !p.deleted);
      const deleted = all.results.filter((p) => p.deleted);
      expect(deleted.length).toBeGreaterThan(0);
      const reply = await ask("ports");
      for (const port of live) {
        expect(reply.readable).toContain(port.name);
        expect(reply.readable).toContain(port.id);
      }
      for (const port of deleted) expect(reply.readable).not.toContain(port.id);
      const used = live.find((p) => (p.capacity?.utilised ?? 0) > 0)!;
      const { utilised = 0, total = 1 } = used.capacity ?? {};
      expect(reply.readable).toContain(
        `${utilised.toLocaleString("en-US")} Mbps used (${Math.round((utilised / total) * 100)}%)`,
      );
    });

    it("shows one port in full with its IO-D capability", async () => {
      const iod = sandbox.state.world.ports.find(
        (p) => p.companyId === company().companyId && !p.deleted && p.capabilities.giaStandardV1,
      )!;
      const reply = await ask(`port ${iod.id}`);
      expect(reply.readable).toContain(`Port ${iod.name}`);
      expect(reply.readable).toContain(iod.id);
      expect(reply.readable).toContain("IO-D enabled");
      expect(reply.readable).toContain("Capacity");
    });

    it("still shows the port when its info call fails: the capability is unknown", async () => {
      const port = sandbox.state.world.ports.find(
        (p) => p.companyId === company().companyId && !p.deleted,
      )!;
      sandbox.faults.add({ match: "GET /app-user/*/ports/*/info", status: 500 });
      try {
        const reply = await ask(`port ${port.id}`);
        expect(reply.readable).toContain(`Port ${port.name}`);
        expect(reply.readable).toContain("IO-D capability unknown");
      } finally {
        sandbox.faults.clear();
      }
    });

    it("says plainly when no port has that id", async () => {
      const reply = await ask("port ffffffffffffffffffffffff");
      expect(reply.text).toContain("No port with id `ffffffffffffffffffffffff`");
      expect(buttonIds(reply)).not.toContain("connect_share");
      expectNoInternals(reply.text);
    });

    it("answers a usage line when the id is missing or is not an id", async () => {
      const missing = await ask("port");
      expect(missing.text).toContain("Usage: `/connect port &lt;portId&gt;`");
      const odd = await ask("port ../../etc");
      expect(odd.text).toContain("does not look like a port id");
    });
  });

  describe("order", () => {
    /** A port order placed at the sandbox directly, at an on-net data center ready for orders. */
    async function placePortOrder(portName: string) {
      const dcf = sandbox.state.world.dcfs.find((d) => d.kind === "ON_NET" && d.ready)!;
      return sandboxCall<{ id: string }>(
        "PUT",
        `/api/company/${company().companyUsername}/ports/orders`,
        {
          dataCenterFacility: dcf.username,
          speed: String(dcf.speeds[0]),
          durationUnit: "y",
          portName,
          paymentType: "invoice",
        },
      );
    }

    it("shows a port order's status as it moves on, with the Track button", async () => {
      const created = await placePortOrder("e2e-lookup-order");
      const first = await ask(`order ${created.id}`);
      expect(first.readable).toContain("Port order e2e-lookup-order");
      expect(first.readable).toContain("created — waiting for the provider's administrator");
      // The provider's placeholder LOA status (TODO) in words.
      expect(first.readable).toContain("*LOA status*\nnot issued yet");
      expect(first.readable).not.toContain("TODO");
      expect(buttonIds(first)).toContain("order_track");

      sandbox.clock.advance(2 * HOUR);
      const expected = sandbox.state.orderState(sandbox.state.orders.get(created.id)!);
      expect(expected.status).toBe("processing");
      const later = await ask(`order ${created.id}`);
      expect(later.readable).toContain(expected.status);
      expect(later.readable).toContain(`*LOA status*\n${expected.loaStatus}`);
      expect(later.readable).not.toContain("created — waiting for the provider's administrator");
    });

    it("Track starts one tracker that posts in the channel, and a second Track joins it", async () => {
      // An order still in progress (the one created above): a done one would end its tracker at
      // the first read, racing the list and the stop below.
      const order = [...sandbox.state.orders.values()].find(
        (o) => !sandbox.state.orderState(o).done,
      );
      if (!order) throw new Error("no port order in progress (the test above creates one)");
      const shown = await ask(`order ${order.id}`);
      await env.slack.clickButton({ userId: USER, message: shown, actionId: "order_track" });
      await env.standin.waitForEphemeral(
        USER,
        (m) => m.text.includes(`Tracking: Port order \`${order.id}\``),
        { timeoutMs: 15_000 },
      );
      const root = await env.standin.waitForMessage(
        STANDIN_IDS.general,
        (m) => m.text.includes(`Tracking: Port order \`${order.id}\``),
        { timeoutMs: 15_000 },
      );
      expect((await env.bot.jobs.tracker.get(order.id))?.threadTs).toBe(root.ts);

      await env.slack.clickButton({ userId: USER, message: shown, actionId: "order_track" });
      await env.standin.waitForEphemeral(USER, (m) => m.text.includes("already being tracked"), {
        timeoutMs: 15_000,
      });
      expect(
        env.standin
          .messages(STANDIN_IDS.general)
          .filter((m) => m.text.includes(`Tracking: Port order \`${order.id}\``)),
      ).toHaveLength(1);

      await env.connect("track", USER);
      const list = await env.standin.waitForEphemeral(
        USER,
        (m) => m.text.includes("tracked item"),
        { timeoutMs: 15_000 },
      );
      expect(JSON.stringify(list.blocks)).toContain(order.id);
      await env.connect(`track stop ${order.id}`, USER);
      await env.standin.waitForEphemeral(
        USER,
        (m) => m.text.includes(`Tracking stopped: Port order \`${order.id}\``),
        { timeoutMs: 15_000 },
      );
    });

    it("Track on an order that ended says so, and posts and tracks nothing", async () => {
      const created = await placePortOrder("e2e-lookup-cancelled");
      await sandboxCall("POST", `/__sandbox/orders/${created.id}`, { status: "cancelled" });
      const shown = await ask(`order ${created.id}`);
      const postedBefore = env.standin.messages(STANDIN_IDS.general).length;
      await env.slack.clickButton({ userId: USER, message: shown, actionId: "order_track" });
      const answer = await env.standin.waitForEphemeral(
        USER,
        (m) => m.text.includes(`Port order \`${created.id}\` is *cancelled*`),
        { timeoutMs: 15_000 },
      );
      expect(answer.text).toContain("nothing is left to track");
      expect(answer.text).toContain(`/connect order ${created.id}`);
      expect(await env.bot.jobs.tracker.get(created.id)).toBeNull();
      expect(env.standin.messages(STANDIN_IDS.general)).toHaveLength(postedBefore);
    });

    it("answers usage without an id, and a clear message for an unknown one", async () => {
      const missing = await ask("order");
      expect(missing.text).toContain("Usage: `/connect order &lt;orderId&gt;`");
      const unknown = await ask("order 000000000000000000000000");
      expect(unknown.text).toContain("No port order with id `000000000000000000000000`");
    });
  });

  describe("asn and routers", () => {
    it("shows the suggested private ASN and every verified ASN, public and private", async () => {
      const reply = await ask("asn");
      const suggested = sandbox.state.nextPrivateAsn();
      expect(reply.readable).toContain(`Suggested private ASN:* \`${suggested}\``);
      const mine = sandbox.state.world.asns.filter((a) => a.companyId === company().companyId);
      const verified = mine.filter((a) => a.status === "VERIFIED");
      expect(verified.some((a) => a.private)).toBe(true);
      expect(verified.some((a) => !a.private)).toBe(true);
      for (const asn of verified) expect(reply.readable).toContain(`AS${asn.asn}`);
      for (const asn of mine.filter((a) => a.status !== "VERIFIED"))
        expect(reply.readable).not.toContain(`AS${asn.asn}\``);
      expect(reply.readable).toContain(`Verified ASNs (${verified.length})`);
    });

    it("lists the cloud routers with their sites", async () => {
      const routers = sandbox.state.world.cloudRouters.filter(
        (r) => r.companyId === company().companyId,
      );
      expect(routers.length).toBeGreaterThan(0);
      const reply = await ask("routers");
      for (const router of routers) {
        expect(reply.readable).toContain(router.name!);
        for (const site of router.sites ?? []) expect(reply.readable).toContain(site.name!);
      }
    });

    it("lists the metros and says where layer 2 to another company can be ordered", async () => {
      const metros = sandbox.state.world.metros;
      expect(metros.length).toBeGreaterThan(0);
      const all = await ask("metros");
      for (const metro of metros.slice(0, 25)) expect(all.readable).toContain(metro.name!);
      expect(all.readable).toContain("layer 2 business-to-business");
      const ams = metros.find((m) => m.code === "AMS");
      expect(ams).toBeDefined();
      const narrowed = await ask("metros ams");
      expect(narrowed.readable).toContain(ams!.name!);
      for (const other of metros.filter(
        (m) => m !== ams && !/ams/i.test(`${m.name}${m.code}${m.country}`),
      ))
        expect(narrowed.readable).not.toContain(`*${other.name}*`);
      const none = await ask("metros atlantis");
      expect(none.text).toContain('No metro matches "atlantis"');
    });

    it("refuses arguments a command does not take", async () => {
      const reply = await ask("routers all");
      expect(reply.text).toContain("Usage: `/connect routers`");
      expect(reply.text).toContain("takes no arguments");
    });
  });

  describe("edge", () => {
    it("lists where Edge ports are offered", async () => {
      const edgeDcfs = sandbox.state.world.dcfs.filter((d) => d.edge);
      const reply = await ask("edge locations");
      expect(reply.readable).toContain("Edge locations");
      for (const dcf of edgeDcfs) expect(reply.readable).toContain(dcf.city);
      expect(reply.readable).toContain(`of ${edgeDcfs.length}`);
    });

    it("gives a short, specific message when the provider answers 500", async () => {
      sandbox.faults.add({ match: "GET /v2/edge-ports/locations", status: 500 });
      try {
        const reply = await ask("edge locations");
        expect(reply.text).toContain("The provider answered 500 for the Edge location list");
        expect(reply.text).toContain("try again in a minute");
        expect(reply.text.length).toBeLessThan(200);
        expectNoInternals(reply.text);
      } finally {
        sandbox.faults.clear();
      }
    });

    it("lists Edge orders with their status", async () => {
      const order = await sandboxCall<{ id: string; status: string }>(
        "POST",
        `/api/company/${company().companyUsername}/ports/edge-orders`,
        {
          portName: "e2e-edge-order",
          speed: 1000,
          paymentType: "invoice",
          edgePayload: { country: "NL" },
        },
      );
      const reply = await ask("edge orders");
      expect(reply.readable).toContain("e2e-edge-order");
      expect(reply.readable).toContain(order.id);
      expect(reply.readable).toContain(order.status);
    });

    it("lists drafts with the days until deletion, a provider page at a time", async () => {
      for (let i = 1; i <= 12; i++) {
        await sandboxCall("POST", "/v2/api/draft/orders", {
          name: `e2e-draft-${String(i).padStart(2, "0")}`,
          speed: 1000,
          edgePayload: { country: "NL" },
        });
      }
      sandbox.clock.advance(27 * DAY + HOUR);
      const first = await ask("edge drafts");
      expect(first.readable).toContain("Edge draft orders");
      expect(first.readable).toContain("deleted in 3 days");
      expect(first.readable).toContain("Showing 1–10 of 12");
      expect(buttonIds(first)).toContain("connect_page_next");

      await env.slack.clickButton({ userId: USER, message: first, actionId: "connect_page_next" });
      const second = await env.standin.waitForEphemeral(
        USER,
        (m) => m.ts === first.ts && readable((m.blocks ?? []) as KnownBlock[]).includes("11–12"),
      );
      const text = readable((second.blocks ?? []) as KnownBlock[]);
      const shownFirst = [...first.readable.matchAll(/e2e-draft-\d\d/g)].map((m) => m[0]);
      const shownSecond = [...text.matchAll(/e2e-draft-\d\d/g)].map((m) => m[0]);
      expect(new Set([...shownFirst, ...shownSecond]).size).toBe(12);
    });
  });
});
