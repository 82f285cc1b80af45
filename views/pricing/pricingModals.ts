import type { Checkboxes, KnownBlock, ModalView, PlainTextOption } from "@slack/types";
import {
  CONNECTION_BANDWIDTH_MAX_MBPS,
  CONNECTION_DURATION_UNITS,
} from "../../src/domain/catalog/connections.js";
import { isReady, offeredSpeeds } from "../../src/domain/catalog/dcfs.js";
import { PORT_TERMS, type PortTerm, termText } from "../../src/domain/catalog/portTerms.js";
import { CLASSES_OF_SERVICE } from "../../src/domain/catalog/requestFacts.js";
import { COMMAND } from "../../src/domain/commands.js";
import type { Dcf } from "../../src/provider/api.js";
import type { ConnectionPriceFormField } from "../../src/usecases/pricing/connectionPrice.js";
import type { PortPriceFormField } from "../../src/usecases/pricing/portPrice.js";
import type { PortPriceField } from "../../src/usecases/pricing/portPriceArgs.js";
import { context, escapeMrkdwn, option, plainFromMrkdwn, section, truncate } from "../blocks.js";
import { dcfSelect, speedOptions } from "../dcfOptions.js";
import { formatMbps, textOr } from "../format.js";
import { inputBlock, modalView, numberInput, plainText, staticSelect } from "../inputs.js";
import { channelIdField, metadataFields } from "../modalMetadata.js";

/**
 * The pricing modals (`/connect price port`, `/connect price l2`) and the inline price command's
 * answers that are not a price. Pure functions; ids are exported so the listeners and the tests
 * share them.
 */

// ---------------------------------------------------------------------------------------------
// Ids

export const PRICE_PORT_VIEW = "price_port";
/** The note above the port modal's inputs (kept when the modal is updated). */
export const PRICE_PORT_NOTE_BLOCK = "price_port_note";
export const PRICE_L2_VIEW = "price_l2";

export const PORT_PRICE_BLOCKS = {
  dcf: "price_port_dcf",
  speed: "price_port_speed",
  term: "price_port_term",
  includeCrossConnect: "price_port_xc",
} as const satisfies Record<PortPriceFormField, string>;

export const PORT_PRICE_ACTIONS = {
  dcf: "price_port_dcf_select",
  speed: "price_port_speed_select",
  term: "price_port_term_select",
  includeCrossConnect: "price_port_xc_check",
} as const satisfies Record<PortPriceFormField, string>;

export const L2_PRICE_BLOCKS = {
  srcDcf: "price_l2_src",
  destDcf: "price_l2_dest",
  bandwidth: "price_l2_bandwidth",
  classOfService: "price_l2_cos",
  duration: "price_l2_duration",
  durationUnit: "price_l2_duration_unit",
} as const satisfies Record<ConnectionPriceFormField, string>;

export const L2_PRICE_ACTIONS = {
  srcDcf: "price_l2_src_select",
  destDcf: "price_l2_dest_select",
  bandwidth: "price_l2_bandwidth_input",
  classOfService: "price_l2_cos_select",
  duration: "price_l2_duration_input",
  durationUnit: "price_l2_duration_unit_select",
} as const satisfies Record<ConnectionPriceFormField, string>;

/** The value of the one "Include cross connect" checkbox. */
export const CROSS_CONNECT_VALUE = "xc";

// ---------------------------------------------------------------------------------------------
// private_metadata: where to answer once the modal is submitted

export interface PriceModalMetadata {
  /** The channel the command came from: the price is posted there, privately. */
  channelId?: string;
  /** A speed the inline command already gave (Mbps), preselected when the DCF offers it. */
  speedMbps?: number;
}

export function encodeMetadata(metadata: PriceModalMetadata): string {
  return JSON.stringify({
    ...(metadata.channelId ? { c: metadata.channelId } : {}),
    ...(metadata.speedMbps !== undefined ? { s: metadata.speedMbps } : {}),
  });
}

/** Reads what encodeMetadata wrote; anything else (or nothing) reads as empty. */
export function parseMetadata(text: unknown): PriceModalMetadata {
  const fields = metadataFields(text);
  const { s } = fields;
  return {
    ...channelIdField(fields),
    ...(typeof s === "number" && Number.isSafeInteger(s) && s > 0 ? { speedMbps: s } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Elements

const TERM_LABELS: Record<string, string> = { y: "1 year", m: "Month to month" };

/** The Term options: exactly the two terms the provider prices a port for. */
export const PORT_TERM_OPTIONS: PlainTextOption[] = PORT_TERMS.map((t) =>
  option(TERM_LABELS[t.durationUnit] ?? termText(t), termText(t)),
);

// ---------------------------------------------------------------------------------------------
// The port modal

export interface PortPriceModalInput {
  metadata: PriceModalMetadata;
  /** The data center picked so far: its speeds, and only those, fill the Speed select. */
  chosen?: { dcf: Dcf } | { problem: string };
  /** Shown above the inputs, e.g. what the inline command already said. */
  note?: string;
  term?: Pick<PortTerm, "durationUnit">;
  includeCrossConnect?: boolean;
  /** Preselected when the chosen DCF offers it. */
  speedMbps?: number;
}

function chosenDcfBlocks(state: PortPriceModalInput): KnownBlock[] {
  const chosen = state.chosen;
  if (!chosen) {
    return [context("Pick a data center first: its speeds appear here.")];
  }
  if ("problem" in chosen) return [context(`:warning: ${escapeMrkdwn(chosen.problem)}`)];
  const { dcf } = chosen;
  const speeds = offeredSpeeds(dcf);
  const blocks: KnownBlock[] = [];
  if (!isReady(dcf)) {
    blocks.push(
      context(
        `:construction: ${textOr(dcf.name, "This data center")} is not ready for orders yet, so the provider has no price for it; pick another.`,
      ),
    );
  }
  if (speeds.length === 0) {
    blocks.push(
      context(
        `:warning: ${textOr(dcf.name, "This data center")} lists no valid speeds; pick another.`,
      ),
    );
    return blocks;
  }
  const initial =
    state.speedMbps !== undefined && speeds.includes(state.speedMbps)
      ? String(state.speedMbps)
      : undefined;
  blocks.push(
    inputBlock(
      PORT_PRICE_BLOCKS.speed,
      "Speed",
      staticSelect(PORT_PRICE_ACTIONS.speed, speedOptions(speeds), initial, "Choose a speed"),
      {
        hint: plainText(
          `The speeds ${plainFromMrkdwn(textOr(dcf.name, "this data center"))} offers`,
        ),
      },
    ),
  );
  return blocks;
}

/** `/connect price port` without (all) arguments: data center, speed, term, cross connect. */
export function portPriceModal(state: PortPriceModalInput): ModalView {
  const chosenDcf = state.chosen && "dcf" in state.chosen ? state.chosen.dcf : undefined;
  const term = PORT_TERMS.find((t) => t.durationUnit === (state.term?.durationUnit ?? "y"));
  const crossConnect: Checkboxes = {
    type: "checkboxes",
    action_id: PORT_PRICE_ACTIONS.includeCrossConnect,
    options: [option("Add the one-off cross connect charge", CROSS_CONNECT_VALUE)],
  };
  if (state.includeCrossConnect && crossConnect.options[0]) {
    crossConnect.initial_options = [crossConnect.options[0]];
  }
  const blocks: KnownBlock[] = [
    ...(state.note ? [{ ...section(state.note), block_id: PRICE_PORT_NOTE_BLOCK }] : []),
    inputBlock(
      PORT_PRICE_BLOCKS.dcf,
      "Data center",
      dcfSelect(PORT_PRICE_ACTIONS.dcf, chosenDcf),
      // The Speed select depends on the data center: Slack tells the app when it changes.
      { dispatch_action: true },
    ),
    ...chosenDcfBlocks(state),
    inputBlock(
      PORT_PRICE_BLOCKS.term,
      "Term",
      staticSelect(
        PORT_PRICE_ACTIONS.term,
        PORT_TERM_OPTIONS,
        term ? termText(term) : undefined,
        "Choose a term",
      ),
      {
        hint: plainText(
          "The provider prices a port for a 1-year term or month to month (which costs more)",
        ),
      },
    ),
    inputBlock(PORT_PRICE_BLOCKS.includeCrossConnect, "Include cross connect", crossConnect, {
      optional: true,
    }),
    context(
      "Amounts are in your account's currency. The answer shows the command that prices it again.",
    ),
  ];
  return modalView(
    PRICE_PORT_VIEW,
    "Price a port",
    blocks,
    { submit: "Price", close: "Cancel" },
    encodeMetadata(state.metadata),
  );
}

const FIELD_WORDS: Record<PortPriceField, string> = {
  "data center": "data center",
  speed: "speed",
  term: "term",
};

/** The note above the modal when the inline command left something out. */
export function incompleteCommandNote(typed: string, missing: readonly PortPriceField[]): string {
  const words = missing.map((m) => FIELD_WORDS[m]);
  const list =
    words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
  return `\`${escapeMrkdwn(`${COMMAND} ${typed}`.trim())}\` has no ${list}: choose ${missing.length === 1 ? "it" : "them"} here.`;
}

// ---------------------------------------------------------------------------------------------
// The layer 2 modal

const DURATION_UNIT_LABELS: Record<string, string> = { m: "Months", w: "Weeks" };

/** What `/connect price l2 <source> <destination> [bandwidth]` gave the form. */
export interface ConnectionPricePrefill {
  src?: Dcf;
  dest?: Dcf;
  bandwidthMbps?: number;
  /** Shown above the inputs: how the typed words were read. */
  note?: string;
}

/** `/connect price l2`: two data centers, bandwidth, class of service and duration. */
export function connectionPriceModal(
  metadata: PriceModalMetadata,
  prefill: ConnectionPricePrefill = {},
): ModalView {
  const bandwidth =
    prefill.bandwidthMbps !== undefined &&
    Number.isSafeInteger(prefill.bandwidthMbps) &&
    prefill.bandwidthMbps > 0
      ? String(prefill.bandwidthMbps)
      : undefined;
  const blocks: KnownBlock[] = [
    ...(prefill.note ? [section(prefill.note)] : []),
    inputBlock(
      L2_PRICE_BLOCKS.srcDcf,
      "Source data center",
      dcfSelect(L2_PRICE_ACTIONS.srcDcf, prefill.src),
    ),
    inputBlock(
      L2_PRICE_BLOCKS.destDcf,
      "Destination data center",
      dcfSelect(L2_PRICE_ACTIONS.destDcf, prefill.dest),
    ),
    inputBlock(
      L2_PRICE_BLOCKS.bandwidth,
      "Bandwidth",
      // No min_value/max_value on number inputs: Slack's client checks those itself and shows
      // only that error, hiding every other problem until the next submit. The range is checked
      // with everything else (src/usecases/pricing/connectionPrice.ts) and said in the hint.
      numberInput(L2_PRICE_ACTIONS.bandwidth, bandwidth, "e.g. 500"),
      {
        // Enter confirms the field and never submits the form (inputs.ts says why).
        dispatch_action: true,
        hint: plainText(`In Mbps, from 1 to ${formatMbps(CONNECTION_BANDWIDTH_MAX_MBPS)}`),
      },
    ),
    inputBlock(
      L2_PRICE_BLOCKS.classOfService,
      "Class of service",
      staticSelect(
        L2_PRICE_ACTIONS.classOfService,
        CLASSES_OF_SERVICE.map((c) => option(c, c)),
        "SILVER",
      ),
    ),
    inputBlock(L2_PRICE_BLOCKS.duration, "Duration", numberInput(L2_PRICE_ACTIONS.duration, "12"), {
      dispatch_action: true,
    }),
    inputBlock(
      L2_PRICE_BLOCKS.durationUnit,
      "Duration unit",
      staticSelect(
        L2_PRICE_ACTIONS.durationUnit,
        CONNECTION_DURATION_UNITS.map((u) => option(DURATION_UNIT_LABELS[u] ?? u, u)),
        "m",
      ),
    ),
    context(
      "The answer shows the provider's formula, every factor and the region-to-region rate used.",
    ),
  ];
  return modalView(
    PRICE_L2_VIEW,
    "Price layer 2",
    blocks,
    { submit: "Price", close: "Cancel" },
    encodeMetadata(metadata),
  );
}

/** The note above the port form when the data center typed matched several. */
export function severalDcfsNote(query: string, count: number): string {
  return `"${escapeMrkdwn(truncate(query, 80))}" matches ${count} data centers: pick one.`;
}

/** One end of `/connect price l2 …` as the form's note says it. */
export type TypedEnd =
  | { side: string; query: string; found: { name?: string; matched: number } }
  | { side: string; query: string; found?: undefined };

/** The note above the layer 2 form: what each typed end was read as. */
export function connectionArgsNote(ends: readonly TypedEnd[], unsplit?: string): string {
  const lines = ends.map((end) => {
    const q = `"${escapeMrkdwn(truncate(end.query, 80))}"`;
    if (!end.found) return `${end.side}: no data center matches ${q}; pick one.`;
    const name = escapeMrkdwn(end.found.name ?? "a data center");
    return end.found.matched > 1
      ? `${end.side}: ${q} matches ${end.found.matched} data centers; *${name}* is chosen. Not the one you meant? Pick another in the list.`
      : `${end.side}: *${name}*.`;
  });
  if (unsplit) {
    lines.push(
      `Couldn't tell where "${escapeMrkdwn(truncate(unsplit, 80))}" splits into two data centers: write \`source to destination\`, or quote a name with spaces.`,
    );
  }
  return lines.join("\n");
}
