import { describe, expect, it } from "vitest";
import {
  createLocalModalSession,
  fillModal,
  findInputByLabel,
  inputLabels,
  missingRequiredInputs,
  type Option,
  type ViewOutput,
} from "../../src/standin/index.js";

const option = (text: string, value: string): Option => ({
  text: { type: "plain_text", text },
  value,
});

/** A port order modal as a view function might build it, in the shape Slack returns it. */
function portOrderView(): ViewOutput {
  return {
    id: "V0TESTVIEW1",
    team_id: "T0STANDIN1",
    type: "modal",
    callback_id: "port_order",
    title: { type: "plain_text", text: "Order a port" },
    submit: { type: "plain_text", text: "Request" },
    close: null,
    private_metadata: "",
    hash: "1.abc",
    root_view_id: "V0TESTVIEW1",
    previous_view_id: null,
    clear_on_close: false,
    notify_on_close: false,
    app_id: "A0STANDIN1",
    bot_id: "B0STANDIN1",
    state: { values: {} },
    blocks: [
      { type: "section", block_id: "intro", text: { type: "mrkdwn", text: "Order a port" } },
      {
        type: "input",
        block_id: "dcf",
        dispatch_action: true,
        label: { type: "plain_text", text: "Data center" },
        element: { type: "external_select", action_id: "dcf_select", min_query_length: 0 },
      },
      {
        type: "input",
        block_id: "speed",
        label: { type: "plain_text", text: "Speed" },
        element: {
          type: "static_select",
          action_id: "speed_select",
          option_groups: [
            {
              label: { type: "plain_text", text: "Common" },
              options: [option("1 Gbps", "1000"), option("10 Gbps", "10000")],
            },
            {
              label: { type: "plain_text", text: "Large" },
              options: [option("100 Gbps", "100000")],
            },
          ],
        },
      },
      {
        type: "input",
        block_id: "port_name",
        label: { type: "plain_text", text: "Port name" },
        element: { type: "plain_text_input", action_id: "name", max_length: 20 },
      },
      {
        type: "input",
        block_id: "term",
        label: { type: "plain_text", text: "Term" },
        element: {
          type: "radio_buttons",
          action_id: "term_months",
          initial_option: option("1 month", "1"),
          options: [option("1 month", "1"), option("12 months", "12"), option("24 months", "24")],
        },
      },
      {
        type: "input",
        block_id: "vlans",
        label: { type: "plain_text", text: "VLAN count" },
        element: {
          type: "number_input",
          action_id: "count",
          is_decimal_allowed: false,
          min_value: "1",
          max_value: "10",
        },
      },
      {
        type: "input",
        block_id: "features",
        optional: true,
        label: { type: "plain_text", text: "Features" },
        element: {
          type: "checkboxes",
          action_id: "flags",
          options: [option("Diversity", "diverse"), option("Marketplace listing", "marketplace")],
        },
      },
      {
        type: "input",
        block_id: "start",
        optional: true,
        label: { type: "plain_text", text: "Start date" },
        element: { type: "datepicker", action_id: "date" },
      },
    ],
  } as ViewOutput;
}

const datacenters = [
  option("Equinix AM3, Amsterdam", "dcf-am3"),
  option("Equinix LD5, London", "dcf-ld5"),
];

describe("filling a modal by labels, as a person does", () => {
  it("lists the labels a person reads and finds an input by its label, case-insensitively", () => {
    const view = portOrderView();
    expect(inputLabels(view.blocks)).toEqual([
      "Data center",
      "Speed",
      "Port name",
      "Term",
      "VLAN count",
      "Features",
      "Start date",
    ]);
    expect(findInputByLabel(view.blocks, "  port NAME ")).toMatchObject({
      blockId: "port_name",
      actionId: "name",
    });
  });

  it("fills every element type and produces Slack's view.state.values", async () => {
    const queries: string[] = [];
    const dispatched: string[] = [];
    const session = createLocalModalSession(portOrderView(), {
      suggest: async (_blockId, _actionId, query) => {
        queries.push(query);
        return datacenters.filter((d) => d.text.text.toLowerCase().includes(query.toLowerCase()));
      },
      dispatch: async (located) => {
        dispatched.push(located.actionId);
      },
    });
    const values = await fillModal(session, {
      "Data center": "Amsterdam",
      Speed: "10 Gbps",
      "Port name": "ams-core-1",
      Term: "12",
      "VLAN count": 4,
      Features: ["Diversity", "marketplace"],
      "Start date": "2030-01-31",
    });
    expect(queries).toEqual(["Amsterdam"]);
    // The data center input has dispatch_action: Slack sends block_actions when it changes.
    expect(dispatched).toEqual(["dcf_select"]);
    expect(values).toEqual({
      dcf: { dcf_select: { type: "external_select", selected_option: datacenters[0] } },
      speed: {
        speed_select: { type: "static_select", selected_option: option("10 Gbps", "10000") },
      },
      port_name: { name: { type: "plain_text_input", value: "ams-core-1" } },
      term: { term_months: { type: "radio_buttons", selected_option: option("12 months", "12") } },
      vlans: { count: { type: "number_input", value: "4" } },
      features: {
        flags: {
          type: "checkboxes",
          selected_options: [
            option("Diversity", "diverse"),
            option("Marketplace listing", "marketplace"),
          ],
        },
      },
      start: { date: { type: "datepicker", selected_date: "2030-01-31" } },
    });
    expect(session.view().state.values).toEqual(values);
  });

  it("submits initial values of untouched inputs and empty values for the rest", async () => {
    const session = createLocalModalSession(portOrderView());
    const values = await fillModal(session, { "Port name": "x" });
    expect(values.term?.term_months).toEqual({
      type: "radio_buttons",
      selected_option: option("1 month", "1"),
    });
    expect(values.speed?.speed_select).toEqual({ type: "static_select", selected_option: null });
    expect(values.features?.flags).toEqual({ type: "checkboxes", selected_options: [] });
    expect(values.intro).toBeUndefined();
    // Required and still empty: Slack's client would not submit.
    expect(missingRequiredInputs(session.view().blocks, values)).toEqual([
      "Data center",
      "Speed",
      "VLAN count",
    ]);
  });

  it("names the labels that exist when a label is unknown", async () => {
    const session = createLocalModalSession(portOrderView());
    await expect(fillModal(session, { "Data centre": "AMS" })).rejects.toThrow(
      /No input labelled "Data centre"; labels: "Data center", "Speed", "Port name"/,
    );
  });

  it("refuses what a person cannot enter: an option not offered, a number out of range, text too long, a bad date", async () => {
    const attempts: [string, unknown, RegExp][] = [
      [
        "Speed",
        "40 Gbps",
        /"Speed": no option "40 Gbps"; options: "1 Gbps" \(1000\), "10 Gbps" \(10000\), "100 Gbps"/,
      ],
      ["VLAN count", 11, /at most 10/],
      ["VLAN count", "2.5", /not a whole number/],
      ["Port name", "x".repeat(21), /at most 20 characters/],
      ["Start date", "31/01/2030", /not a date/],
      ["Data center", "Paris", /no option "Paris"; options: none/],
    ];
    for (const [label, value, message] of attempts) {
      const session = createLocalModalSession(portOrderView(), {
        suggest: async (_b, _a, query) => datacenters.filter((d) => d.text.text.includes(query)),
      });
      await expect(fillModal(session, { [label]: value as string })).rejects.toThrow(message);
    }
  });

  it("picks the only suggestion for a typed query, or the named one", async () => {
    const session = createLocalModalSession(portOrderView(), {
      suggest: async (_b, _a, query) =>
        datacenters.filter((d) => d.value?.includes(query) || d.text.text.includes(query)),
    });
    const only = await fillModal(session, { "Data center": "LD5" });
    expect(only.dcf?.dcf_select?.selected_option?.value).toBe("dcf-ld5");
    const named = await fillModal(session, {
      "Data center": { query: "Equinix", pick: "Equinix AM3, Amsterdam" },
    });
    expect(named.dcf?.dcf_select?.selected_option?.value).toBe("dcf-am3");
  });

  it("waits for the app to update the view when a label is not there yet", async () => {
    const initial = portOrderView();
    const later = {
      ...initial,
      hash: "2.def",
      blocks: [
        ...initial.blocks,
        {
          type: "input",
          block_id: "loa",
          label: { type: "plain_text", text: "LOA company name" },
          element: { type: "plain_text_input", action_id: "company" },
        },
      ],
    } as ViewOutput;
    let current = initial;
    const session = {
      ...createLocalModalSession(initial),
      view: () => current,
      enter: () => {},
      viewChanged: async (hash: string) => {
        current = later;
        return current.hash !== hash;
      },
    };
    await expect(fillModal(session, { "LOA company name": "Acme" })).resolves.toBeDefined();
    expect(current).toBe(later);
  });
});
