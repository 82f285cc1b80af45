import type { Checkboxes, InputBlock, KnownBlock, ModalView, PlainTextOption } from "@slack/types";
import {
  CONNECTION_NAME_MAX,
  isOtherCompany,
  LAYER2_NOTICE,
  portCompanyUsername,
  portMetroId,
  remainingCapacity,
} from "../../src/domain/catalog/connections.js";
import { CLASSES_OF_SERVICE } from "../../src/domain/catalog/requestFacts.js";
import { maxTermText } from "../../src/domain/catalog/terms.js";
import { COMMAND } from "../../src/domain/commands.js";
import type { Port } from "../../src/provider/api.js";
import type { Layer2Field, Layer2ModalData, Layer2Mode } from "../../src/usecases/layer2/form.js";
import { context, escapeMrkdwn, option, plainFromMrkdwn, section } from "../blocks.js";
import { dcfPlace } from "../dcf.js";
import { code, formatMbps, formatSpeed, statusBadge, textOr } from "../format.js";
import {
  inputBlock,
  numberInput,
  plainText,
  radioButtons,
  staticSelect,
  textInput,
} from "../inputs.js";
import { type OrderModalMetadata, orderFormModal, yourPortBlocks } from "../orderForms.js";
import { connectionPriceView } from "../pricing/pricing.js";

/**
 * The layer 2 connection modal (`/connect l2`). Pure: data in, Block Kit out. The modal is
 * rebuilt whenever an input that changes it is set (connection type, source, destination,
 * bandwidth, class of service, duration); ids are exported for the listeners and the tests.
 */

// ---------------------------------------------------------------------------------------------
// Ids

export const LAYER2_VIEW = "layer2_request";

export const LAYER2_BLOCKS = {
  mode: "l2_mode",
  sourcePort: "l2_source_port",
  destPort: "l2_dest_port",
  destMetro: "l2_dest_metro",
  destDcf: "l2_dest_dcf",
  destRegion: "l2_dest_region",
  destCompany: "l2_dest_company",
  bandwidth: "l2_bandwidth",
  classOfService: "l2_cos",
  duration: "l2_duration",
  durationUnit: "l2_duration_unit",
  evergreen: "l2_evergreen",
  name: "l2_name",
} as const satisfies Record<Layer2Field, string>;

export const LAYER2_ACTIONS = {
  mode: "l2_mode_choice",
  sourcePort: "l2_source_port_select",
  destPort: "l2_dest_port_input",
  destMetro: "l2_dest_metro_select",
  destDcf: "l2_dest_dcf_select",
  destRegion: "l2_dest_region_select",
  destCompany: "l2_dest_company_input",
  bandwidth: "l2_bandwidth_input",
  classOfService: "l2_cos_select",
  duration: "l2_duration_input",
  durationUnit: "l2_duration_unit_select",
  evergreen: "l2_evergreen_check",
  name: "l2_name_input",
} as const satisfies Record<Layer2Field, string>;

/** The inputs whose change rebuilds the modal (Slack sends block_actions for them). */
export const LAYER2_DISPATCH_FIELDS = [
  "mode",
  "sourcePort",
  "destPort",
  "destMetro",
  "destDcf",
  "bandwidth",
  "classOfService",
  "duration",
] as const satisfies readonly Layer2Field[];

/** Typed inputs that change nothing else: Enter there only confirms the field (see inputBlock). */
export const LAYER2_ENTER_ONLY_FIELDS = [
  "destCompany",
  "name",
] as const satisfies readonly Layer2Field[];

export const LAYER2_DEST_DETAILS_BLOCK = "l2_dest_details";
export const LAYER2_PRICE_BLOCK = "l2_price";
/** Under the Bandwidth input: what is wrong with the bandwidth typed so far. */
export const LAYER2_BANDWIDTH_PROBLEM_BLOCK = "l2_bandwidth_problem";
export const LAYER2_REVIEW_BLOCK = "l2_review";

/** The value of the one Evergreen checkbox. */
export const EVERGREEN_VALUE = "evergreen";

function portName(port: Port): string {
  return textOr(port.name, "Unnamed port");
}

// ---------------------------------------------------------------------------------------------
// The modal

const MODE_OPTIONS: PlainTextOption[] = [
  option("Port to port", "port-to-port", "Both ports are known: paste the destination port id"),
  option(
    "Business to business",
    "business-to-business",
    "Choose the destination by metro, data center and region",
  ),
];

export interface Layer2ModalOptions {
  metadata: OrderModalMetadata;
  sandbox: boolean;
  /** The ISO 4217 code the price is labelled with (PRICE_CURRENCY). */
  currency: string;
  /** Submitted without having seen this price: ask to check it and submit again. */
  review?: boolean;
}

function sourceBlocks(data: Layer2ModalData): KnownBlock[] {
  const free = data.source ? remainingCapacity(data.source) : undefined;
  return yourPortBlocks(data.ports, {
    blockId: LAYER2_BLOCKS.sourcePort,
    actionId: LAYER2_ACTIONS.sourcePort,
    label: "Source port",
    chosenId: data.values.sourcePortId,
    hint:
      data.source && free !== undefined
        ? `${plainFromMrkdwn(portName(data.source))} has ${formatMbps(free)} free`
        : "One of your ports; the connection starts here",
    noPorts: `You have no ports yet, and a layer 2 connection starts at one of yours. Order one with \`${COMMAND} port order\`.`,
  });
}

/** What the destination port id looked up says: whose it is, where, how fast. */
function destinationDetails(data: Layer2ModalData): KnownBlock[] {
  const found = data.destination;
  if (!found) return [];
  if (!found.ok) {
    return [
      {
        ...section(`:warning: ${escapeMrkdwn(found.problem)}`),
        block_id: LAYER2_DEST_DETAILS_BLOCK,
      },
    ];
  }
  const port = found.value;
  const company = portCompanyUsername(port, data.identity);
  const companyName = port.company?.name;
  const metroId = portMetroId(port);
  const metro = port.metro?.name
    ? `${escapeMrkdwn(port.metro.name)}${port.metro.code ? ` (${escapeMrkdwn(port.metro.code)})` : ""}`
    : metroId
      ? code(metroId)
      : "unknown";
  const free = remainingCapacity(port);
  const lines = [
    `:electric_plug: *${portName(port)}* ${code(port.id)} · ${statusBadge(port.status)}`,
    [
      `Company: ${companyName ? `*${escapeMrkdwn(companyName)}* ` : ""}${company ? code(company) : "unknown"}`,
      `Metro: ${metro}`,
      `Speed: ${formatSpeed(port.speed?.value)}`,
      free !== undefined ? `${formatMbps(free)} free` : undefined,
    ]
      .filter(Boolean)
      .join(" · "),
  ];
  if (port.dataCenterFacility?.name) {
    lines.push(`Data center: ${escapeMrkdwn(port.dataCenterFacility.name)}`);
  }
  if (isOtherCompany(port, data.identity)) {
    lines.push(
      `:hourglass_flowing_sand: This port belongs to another company: once ordered, the connection waits for ${company ? code(company) : "that company"} to accept it (PENDING). That is a normal wait, not a failure.`,
    );
  }
  return [{ ...section(lines.join("\n")), block_id: LAYER2_DEST_DETAILS_BLOCK }];
}

function portToPortBlocks(data: Layer2ModalData): KnownBlock[] {
  return [
    inputBlock(
      LAYER2_BLOCKS.destPort,
      "Destination port",
      textInput(LAYER2_ACTIONS.destPort, data.values.destPortId, "Port id, e.g. 5f2a9c0e1b3d…", 64),
      {
        hint: plainText(
          "Paste the port id and press Enter: its company, metro and speed are shown below",
        ),
        dispatch_action: true,
      },
    ),
    ...destinationDetails(data),
  ];
}

function metroOptionText(metro: { name?: string; code?: string; id: string }): string {
  return metro.name ? (metro.code ? `${metro.name} (${metro.code})` : metro.name) : metro.id;
}

function businessToBusinessBlocks(data: Layer2ModalData): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  const metros = data.metros;
  if (!metros?.ok) {
    blocks.push(
      section(
        `:warning: Couldn't list the metros: ${escapeMrkdwn(metros?.problem ?? "try again")}`,
      ),
    );
  } else if (metros.value.layer2.length === 0) {
    blocks.push(section(":warning: No metro offers layer 2 connections right now."));
  } else {
    blocks.push(
      inputBlock(
        LAYER2_BLOCKS.destMetro,
        "Destination metro",
        staticSelect(
          LAYER2_ACTIONS.destMetro,
          metros.value.layer2.map((m) =>
            option(metroOptionText(m), m.id, m.country ? m.country : undefined),
          ),
          data.values.destMetroId,
          "Choose a metro",
        ),
        { hint: plainText("Only metros where layer 2 is available"), dispatch_action: true },
      ),
    );
    if (metros.value.without.length > 0) {
      const names = metros.value.without.map((m) => escapeMrkdwn(metroOptionText(m)));
      blocks.push(context(`Not offered, no layer 2 there: ${names.join(", ")}`));
    }
  }

  if (data.metro) {
    const metroName = metroOptionText(data.metro);
    if (!data.dcfs?.ok) {
      blocks.push(
        section(
          `:warning: Couldn't list the data centers of ${escapeMrkdwn(metroName)}: ${escapeMrkdwn(data.dcfs?.problem ?? "try again")}`,
        ),
      );
    } else if (data.dcfs.value.length === 0) {
      blocks.push(
        section(`:warning: ${escapeMrkdwn(metroName)} has no data center ready for orders.`),
      );
    } else {
      blocks.push(
        inputBlock(
          LAYER2_BLOCKS.destDcf,
          "Destination data center",
          staticSelect(
            LAYER2_ACTIONS.destDcf,
            data.dcfs.value.map((d) => {
              const place = dcfPlace(d);
              return option(
                d.name?.trim() || d.username || d.id,
                d.id,
                place ? plainFromMrkdwn(place) : undefined,
              );
            }),
            data.values.destDcfId,
            "Choose a data center",
          ),
          { hint: plainText(`The data centers of ${metroName}`), dispatch_action: true },
        ),
      );
    }
    const regions = data.regions ?? [];
    if (regions.length === 0) {
      blocks.push(
        section(`:warning: The provider lists no region for ${escapeMrkdwn(metroName)}.`),
      );
    } else {
      const only = regions.length === 1 ? regions[0]?.id : undefined;
      blocks.push(
        inputBlock(
          LAYER2_BLOCKS.destRegion,
          "Destination region",
          staticSelect(
            LAYER2_ACTIONS.destRegion,
            regions.map((r) => option(r.name ?? r.id, r.id, r.name ? r.id : undefined)),
            data.values.destRegionId ?? only,
            "Choose a region",
          ),
          { hint: plainText(`The regions of ${metroName}`) },
        ),
      );
    }
  } else {
    blocks.push(context("Pick a metro first: its data centers and regions appear here."));
  }

  blocks.push(
    inputBlock(
      LAYER2_BLOCKS.destCompany,
      "Destination company",
      textInput(
        LAYER2_ACTIONS.destCompany,
        data.values.destCompany,
        "Company username, e.g. globex-cloud",
        CONNECTION_NAME_MAX,
      ),
      {
        hint: plainText(
          `The username of the company you connect to (yours is ${data.identity.companyUsername})`,
        ),
      },
    ),
  );
  return blocks;
}

function priceBlocks(data: Layer2ModalData, currency: string): KnownBlock[] {
  const price = data.price;
  if (!price && data.bandwidthProblem) {
    return [
      {
        ...context(":moneybag: The price appears here once the bandwidth above is fixed."),
        block_id: LAYER2_PRICE_BLOCK,
      },
    ];
  }
  if (!price) {
    return [
      {
        ...context(
          ":moneybag: The price appears here once the source, destination, bandwidth, class of service and duration are set (press Enter after typing a number).",
        ),
        block_id: LAYER2_PRICE_BLOCK,
      },
    ];
  }
  if (!price.ok) {
    return [
      {
        // Two sentences: the provider's reason starts with a capital ("The provider refused…").
        ...section(`:warning: No price for this connection. ${escapeMrkdwn(price.problem)}`),
        block_id: LAYER2_PRICE_BLOCK,
      },
    ];
  }
  const quote = price.value;
  const view = connectionPriceView(
    {
      srcDcf: { name: quote.srcDcf.name ?? quote.srcDcf.id },
      destDcf: { name: quote.destDcf.name ?? quote.destDcf.id },
      bandwidthMbps: quote.config.bandwidth,
      classOfService: quote.config.classOfService,
      term: quote.config.duration,
    },
    quote.result,
    currency,
  );
  const [first, ...rest] = view.blocks;
  return first ? [{ ...first, block_id: LAYER2_PRICE_BLOCK } as KnownBlock, ...rest] : [];
}

/** Right under Bandwidth, as the person types: Slack shows field errors only on submit. */
function bandwidthProblemBlocks(data: Layer2ModalData): KnownBlock[] {
  if (!data.bandwidthProblem) return [];
  return [
    {
      ...context(`:warning: ${escapeMrkdwn(data.bandwidthProblem)}`),
      block_id: LAYER2_BANDWIDTH_PROBLEM_BLOCK,
    },
  ];
}

function evergreenInput(ticked: boolean): InputBlock {
  const element: Checkboxes = {
    type: "checkboxes",
    action_id: LAYER2_ACTIONS.evergreen,
    options: [option("Renew automatically at the end of the term", EVERGREEN_VALUE)],
  };
  if (ticked && element.options[0]) element.initial_options = [element.options[0]];
  return inputBlock(LAYER2_BLOCKS.evergreen, "Evergreen", element, { optional: true });
}

/** `/connect l2`: the whole form for the values it holds now. */
export function layer2Modal(data: Layer2ModalData, options: Layer2ModalOptions): ModalView {
  const { values } = data;
  const mode: Layer2Mode = values.mode;
  const free = data.source ? remainingCapacity(data.source) : undefined;
  const blocks: KnownBlock[] = [];
  if (options.review && data.price?.ok) {
    blocks.push({
      ...section(
        ":eyes: *Check the price below*, then press *Request approval* again: it was not shown for these values yet, or it changed.",
      ),
      block_id: LAYER2_REVIEW_BLOCK,
    });
  }
  blocks.push(
    inputBlock(
      LAYER2_BLOCKS.mode,
      "Connection type",
      radioButtons(LAYER2_ACTIONS.mode, MODE_OPTIONS, mode),
      { dispatch_action: true },
    ),
    ...sourceBlocks(data),
    ...(mode === "port-to-port" ? portToPortBlocks(data) : businessToBusinessBlocks(data)),
    inputBlock(
      LAYER2_BLOCKS.bandwidth,
      "Bandwidth",
      numberInput(LAYER2_ACTIONS.bandwidth, values.bandwidth, "e.g. 500"),
      {
        hint: plainText(
          free !== undefined
            ? `In Mbps, up to ${formatMbps(free)} (the source port's free capacity)`
            : "In Mbps, up to the source port's free capacity",
        ),
        dispatch_action: true,
      },
    ),
    ...bandwidthProblemBlocks(data),
    inputBlock(
      LAYER2_BLOCKS.classOfService,
      "Class of service",
      staticSelect(
        LAYER2_ACTIONS.classOfService,
        CLASSES_OF_SERVICE.map((c) => option(c, c)),
        values.classOfService,
        "Choose a class of service",
      ),
      { dispatch_action: true },
    ),
    inputBlock(
      LAYER2_BLOCKS.duration,
      "Duration",
      numberInput(LAYER2_ACTIONS.duration, values.duration ?? "12", "e.g. 12"),
      {
        hint: plainText(`The term, in the unit below: up to ${maxTermText("months")}`),
        dispatch_action: true,
      },
    ),
    inputBlock(
      LAYER2_BLOCKS.durationUnit,
      "Duration unit",
      staticSelect(
        LAYER2_ACTIONS.durationUnit,
        [option("Months", "m")],
        values.durationUnit,
        "Choose a unit",
      ),
      { hint: plainText("In months: the provider orders layer 2 terms in months") },
    ),
    evergreenInput(values.evergreen),
    inputBlock(
      LAYER2_BLOCKS.name,
      "Connection name",
      textInput(LAYER2_ACTIONS.name, values.name, "e.g. iad-to-globex-1", CONNECTION_NAME_MAX),
      {
        hint: plainText(
          "Unique among your connections: the order is found again by this name if the provider's answer is lost",
        ),
      },
    ),
    ...priceBlocks(data, options.currency),
    context(`:information_source: ${escapeMrkdwn(LAYER2_NOTICE)}`),
  );
  const priceKey = data.price?.ok ? data.price.value.key : undefined;
  return orderFormModal(
    LAYER2_VIEW,
    "Layer 2 connection",
    blocks,
    {
      ...(options.metadata.channelId ? { channelId: options.metadata.channelId } : {}),
      ...(priceKey ? { priceKey } : {}),
    },
    options.sandbox,
  );
}
