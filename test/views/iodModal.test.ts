import type { InputBlock, KnownBlock, ModalView } from "@slack/types";
import { describe, expect, it } from "vitest";
import type { Asn, Port } from "../../src/provider/api.js";
import { inputLabels, viewProblems } from "../../src/standin/index.js";
import type { ViewOutput } from "../../src/standin/types.js";
import { type IodForm, type IodModalData, iodValues } from "../../src/usecases/iod/form.js";
import { SANDBOX_LABEL } from "../../views/blocks.js";
import {
  IOD_ACTIONS,
  IOD_BLOCKS,
  IOD_DISPATCH_FIELDS,
  IOD_ENTER_ONLY_FIELDS,
  IOD_PORT_STATUS_BLOCK,
  IOD_ROUTING_NOTE_BLOCK,
  IOD_VIEW,
  iodModal,
} from "../../views/iod/iodModal.js";
import { parseOrderMetadata } from "../../views/orderForms.js";
import { asnPublic, portActive } from "./fixtures.js";
import { readable } from "./support.js";

const IDENTITY = {
  userId: "u1",
  companyId: "600000000000000000000001",
  companyUsername: "acme-networks",
};

const port: Port = { ...portActive, name: "ams-core-1" };
const verified: Asn = { ...asnPublic, id: "3e1f7a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b" };

function data(form: IodForm = {}, overrides: Partial<IodModalData> = {}): IodModalData {
  const values = iodValues(form);
  return {
    values,
    identity: IDENTITY,
    ports: { ok: true, value: [port] },
    ...(values.routing === "DYNAMIC"
      ? {
          suggestedAsn: 64512,
          publicAsns: { ok: true as const, value: [verified] },
          asnChoice: values.asnChoice ?? "private-requested",
        }
      : {}),
    ...overrides,
  };
}

const blocksOf = (view: ModalView) => view.blocks as KnownBlock[];
const block = (view: ModalView, id: string) => blocksOf(view).find((b) => b.block_id === id);
function element(view: ModalView, id: string): Record<string, unknown> {
  const found = block(view, id) as InputBlock | undefined;
  if (!found) throw new Error(`no block ${id}`);
  return found.element as unknown as Record<string, unknown>;
}
const optionValues = (view: ModalView, id: string) =>
  (element(view, id).options as Array<{ value: string }>).map((o) => o.value);
const labels = (view: ModalView) => inputLabels(view.blocks as ViewOutput["blocks"]);
const text = (view: ModalView) => readable(blocksOf(view));

function expectSlackAccepts(view: ModalView) {
  expect(viewProblems(view, "modal")).toEqual([]);
  expect(view.title.text.length).toBeLessThanOrEqual(24);
}

const options = { metadata: { channelId: "C0GENERAL1" }, sandbox: false };

describe("iodModal", () => {
  it("lists IO-D enabled ports first and marks the others, under a hint that says so (issue 32, item 15)", () => {
    const off: Port = { ...portActive, id: "600000000000000000000009", name: "fra-nni-1" };
    const unknown: Port = { ...portActive, id: "600000000000000000000008", name: "lon-core-2" };
    const view = iodModal(
      data(
        {},
        {
          ports: { ok: true, value: [off, unknown, port] },
          enabled: new Map([
            [off.id, false],
            [port.id, true],
          ]),
        },
      ),
      options,
    );
    expect(optionValues(view, IOD_BLOCKS.accessPort)).toEqual([port.id, unknown.id, off.id]);
    const shown = (
      element(view, IOD_BLOCKS.accessPort).options as Array<{ text: { text: string } }>
    ).map((o) => o.text.text);
    expect(shown[2]).toMatch(/^fra-nni-1.* — not IO-D enabled$/);
    expect(shown[0]).not.toContain("not IO-D enabled");
    expect(shown[1]).not.toContain("not IO-D enabled");
    const hint = (block(view, IOD_BLOCKS.accessPort) as InputBlock).hint?.text ?? "";
    expect(hint).toContain("IO-D enabled ones first");
    expectSlackAccepts(view);
  });

  it("DYNAMIC by default: private ASN pre-filled with the suggestion, BGP key optional", () => {
    const view = iodModal(data(), options);
    expectSlackAccepts(view);
    expect(view.callback_id).toBe(IOD_VIEW);
    expect(labels(view)).toEqual([
      "Access port",
      "Routing",
      "ASN",
      "Private ASN",
      "BGP key",
      "IPv4 block",
      "IPv6",
      "Rate limit",
      "Duration",
      "Geo country",
      "Geo city",
      "Service name",
    ]);
    expect(optionValues(view, IOD_BLOCKS.asnChoice)).toEqual([
      "private-requested",
      "private-auto",
      "public",
    ]);
    expect(element(view, IOD_BLOCKS.privateAsn).initial_value).toBe("64512");
    const bgp = block(view, IOD_BLOCKS.bgpKey) as InputBlock;
    expect(bgp.optional).toBe(true);
    expect((bgp.element as { max_length?: number }).max_length).toBe(24);
    expect(bgp.hint?.text).toContain("leave empty");
    expect(text(view)).toContain("regional Internet routing registry");
    expect(text(view)).not.toMatch(/rule \d/);
    expect(parseOrderMetadata(view.private_metadata)).toEqual({ channelId: "C0GENERAL1" });
  });

  it("only ever offers IPv6 off or a /48 block, and IPv4 block sizes", () => {
    const view = iodModal(data(), options);
    expect(optionValues(view, IOD_BLOCKS.ipv6)).toEqual(["off", "48"]);
    expect(optionValues(view, IOD_BLOCKS.ipBlock)).toEqual([
      "24",
      "25",
      "26",
      "27",
      "28",
      "29",
      "30",
    ]);
    expect((element(view, IOD_BLOCKS.ipBlock).initial_option as { value: string }).value).toBe(
      "28",
    );
  });

  it("a public ASN shows the verified ASNs, hides the private ASN, and allows no IPv4 block", () => {
    const view = iodModal(data({ asnChoice: "public" }), options);
    expectSlackAccepts(view);
    expect(block(view, IOD_BLOCKS.privateAsn)).toBeUndefined();
    expect(optionValues(view, IOD_BLOCKS.publicAsn)).toEqual([verified.id]);
    expect(JSON.stringify(element(view, IOD_BLOCKS.publicAsn).options)).toContain("AS13335");
    expect(optionValues(view, IOD_BLOCKS.ipBlock)[0]).toBe("none");
  });

  it("private auto-assign shows neither ASN input", () => {
    const view = iodModal(data({ asnChoice: "private-auto" }), options);
    expect(block(view, IOD_BLOCKS.privateAsn)).toBeUndefined();
    expect(block(view, IOD_BLOCKS.publicAsn)).toBeUndefined();
    expect(optionValues(view, IOD_BLOCKS.ipBlock)).not.toContain("none");
  });

  it("without a verified public ASN, public is not offered and the form says why", () => {
    const view = iodModal(data({}, { publicAsns: { ok: true, value: [] } }), options);
    expect(optionValues(view, IOD_BLOCKS.asnChoice)).toEqual(["private-requested", "private-auto"]);
    expect(text(view)).toContain("no verified public ASN");
  });

  it("STATIC hides every ASN and BGP choice and says the provider assigns them (rule 5)", () => {
    const view = iodModal(data({ routing: "STATIC" }), options);
    expectSlackAccepts(view);
    expect(labels(view)).toEqual([
      "Access port",
      "Routing",
      "IPv4 block",
      "IPv6",
      "Rate limit",
      "Duration",
      "Geo country",
      "Geo city",
      "Service name",
    ]);
    expect(readable([block(view, IOD_ROUTING_NOTE_BLOCK)!])).toContain(
      "the provider assigns a private ASN",
    );
    expect(optionValues(view, IOD_BLOCKS.ipBlock)).not.toContain("none");
  });

  it("says plainly when the chosen port is not IO-D enabled, and when it is", () => {
    const notEnabled = iodModal(
      data({ accessPort: port.id }, { port, capability: { kind: "not-enabled" } }),
      options,
    );
    expect(readable([block(notEnabled, IOD_PORT_STATUS_BLOCK)!])).toContain(
      "ams-core-1 is not enabled for Internet On-Demand (IO-D)",
    );
    const enabled = iodModal(
      data({ accessPort: port.id }, { port, capability: { kind: "enabled" } }),
      options,
    );
    const status = readable([block(enabled, IOD_PORT_STATUS_BLOCK)!]);
    expect(status).toContain("is IO-D enabled");
    expect(status).toContain("7,500 Mbps free");
    expect((block(enabled, IOD_BLOCKS.rateLimit) as InputBlock).hint?.text).toContain("7,500 Mbps");
    const unknown = iodModal(
      data({ accessPort: port.id }, { port, capability: { kind: "unknown", problem: "timeout" } }),
      options,
    );
    expect(readable([block(unknown, IOD_PORT_STATUS_BLOCK)!])).toContain("Couldn't check");
  });

  it("only the port, routing and ASN choice rebuild the form; Enter in a typed input never submits it", () => {
    for (const view of [
      iodModal(data(), options),
      iodModal(data({ asnChoice: "private-requested" }), options),
    ]) {
      const inputs = blocksOf(view).filter((b): b is InputBlock => b.type === "input");
      const dispatching = inputs
        .filter((b) => b.dispatch_action === true)
        .map((b) => (b.element as { action_id: string }).action_id);
      const rebuilding = IOD_DISPATCH_FIELDS.map((f) => IOD_ACTIONS[f]);
      const enterOnly = IOD_ENTER_ONLY_FIELDS.map((f) => IOD_ACTIONS[f]);
      expect(rebuilding.filter((id) => !dispatching.includes(id))).toEqual([]);
      for (const id of dispatching) expect([...rebuilding, ...enterOnly]).toContain(id);
      const typed = inputs.filter(
        (b) => b.element.type === "plain_text_input" || b.element.type === "number_input",
      );
      expect(typed.length).toBeGreaterThanOrEqual(5);
      for (const b of typed) {
        expect(b.dispatch_action).toBe(true);
        expect(b.element).not.toHaveProperty("min_value");
      }
    }
  });

  it("never puts a BGP key back into the view", () => {
    const view = iodModal(data({ bgpKey: "do-not-echo-me", name: "svc" }), options);
    expect(JSON.stringify(view)).not.toContain("do-not-echo-me");
    expect(element(view, IOD_BLOCKS.name).initial_value).toBe("svc");
  });

  it("says why there is no port to choose, and labels sandbox mode", () => {
    const none = iodModal(data({}, { ports: { ok: true, value: [] } }), {
      ...options,
      sandbox: true,
    });
    expect(block(none, IOD_BLOCKS.accessPort)).toBeUndefined();
    expect(text(none)).toContain("None of your ports has free capacity");
    expect(text(none)).toContain(SANDBOX_LABEL);
  });
});
