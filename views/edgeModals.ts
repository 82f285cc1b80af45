import type { InputBlock, KnownBlock, ModalView, PlainTextOption } from "@slack/types";
import {
  ADDRESS_MAX,
  DISCOUNT_CODE_MAX,
  EDGE_NAME_MAX,
  POST_CODE_MAX,
} from "../src/domain/edge.js";
import { isSingapore } from "../src/domain/requestFacts.js";
import type { EdgeCatalogue, EdgeCountryChoice } from "../src/usecases/edge/catalogue.js";
import type { EdgeOrderField } from "../src/usecases/edge/order.js";
import type { EdgeQuoteField, QuoteRef } from "../src/usecases/edge/quote.js";
import { context, escapeMrkdwn, LIMITS, option, section, truncate } from "./blocks.js";
import { encodeQuoteRef, parseQuoteRef } from "./edgeQuote.js";
import { code } from "./format.js";
import { inputBlock, plainText } from "./inputs.js";
import { channelIdField, metadataFields } from "./modalMetadata.js";

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

/** Slack's limit on a modal title. */
const TITLE_MAX = 24;

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

/**
 * For a typed input of a form with other inputs: Enter confirms the field and never submits the
 * form (layer2Modal.ts `inputBlock` says why); the app acks it (EDGE_ENTER_ONLY_INPUTS).
 */
export const ENTER_CONFIRMS_FIELD = { dispatch_action: true } as const;

/** An Edge modal: its callback id, title (cut to Slack's limit), blocks and metadata. */
export function edgeModal(
  callbackId: string,
  title: string,
  blocks: KnownBlock[],
  metadata: EdgeModalMetadata,
  submit?: string,
): ModalView {
  return {
    type: "modal",
    callback_id: callbackId,
    private_metadata: encodeEdgeMetadata(metadata),
    title: plainText(truncate(title, TITLE_MAX)),
    ...(submit ? { submit: plainText(submit) } : {}),
    close: plainText(submit ? "Cancel" : "Close"),
    blocks,
  };
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
    return {
      type: "external_select",
      action_id: EDGE_QUOTE_INPUTS.country,
      placeholder: plainText("Type a country"),
      min_query_length: 0,
      ...(initial ? { initial_option: initial } : {}),
    };
  }
  const options = countryOptions(countries);
  const chosen = initial ? options.find((o) => o.value === initial.value) : undefined;
  return {
    type: "static_select",
    action_id: EDGE_QUOTE_INPUTS.country,
    placeholder: plainText("Choose a country"),
    options,
    ...(chosen ? { initial_option: chosen } : {}),
  };
}

function bandwidthBlocks(catalogue: EdgeCatalogue): InputBlock[] {
  if (catalogue.bandwidths.length > 0) {
    return [
      inputBlock(
        EDGE_QUOTE_BLOCKS.bandwidth,
        "Bandwidth",
        {
          type: "static_select",
          action_id: EDGE_QUOTE_INPUTS.bandwidth,
          placeholder: plainText("Choose a bandwidth"),
          options: catalogue.bandwidths
            .slice(0, LIMITS.staticOptions)
            .map((b) => option(b.label, b.key)),
        },
        { hint: plainText("The bandwidths the provider quotes Edge ports for") },
      ),
    ];
  }
  // The provider's list could not be read: a number and a unit, checked by the provider. No
  // min_value: Slack's client would answer a range alone, before the form's other problems.
  return [
    inputBlock(
      EDGE_QUOTE_BLOCKS.bandwidth,
      "Bandwidth",
      {
        type: "number_input",
        action_id: EDGE_QUOTE_INPUTS.bandwidth,
        is_decimal_allowed: true,
        placeholder: plainText("e.g. 100"),
      },
      ENTER_CONFIRMS_FIELD,
    ),
    inputBlock(EDGE_QUOTE_BLOCKS.bandwidthUnit, "Bandwidth unit", {
      type: "static_select",
      action_id: EDGE_QUOTE_INPUTS.bandwidthUnit,
      options: BANDWIDTH_UNITS.map((u) => option(u, u)),
      initial_option: option("Mbps", "Mbps"),
    }),
  ];
}

function termBlocks(catalogue: EdgeCatalogue): InputBlock[] {
  if (catalogue.terms.length > 0) {
    return [
      inputBlock(EDGE_QUOTE_BLOCKS.term, "Contract term", {
        type: "static_select",
        action_id: EDGE_QUOTE_INPUTS.term,
        placeholder: plainText("Choose a term"),
        options: catalogue.terms.slice(0, LIMITS.staticOptions).map((t) => option(t.label, t.key)),
      }),
    ];
  }
  return [
    inputBlock(
      EDGE_QUOTE_BLOCKS.term,
      "Contract term",
      {
        type: "number_input",
        action_id: EDGE_QUOTE_INPUTS.term,
        is_decimal_allowed: false,
        placeholder: plainText("e.g. 12"),
      },
      ENTER_CONFIRMS_FIELD,
    ),
    inputBlock(EDGE_QUOTE_BLOCKS.termUnit, "Contract term unit", {
      type: "static_select",
      action_id: EDGE_QUOTE_INPUTS.termUnit,
      options: TERM_UNITS.map(([value, label]) => option(label, value)),
      initial_option: option("Months", "month"),
    }),
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
      {
        type: "plain_text_input",
        action_id: EDGE_QUOTE_INPUTS.address,
        max_length: ADDRESS_MAX,
        placeholder: plainText("e.g. 1 Raffles Place, Singapore 048616"),
      },
      {
        ...ENTER_CONFIRMS_FIELD,
        hint: plainText("The site's full street address, as a maps search shows it"),
      },
    ),
  ];
  if (country?.postCodeRequired) {
    blocks.push(
      inputBlock(
        EDGE_QUOTE_BLOCKS.postCode,
        "Post code",
        {
          type: "plain_text_input",
          action_id: EDGE_QUOTE_INPUTS.postCode,
          max_length: POST_CODE_MAX,
          placeholder: plainText(isSingapore(country.country) ? "e.g. 048616" : "Post code"),
        },
        {
          ...ENTER_CONFIRMS_FIELD,
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
      {
        type: "plain_text_input",
        action_id: EDGE_DISCOUNT_INPUT,
        max_length: DISCOUNT_CODE_MAX,
        placeholder: plainText("e.g. NETSAVE10"),
      },
      { hint: plainText("A code the provider gave you; the new prices are posted in the thread") },
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
      inputBlock(EDGE_RENAME_BLOCK, "Draft name", {
        type: "plain_text_input",
        action_id: EDGE_RENAME_INPUT,
        max_length: EDGE_NAME_MAX,
        ...(name ? { initial_value: truncate(name, EDGE_NAME_MAX) } : {}),
      }),
      context(`Draft ${code(input_.draft.id)}`),
    ],
    { ...input_.metadata, draftId: input_.draft.id },
    "Rename",
  );
}
