import type { InputBlock, KnownBlock, ModalView, PlainTextOption } from "@slack/types";
import {
  ADDRESS_MAX,
  DISCOUNT_CODE_MAX,
  EDGE_NAME_MAX,
  POST_CODE_MAX,
} from "../../src/domain/catalog/edge.js";
import { isSingapore } from "../../src/domain/catalog/requestFacts.js";
import type { EdgeCatalogue, EdgeCountryChoice } from "../../src/usecases/edge/catalogue.js";
import type { EdgeOrderField } from "../../src/usecases/edge/order.js";
import type { EdgeQuoteField, QuoteRef } from "../../src/usecases/edge/quote.js";
import { context, escapeMrkdwn, LIMITS, option, section } from "../blocks.js";
import { code } from "../format.js";
import {
  externalSelect,
  inputBlock,
  modalView,
  numberInput,
  plainText,
  staticSelect,
  textInput,
} from "../inputs.js";
import { channelIdField, metadataFields } from "../modalMetadata.js";
import { encodeQuoteRef, parseQuoteRef } from "./edgeQuote.js";

/**
 * The Edge modals: the quote form (`/connect edge quote`), a discount code, the order (from a
 * quote or a draft) and renaming a draft, plus loading and problem views. Pure functions; ids
 * are exported so listeners and tests share them.
 */

export const EDGE_QUOTE_VIEW = "edge_quote";
export const EDGE_DISCOUNT_VIEW = "edge_discount";
export const EDGE_ORDER_VIEW = "edge_order";
export const EDGE_RENAME_VIEW = "edge_draft_rename";
/** A view with nothing to submit (loading, a problem). */
export const EDGE_INFO_VIEW = "edge_info";

export const EDGE_QUOTE_BLOCKS = {
  country: "edge_quote_country",
  bandwidth: "edge_quote_bandwidth",
  bandwidthUnit: "edge_quote_bandwidth_unit",
  term: "edge_quote_term",
  termUnit: "edge_quote_term_unit",
  address: "edge_quote_address",
  postCode: "edge_quote_post_code",
} as const;

export const EDGE_QUOTE_INPUTS = {
  country: "edge_quote_country_select",
  bandwidth: "edge_quote_bandwidth_input",
  bandwidthUnit: "edge_quote_bandwidth_unit_select",
  term: "edge_quote_term_input",
  termUnit: "edge_quote_term_unit_select",
  address: "edge_quote_address_input",
  postCode: "edge_quote_post_code_input",
} as const;

/** The form's fields → their input blocks (for field errors). */
export const EDGE_QUOTE_FIELD_BLOCKS = {
  country: EDGE_QUOTE_BLOCKS.country,
  bandwidth: EDGE_QUOTE_BLOCKS.bandwidth,
  term: EDGE_QUOTE_BLOCKS.term,
  address: EDGE_QUOTE_BLOCKS.address,
  postCode: EDGE_QUOTE_BLOCKS.postCode,
} as const satisfies Record<EdgeQuoteField, string>;

export const EDGE_DISCOUNT_BLOCK = "edge_discount_code";
export const EDGE_DISCOUNT_INPUT = "edge_discount_code_input";

export const EDGE_ORDER_BLOCKS = {
  offer: "edge_order_offer",
  portName: "edge_order_port_name",
} as const satisfies Record<EdgeOrderField, string>;

export const EDGE_ORDER_INPUTS = {
  offer: "edge_order_offer_select",
  portName: "edge_order_port_name_input",
} as const;

export const EDGE_RENAME_BLOCK = "edge_draft_name";
export const EDGE_RENAME_INPUT = "edge_draft_name_input";

// ---------------------------------------------------------------------------------------------
// private_metadata

/** Where answers go and what a modal is about; set by the app, returned by Slack. */
export interface EdgeModalMetadata {
  /** The channel the command or button was used in (answers go there, privately). */
  channelId?: string;
  /** The quote's thread (a discounted quote is posted there). */
  threadTs?: string;
  /** The quote a discount or an order is about. */
  ref?: QuoteRef;
  /** The draft an order or rename is about. */
  draftId?: string;
}

const TS = /^\d{1,12}\.\d{1,9}$/;
const DRAFT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function encodeEdgeMetadata(metadata: EdgeModalMetadata): string {
  const ref = metadata.ref ? encodeQuoteRef(metadata.ref) : undefined;
  return JSON.stringify({
    ...(metadata.channelId ? { c: metadata.channelId } : {}),
    ...(metadata.threadTs ? { th: metadata.threadTs } : {}),
    ...(ref ? { q: ref } : {}),
    ...(metadata.draftId ? { d: metadata.draftId } : {}),
  });
}

/** Reads what encodeEdgeMetadata wrote; anything else reads as empty. */
export function parseEdgeMetadata(value: unknown): EdgeModalMetadata {
  const fields = metadataFields(value);
  const { th, q, d } = fields;
  const ref = parseQuoteRef(q);
  return {
    ...channelIdField(fields),
    ...(typeof th === "string" && TS.test(th) ? { threadTs: th } : {}),
    ...(ref ? { ref } : {}),
    ...(typeof d === "string" && DRAFT_ID.test(d) ? { draftId: d } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Elements

/** The typed inputs of the Edge quote and order forms: Enter there only confirms the field. */
export const EDGE_ENTER_ONLY_INPUTS = [
  EDGE_QUOTE_INPUTS.bandwidth,
  EDGE_QUOTE_INPUTS.term,
  EDGE_QUOTE_INPUTS.address,
  EDGE_QUOTE_INPUTS.postCode,
  EDGE_ORDER_INPUTS.portName,
] as const;

/** An Edge modal: its callback id, title (cut to Slack's limit), blocks and metadata. */
export function edgeModal(
  callbackId: string,
  title: string,
  blocks: KnownBlock[],
  metadata: EdgeModalMetadata,
  submit?: string,
): ModalView {
  return modalView(
    callbackId,
    title,
    blocks,
    { ...(submit ? { submit } : {}), close: submit ? "Cancel" : "Close" },
    encodeEdgeMetadata(metadata),
  );
}

/** Shown while the provider is asked for what the modal needs (the trigger id lasts 3 s). */
export function edgeLoadingModal(title: string, what: string): ModalView {
  return edgeModal(
    EDGE_INFO_VIEW,
    title,
    [section(`:hourglass_flowing_sand: ${escapeMrkdwn(what)}`)],
    {},
  );
}

/** A modal that only explains (the provider failed, the quote is gone, …). */
export function edgeProblemModal(title: string, message: string): ModalView {
  return edgeModal(EDGE_INFO_VIEW, title, [section(`:warning: ${escapeMrkdwn(message)}`)], {});
}

// ---------------------------------------------------------------------------------------------
// The quote form

/** Option and hint texts are plain text: no escaping. */
export function countryOption(country: EdgeCountryChoice): PlainTextOption {
  return option(country.name, country.key);
}

export function countryOptions(countries: readonly EdgeCountryChoice[]): PlainTextOption[] {
  return countries.slice(0, LIMITS.staticOptions).map(countryOption);
}

export interface EdgeQuoteModalInput {
  catalogue: EdgeCatalogue;
  metadata: EdgeModalMetadata;
  /** The country chosen so far (its post code rule decides whether Post code is shown). */
  country?: EdgeCountryChoice;
}

const BANDWIDTH_UNITS = ["Mbps", "Gbps"] as const;
const TERM_UNITS = [
  ["month", "Months"],
  ["year", "Years"],
] as const;

function countryElement(input: EdgeQuoteModalInput): InputBlock["element"] {
  const { countries } = input.catalogue;
  const initial = input.country ? countryOption(input.country) : undefined;
  // Static selects hold 100 options; a longer list is searched as the person types.
  if (countries.length > LIMITS.staticOptions) {
    return externalSelect(EDGE_QUOTE_INPUTS.country, "Type a country", 0, initial);
  }
  return staticSelect(
    EDGE_QUOTE_INPUTS.country,
    countryOptions(countries),
    initial?.value,
    "Choose a country",
  );
}

function bandwidthBlocks(catalogue: EdgeCatalogue): InputBlock[] {
  if (catalogue.bandwidths.length > 0) {
    return [
      inputBlock(
        EDGE_QUOTE_BLOCKS.bandwidth,
        "Bandwidth",
        staticSelect(
          EDGE_QUOTE_INPUTS.bandwidth,
          catalogue.bandwidths.map((b) => option(b.label, b.key)),
          undefined,
          "Choose a bandwidth",
        ),
        { hint: plainText("The bandwidths the provider quotes Edge ports for") },
      ),
    ];
  }
  // The provider's list could not be read: a number and a unit, checked by the provider.
  return [
    inputBlock(
      EDGE_QUOTE_BLOCKS.bandwidth,
      "Bandwidth",
      numberInput(EDGE_QUOTE_INPUTS.bandwidth, undefined, "e.g. 100", true),
    ),
    inputBlock(
      EDGE_QUOTE_BLOCKS.bandwidthUnit,
      "Bandwidth unit",
      staticSelect(
        EDGE_QUOTE_INPUTS.bandwidthUnit,
        BANDWIDTH_UNITS.map((u) => option(u, u)),
        "Mbps",
      ),
    ),
  ];
}

function termBlocks(catalogue: EdgeCatalogue): InputBlock[] {
  if (catalogue.terms.length > 0) {
    return [
      inputBlock(
        EDGE_QUOTE_BLOCKS.term,
        "Contract term",
        staticSelect(
          EDGE_QUOTE_INPUTS.term,
          catalogue.terms.map((t) => option(t.label, t.key)),
          undefined,
          "Choose a term",
        ),
      ),
    ];
  }
  return [
    inputBlock(
      EDGE_QUOTE_BLOCKS.term,
      "Contract term",
      numberInput(EDGE_QUOTE_INPUTS.term, undefined, "e.g. 12"),
    ),
    inputBlock(
      EDGE_QUOTE_BLOCKS.termUnit,
      "Contract term unit",
      staticSelect(
        EDGE_QUOTE_INPUTS.termUnit,
        TERM_UNITS.map(([value, label]) => option(label, value)),
        "month",
      ),
    ),
  ];
}

/** `/connect edge quote`: Country, Bandwidth, Contract term, Address (+ Post code). */
export function edgeQuoteModal(state: EdgeQuoteModalInput): ModalView {
  const { catalogue, country } = state;
  if (catalogue.countries.length === 0) {
    return edgeProblemModal(
      "Edge port quote",
      "The provider lists no countries for Edge ports right now; try again later.",
    );
  }
  const blocks: KnownBlock[] = [
    inputBlock(EDGE_QUOTE_BLOCKS.country, "Country", countryElement(state), {
      // Post code depends on the country: Slack tells the app when it changes.
      dispatch_action: true,
    }),
    ...bandwidthBlocks(catalogue),
    ...termBlocks(catalogue),
    inputBlock(
      EDGE_QUOTE_BLOCKS.address,
      "Address",
      textInput(
        EDGE_QUOTE_INPUTS.address,
        undefined,
        "e.g. 1 Raffles Place, Singapore 048616",
        ADDRESS_MAX,
      ),
      { hint: plainText("The site's full street address, as a maps search shows it") },
    ),
  ];
  if (country?.postCodeRequired) {
    blocks.push(
      inputBlock(
        EDGE_QUOTE_BLOCKS.postCode,
        "Post code",
        textInput(
          EDGE_QUOTE_INPUTS.postCode,
          undefined,
          isSingapore(country.country) ? "e.g. 048616" : "Post code",
          POST_CODE_MAX,
        ),
        {
          hint: plainText(
            isSingapore(country.country)
              ? "Required for Singapore: 6 digits"
              : `Required for an address in ${country.name}`,
          ),
        },
      ),
    );
  }
  blocks.push(
    context(
      "The provider asks its partners for prices at this address. The offers appear in a thread in this channel, usually within a few minutes; from there you can apply a discount code, save a draft or order.",
    ),
  );
  return edgeModal(EDGE_QUOTE_VIEW, "Edge port quote", blocks, state.metadata, "Request quote");
}

// ---------------------------------------------------------------------------------------------
// Discount code

export function edgeDiscountModal(metadata: EdgeModalMetadata): ModalView {
  const key = metadata.ref?.responseId;
  const blocks: KnownBlock[] = [
    inputBlock(
      EDGE_DISCOUNT_BLOCK,
      "Discount code",
      textInput(EDGE_DISCOUNT_INPUT, undefined, "e.g. NETSAVE10", DISCOUNT_CODE_MAX),
      {
        hint: plainText("A code the provider gave you; the new prices are posted in the thread"),
        enterSubmits: true,
      },
    ),
  ];
  if (key) blocks.push(context(`Quote key ${code(key)}`));
  return edgeModal(EDGE_DISCOUNT_VIEW, "Apply a discount code", blocks, metadata, "Apply");
}

// ---------------------------------------------------------------------------------------------
// Rename a draft

export function renameDraftModal(input_: {
  draft: { id: string; name?: string | null };
  metadata: EdgeModalMetadata;
}): ModalView {
  const name = input_.draft.name ?? "";
  return edgeModal(
    EDGE_RENAME_VIEW,
    "Rename Edge draft",
    [
      inputBlock(
        EDGE_RENAME_BLOCK,
        "Draft name",
        textInput(EDGE_RENAME_INPUT, name, undefined, EDGE_NAME_MAX),
        { enterSubmits: true },
      ),
      context(`Draft ${code(input_.draft.id)}`),
    ],
    { ...input_.metadata, draftId: input_.draft.id },
    "Rename",
  );
}
