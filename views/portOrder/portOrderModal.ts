import type { InputBlock, KnownBlock, ModalView, PlainTextOption } from "@slack/types";
import { isReady, offeredSpeeds } from "../../src/domain/catalog/dcfs.js";
import { PORT_ORDER_TERMS, termValue, termWords } from "../../src/domain/catalog/portTerms.js";
import { NAME_MAX } from "../../src/domain/catalog/requestFacts.js";
import { formatMoney } from "../../src/domain/money.js";
import type { Dcf } from "../../src/provider/api.js";
import type {
  LoaPath,
  PortOrderField,
  PortOrderPreview,
} from "../../src/usecases/portOrder/form.js";
import { context, escapeMrkdwn, fields, option, section, withSandboxLabel } from "../blocks.js";
import { type DcfRecord, dcfFeatures, dcfPlace } from "../dcf.js";
import { dcfSelect, speedOptions } from "../dcfOptions.js";
import { DASH, formatSpeed, formatTerm, textOr } from "../format.js";
import { inputBlock, modalView, plainText, staticSelect, textInput } from "../inputs.js";
import { channelIdField, metadataFields } from "../modalMetadata.js";

/**
 * The port order modal (`/connect port order`): data center (search as you type), the speeds of
 * that data center only, term, port name, and — as soon as they are chosen — the live price and
 * the LOA path that will follow. Pure functions; ids are exported so listeners and tests share
 * them.
 */

// ---------------------------------------------------------------------------------------------
// Ids

export const PORT_ORDER_VIEW = "port_order";

export const PORT_ORDER_BLOCKS = {
  dcf: "port_order_dcf",
  speed: "port_order_speed",
  term: "port_order_term",
  portName: "port_order_name",
} as const satisfies Record<PortOrderField, string>;

export const PORT_ORDER_ACTIONS = {
  dcf: "port_order_dcf_select",
  speed: "port_order_speed_select",
  term: "port_order_term_select",
  portName: "port_order_name_input",
} as const satisfies Record<PortOrderField, string>;

/** The form's title, also on the loading modal that opens before it (Order this). */
export const PORT_ORDER_TITLE = "Order a port";

/** The live price (or why there is none yet). */
export const PORT_ORDER_PRICE_BLOCK = "port_order_price";
/** What happens after the order: how the LOA for the cross connect arrives. */
export const PORT_ORDER_LOA_BLOCK = "port_order_loa";

// ---------------------------------------------------------------------------------------------
// private_metadata: where to confirm once the modal is submitted

export interface PortOrderMetadata {
  /** The channel the command came from: the confirmation is posted there, privately. */
  channelId?: string;
}

export function encodePortOrderMetadata(metadata: PortOrderMetadata): string {
  return JSON.stringify(metadata.channelId ? { c: metadata.channelId } : {});
}

/** Reads what encodePortOrderMetadata wrote; anything else (or nothing) reads as empty. */
export function parsePortOrderMetadata(text: unknown): PortOrderMetadata {
  return channelIdField(metadataFields(text));
}

// ---------------------------------------------------------------------------------------------
// Elements

/** The Term options: the terms a port order can express (see PORT_ORDER_TERMS). */
export const PORT_ORDER_TERM_OPTIONS: PlainTextOption[] = PORT_ORDER_TERMS.map((t) =>
  option(termWords(t), termValue(t)),
);

function chosenDcf(preview: PortOrderPreview | undefined): Dcf | undefined {
  return preview?.chosen && "dcf" in preview.chosen ? preview.chosen.dcf : undefined;
}

function dcfInput(preview: PortOrderPreview | undefined): InputBlock {
  return inputBlock(
    PORT_ORDER_BLOCKS.dcf,
    "Data center",
    dcfSelect(PORT_ORDER_ACTIONS.dcf, chosenDcf(preview)),
    // The Speed choices, price and LOA path depend on it: Slack tells the app when it changes.
    { dispatch_action: true },
  );
}

/** The chosen data center in a line: name, place and its tags in words. */
export function dcfLine(dcf: Dcf): string {
  const parts = [
    `*${textOr(dcf.name?.trim() || dcf.username, "The data center")}*`,
    dcfPlace(dcf as DcfRecord),
    ...dcfFeatures(dcf as DcfRecord),
  ].filter((p): p is string => typeof p === "string" && p !== "");
  return parts.join(" · ");
}

/** How the LOA for the cross connect will arrive after the order. */
export function loaBlock(loa: LoaPath): KnownBlock {
  return {
    ...section(`:page_facing_up: *LOA after the order:* ${escapeMrkdwn(loa.text)}`),
    block_id: PORT_ORDER_LOA_BLOCK,
  };
}

function dcfBlocks(preview: PortOrderPreview | undefined): KnownBlock[] {
  const chosen = preview?.chosen;
  if (!chosen) return [context("Pick a data center first: its speeds appear here.")];
  if ("problem" in chosen) return [context(`:warning: ${escapeMrkdwn(chosen.problem)}`)];
  const { dcf } = chosen;
  const blocks: KnownBlock[] = [context(dcfLine(dcf))];
  if (!isReady(dcf)) {
    blocks.push(
      context(
        `:construction: ${textOr(dcf.name, "This data center")} is not ready for orders yet; pick another.`,
      ),
    );
  }
  if (preview?.loa) blocks.push(loaBlock(preview.loa));
  const speeds = offeredSpeeds(dcf);
  if (speeds.length === 0) {
    blocks.push(
      context(
        `:warning: ${textOr(dcf.name, "This data center")} lists no valid speeds, so no port can be ordered there; pick another.`,
      ),
    );
    return blocks;
  }
  blocks.push(
    inputBlock(
      PORT_ORDER_BLOCKS.speed,
      "Speed",
      staticSelect(
        PORT_ORDER_ACTIONS.speed,
        speedOptions(speeds),
        String(preview?.speedMbps),
        "Choose a speed",
      ),
      {
        dispatch_action: true,
        hint: plainText("Only the speeds this data center offers"),
      },
    ),
  );
  return blocks;
}

function termInput(preview: PortOrderPreview | undefined): InputBlock {
  // 1 year unless the person chose otherwise: the usual term, and what pricing assumes too.
  const value = termValue(preview?.term ?? PORT_ORDER_TERMS[0] ?? { value: 1, unit: "y" });
  return inputBlock(
    PORT_ORDER_BLOCKS.term,
    "Term",
    staticSelect(PORT_ORDER_ACTIONS.term, PORT_ORDER_TERM_OPTIONS, value, "Choose a term"),
    {
      dispatch_action: true,
      hint: plainText("1 year, or month to month (which costs more)"),
    },
  );
}

function portNameInput(): InputBlock {
  return inputBlock(
    PORT_ORDER_BLOCKS.portName,
    "Port name",
    textInput(PORT_ORDER_ACTIONS.portName, undefined, "e.g. ams-core-01", NAME_MAX, 1),
    {
      // Enter confirms the name and never submits the order (inputs.ts says why).
      dispatch_action: true,
      hint: plainText("Unique among your company's ports; one line"),
    },
  );
}

/** The price block: the live price, why there is none, or what is still to choose. */
export function priceBlock(preview: PortOrderPreview | undefined, currency: string): KnownBlock {
  const price = preview?.price;
  if (!price) {
    return {
      ...context(":moneybag: Choose a data center, speed and term to see the price."),
      block_id: PORT_ORDER_PRICE_BLOCK,
    };
  }
  if (price.kind === "unavailable") {
    return {
      ...context(`:warning: ${escapeMrkdwn(price.message)}`),
      block_id: PORT_ORDER_PRICE_BLOCK,
    };
  }
  const { result, term, speedMbps } = price;
  const amount = (x: unknown) => formatMoney(x, currency);
  const totalLabel =
    // "Price (total for 1 year)": the term's words without their "(12 months)", which would
    // nest brackets (issue 32, item 20).
    term.durationUnit === "m"
      ? "Price (one month)"
      : `Price (total for ${formatTerm(term.value, term.unit)})`;
  return {
    ...fields([
      [totalLabel, amount(result.price) ?? DASH],
      ["Monthly", amount(result.basicMonthlyAmount) ?? amount(result.preAuthAmount)],
      ["For", `${formatSpeed(speedMbps)} · ${termWords(term)}`],
    ]),
    block_id: PORT_ORDER_PRICE_BLOCK,
  };
}

// ---------------------------------------------------------------------------------------------
// The modal

export interface PortOrderModalInput {
  metadata: PortOrderMetadata;
  /** Sandbox mode is labelled, so nobody takes a simulated order for a real one. */
  sandbox: boolean;
  /** The ISO 4217 code the price is labelled with (PRICE_CURRENCY). */
  currency: string;
  /** What is chosen so far, with its speeds, LOA path and price. */
  preview?: PortOrderPreview;
}

/** `/connect port order`: the form, updated in place as the person chooses. */
export function portOrderModal(state: PortOrderModalInput): ModalView {
  const { preview } = state;
  const blocks: KnownBlock[] = [
    dcfInput(preview),
    ...dcfBlocks(preview),
    termInput(preview),
    portNameInput(),
    priceBlock(preview, state.currency),
    context(
      "Payment: invoice. Nothing is ordered until an approver approves the request in the approvals channel.",
    ),
  ];
  return modalView(
    PORT_ORDER_VIEW,
    PORT_ORDER_TITLE,
    withSandboxLabel(blocks, state.sandbox),
    { submit: "Request approval", close: "Cancel" },
    encodePortOrderMetadata(state.metadata),
  );
}
