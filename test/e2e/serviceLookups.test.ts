import type { KnownBlock } from "@slack/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Port } from "../../src/provider/api.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import type { StandinEphemeral } from "../../src/standin/index.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { readable } from "../views/support.js";

// `/connect l2 <connectionId>`, `/connect iod <serviceId>` and `/connect order <id>` of a
// connection, end to end: a signed slash command into the bot, the bot reading the embedded
// sandbox, the ephemeral answer as the Slack stand-in shows it. The connections are placed
// straight at the sandbox (the order e2e tests cover placing them through approval); expected
// values come from the sandbox's own answers.

const USER = STANDIN_IDS.requester;

describe("layer 2 and IO-D look-ups, end to end", () => {
  let env: TestBot;
  let sandbox: Sandbox;
  let company: string;
  let own: Port[];

  beforeAll(async () => {
    env = await startTestBot();
    sandbox = env.bot.sandbox!;
    company = (await env.bot.services.identity()).companyUsername;
    own = await env.bot.services.provider.listPorts(company, { deleted: false });
  });
  afterAll(async () => {
    await env?.close();
  });

  const ownPort = (name: string) => {
    const port = own.find((p) => p.name === name);
    if (!port) throw new Error(`the sandbox has no port ${name}`);
    return port;
  };

  async function ask(text: string): Promise<StandinEphemeral & { readable: string }> {
    const before = new Set(env.standin.ephemerals(USER).map((m) => m.ts));
    const ack = await env.connect(text);
    expect(ack.status).toBe(200);
    const reply = await env.standin.waitForEphemeral(USER, (m) => !before.has(m.ts));
    return { ...reply, readable: readable((reply.blocks ?? []) as KnownBlock[]) };
  }

  async function sandboxCall<T>(method: string, path: string, body: unknown): Promise<T> {
    const response = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: { authorization: "Bearer test-key", "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as T;
  }

  /**
   * The record the placement job keeps once the provider answered (src/approvals): written
   * through the store's own transitions, with the sandbox's real creation answer.
   */
  async function recordPlacement(
    kind: "layer2" | "iod",
    operation: string,
    pathParams: Record<string, string>,
    body: { name: string },
    created: { id: string; status: string },
    summary: Array<{ label: string; value: string }> = [],
  ): Promise<void> {
    const store = env.bot.services.approvals.store;
    const request = await store.create({
      kind,
      title: body.name,
      summary: [{ label: "Name", value: body.name }, ...summary],
      call: { operation, pathParams, body },
      reconcileKey: body.name,
      requester: { userId: USER },
      sandbox: true,
    });
    const approved = await store.decide(request.id, {
      by: STANDIN_IDS.approver,
      action: "approve",
    });
    expect(approved.ok).toBe(true);
    const claimed = await store.claim(request.id, "e2e-worker");
    if (!claimed.ok) throw new Error("could not claim the approval request");
    const done = await store.complete(
      request.id,
      { providerId: created.id, status: created.status, record: created },
      { attempt: claimed.record.attempts },
    );
    expect(done.ok).toBe(true);
  }

  function buttonIds(message: StandinEphemeral): string[] {
    return (message.blocks ?? []).flatMap((b) =>
      b.type === "actions" && "elements" in b
        ? (b.elements as Array<{ action_id?: string }>).map((e) => e.action_id ?? "")
        : [],
    );
  }

  it("a port-to-port connection between two own ports: status, both ports and data centers, bandwidth", async () => {
    const source = ownPort("nyc-edge-01");
    const dest = ownPort("lon-core-01");
    const created = await sandboxCall<{ id: string; status: string }>(
      "PUT",
      `/api/v2/company/${company}/connections/layer2`,
      {
        name: "e2e-lookup-p2p",
        portId: source.id,
        destPortId: dest.id,
        destCompany: company,
        destMetroId: dest.metroId,
        duration: 12,
        durationUnit: "m",
        paymentType: "invoice",
        classOfService: "SILVER",
        speed: 300,
        type: "LAYER2",
        evergreen: false,
      },
    );
    // What the provider says now, read the way the bot cannot: straight from the sandbox.
    const status = (await env.bot.services.provider.listPorts(company, { deleted: false }))
      .flatMap((p) => p.connections ?? [])
      .find((c) => c.id === created.id)?.status;
    expect(status).toBeTruthy();

    const reply = await ask(`l2 ${created.id}`);
    expect(reply.readable).toContain("Layer 2 connection e2e-lookup-p2p");
    expect(reply.readable).toContain(status!);
    expect(reply.readable).toContain(`*Connection ID*\n\`${created.id}\``);
    expect(reply.readable).toContain("*Bandwidth*\n300 Mbps");
    expect(reply.readable).toContain(`*Source*\n*nyc-edge-01* \`${source.id}\``);
    expect(reply.readable).toContain(source.dataCenterFacility!.name!);
    expect(reply.readable).toContain(`*Destination*\n*lon-core-01* \`${dest.id}\``);
    expect(reply.readable).toContain(dest.dataCenterFacility!.name!);
    // The router's Share button comes with every look-up.
    expect(buttonIds(reply).some((id) => /share/i.test(id))).toBe(true);
  });

  it("a seeded connection: id, status and speed from the port that carries it", async () => {
    const port = ownPort("iad-core-01");
    const seeded = (port.connections ?? []).find((c) => c.name === "iad-to-lon-backbone")!;
    const reply = await ask(`l2 ${seeded.id}`);
    expect(reply.readable).toContain("Layer 2 connection iad-to-lon-backbone");
    expect(reply.readable).toContain(":large_green_circle: ACTIVE");
    expect(reply.readable).toContain("*Bandwidth*\n2,000 Mbps");
    expect(reply.readable).toContain(`*Source*\n*iad-core-01* \`${port.id}\``);
  });

  it("an IO-D service: status, access port, rate limit, and by `/connect order <id>` too", async () => {
    const port = ownPort("iad-core-01");
    const created = await sandboxCall<{ id: string; status: string }>(
      "POST",
      `/app-user/${sandbox.apiUser.companyId}/gia-service`,
      {
        accessPortId: port.id,
        name: "e2e-lookup-iod",
        rateLimit: 200,
        type: "DYNAMIC",
        privateAsn: true,
        privateAsnAutoAssign: true,
        autoAssignBgpKey: true,
        ipBlock: 28,
        duration: { quantity: 30, unit: "d" },
        paymentType: "payg",
        ipGeoCountry: "US",
        ipGeoCity: "",
      },
    );
    const reply = await ask(`iod ${created.id}`);
    expect(reply.readable).toContain("IO-D service e2e-lookup-iod");
    expect(reply.readable).toContain(`*Service ID*\n\`${created.id}\``);
    expect(reply.readable).toContain("*Rate limit*\n200 Mbps");
    expect(reply.readable).toContain(`*Access port*\n*iad-core-01* \`${port.id}\``);
    // Placed outside the bot, so the sandbox's port entry is all there is: the blocks and the
    // ASN are said to be unreported rather than left blank or made up.
    expect(reply.readable).toContain("*IPv4 block*\nNot reported by the provider");
    expect(reply.readable).toContain("*ASN*\nNot reported by the provider");

    const byOrder = await ask(`order ${created.id}`);
    expect(byOrder.readable).toContain("IO-D service e2e-lookup-iod");
    expect(byOrder.readable).not.toContain("No port order");
  });

  it("business-to-business ordered through the bot: the partner company and data center come from its approval record", async () => {
    const source = ownPort("lon-core-01");
    const metros = await env.bot.services.provider.listMetroCapabilities(company);
    const metro = metros.find((m) => m.capabilities?.layer2 === true && m.code === "AMS")!;
    const dcf = (
      await env.bot.services.provider.listDcfs({
        where: { "dataCenterFacility.metroId": metro.id },
      })
    )[0]!;
    const body = {
      name: "e2e-lookup-b2b",
      portId: source.id,
      destCompany: "globex-cloud",
      destMetroId: metro.id,
      destDcf: dcf.id,
      destRegionId: metro.regionIds![0]!,
      duration: 6,
      durationUnit: "m",
      paymentType: "invoice",
      classOfService: "SILVER",
      speed: 100,
      type: "LAYER2",
      evergreen: true,
    };
    const created = await sandboxCall<{ id: string; status: string }>(
      "PUT",
      `/api/v2/company/${company}/connections/layer2`,
      body,
    );
    await recordPlacement(
      "layer2",
      "createLayer2Connection",
      { companyUsername: company },
      body,
      created,
      // The lines the layer 2 form writes (src/usecases/layer2/check.ts), names with their ids.
      [
        { label: "Destination metro", value: `${metro.name} (${metro.code}) · ${metro.id}` },
        { label: "Destination data center", value: `${dcf.name} (${dcf.id})` },
      ],
    );

    const reply = await ask(`l2 ${created.id}`);
    expect(reply.readable).toContain("Layer 2 connection e2e-lookup-b2b");
    // Names, not the provider's ids (issue 32, item 17); the region the summary did not name
    // stays an id.
    expect(reply.readable).toContain(
      `*Destination*\nCompany \`globex-cloud\`\ndata center ${dcf.name}\nmetro ${metro.name} (${metro.code})\nregion \``,
    );
    expect(reply.readable).not.toContain(`\`${dcf.id}\``);
    expect(reply.readable).toContain(`*Source*\n*lon-core-01* \`${source.id}\``);
    expect(reply.readable).toContain("*Bandwidth*\n100 Mbps");
    expect(reply.readable).toContain("*Term*\n6 months");
    expect(reply.readable).toContain("*Evergreen*\nYes");
    expect(reply.readable).toContain(`Requested by <@${USER}> through this bot`);
  });

  it("an IO-D service ordered through the bot: its ASN and the requested block sizes", async () => {
    const port = ownPort("nyc-edge-01");
    const body = {
      accessPortId: port.id,
      name: "e2e-lookup-iod-approved",
      rateLimit: 100,
      type: "DYNAMIC",
      privateAsn: true,
      privateAsnAutoAssign: true,
      autoAssignBgpKey: true,
      ipBlock: 29,
      enableIpv6: true,
      ipv6Block: 48,
      duration: { quantity: 7, unit: "d" },
      paymentType: "payg",
      ipGeoCountry: "US",
      ipGeoCity: "",
    };
    const companyId = sandbox.apiUser.companyId;
    const created = await sandboxCall<{ id: string; status: string; asn: number }>(
      "POST",
      `/app-user/${companyId}/gia-service`,
      body,
    );
    expect(created.asn).toBeGreaterThan(0);
    await recordPlacement("iod", "createGiaService", { companyId }, body, created);

    const reply = await ask(`iod ${created.id}`);
    expect(reply.readable).toContain("IO-D service e2e-lookup-iod-approved");
    expect(reply.readable).toContain(`*ASN*\nAS${created.asn} (private)`);
    expect(reply.readable).toContain("*IPv4 block*\na /29 (requested; not reported yet)");
    expect(reply.readable).toContain("*IPv6 block*\na /48 (requested; not reported yet)");
    expect(reply.readable).toContain("*Routing*\nDYNAMIC");
    expect(reply.readable).toContain("*Term*\n7 days");
    expect(reply.readable).toContain(`*Access port*\n*nyc-edge-01* \`${port.id}\``);
  });

  it("an unknown id gets a clear answer, and a malformed one a usage line", async () => {
    const unknown = await ask("l2 0123456789abcdef01234567");
    expect(unknown.readable).toContain(
      "No layer 2 connection with id `0123456789abcdef01234567` on your ports.",
    );
    expect(unknown.readable).toContain(
      "`/connect port <portId>`".replace("<portId>", "&lt;portId&gt;"),
    );
    const iod = await ask("iod 0123456789abcdef01234567");
    expect(iod.readable).toContain("No IO-D service with id `0123456789abcdef01234567`");
    const order = await ask("order 0123456789abcdef01234567");
    expect(order.readable).toContain("No port order with id");
    const malformed = await ask("l2 a/b");
    expect(malformed.readable).toContain("does not look like a connection id");
  });

  it("without an id, `/connect l2` and `/connect iod` still open their forms", async () => {
    for (const [text, callbackId] of [
      ["l2", "layer2_request"],
      ["iod", "iod_request"],
    ] as const) {
      const before = env.standin.callCount("views.open");
      const ack = await env.connect(text);
      expect(ack.status).toBe(200);
      // The form opens as "loading" and is then replaced by the form with its fields.
      const view = await env.standin.waitForView(
        USER,
        (v) =>
          v.view.callback_id === callbackId &&
          (v.view.blocks ?? []).some((b) => b.type === "input"),
        { timeoutMs: 15_000 },
      );
      expect(view.view.callback_id).toBe(callbackId);
      expect(env.standin.callCount("views.open")).toBe(before + 1);
      await env.slack.closeView(USER);
    }
  });

  it("help's example for the connection look-up carries a real connection id that works", async () => {
    const help = await ask("help");
    const id = /`\/connect l2 ([A-Za-z0-9_-]+)`/.exec(help.readable)?.[1];
    expect(id, help.readable).toBeDefined();
    const reply = await ask(`l2 ${id}`);
    expect(reply.readable).toContain("Layer 2 connection");
    expect(reply.readable).not.toContain("No layer 2 connection");
  });
});
