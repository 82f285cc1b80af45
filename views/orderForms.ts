// What every order form's modal shares (layer 2, IO-D; the kit's open-then-fill too): the
// private_metadata saying where to answer and which price was shown, the input element
// builders (typed inputs dispatch so Enter never submits a half-filled order), a port as an
// option, and the loading and problem modals shown while a form is opened.
import type {
  InputBlock,
  ModalView,
  PlainTextOption,
  RadioButtons,
  StaticSelect,
} from "@slack/types";
import { remainingCapacity } from "../src/domain/connections.js";
import type { Port } from "../src/provider/api.js";
import { LIMITS, option, plainFromMrkdwn, section, truncate, withSandboxLabel } from "./blocks.js";
import { formatMbps, formatSpeed } from "./format.js";
import { channelIdField, metadataFields } from "./modalMetadata.js";

/** Slack cuts a modal title at 24 characters. */
export const TITLE_MAX = 24;

// ---------------------------------------------------------------------------------------------
// private_metadata: where to answer, and which price the person was shown

export interface OrderModalMetadata {
  /** The channel the command came from: the confirmation is posted there, privately. */
  channelId?: string;
  /** The key of the price the modal shows (a layer 2 connection). */
  priceKey?: string;
}

const PRICE_KEY = /^[A-Za-z0-9_-]{1,64}$/;

export function encodeOrderMetadata(metadata: OrderModalMetadata): string {
  return JSON.stringify({
    ...(metadata.channelId ? { c: metadata.channelId } : {}),
    ...(metadata.priceKey ? { p: metadata.priceKey } : {}),
  });
}

/** Reads what encodeOrderMetadata wrote; anything else reads as empty. */
export function parseOrderMetadata(text: unknown): OrderModalMetadata {
  const fields = metadataFields(text);
  const { p } = fields;
  return {
    ...channelIdField(fields),
    ...(typeof p === "string" && PRICE_KEY.test(p) ? { priceKey: p } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Element builders (shared with the IO-D modal)

export function plainText(text: string) {
  return { type: "plain_text" as const, text, emoji: true };
}

/** Option and description texts are plain text: undo the mrkdwn escaping of shared helpers. */
export const plain = plainFromMrkdwn;

/**
 * Enter in a Slack text or number input submits the whole modal unless the input's block has
 * `dispatch_action`; then Enter sends `block_actions` instead. In an order form, submitting on
 * Enter sends a half-filled order: Slack marks every required field not yet reached "Please
 * complete this required field." before the person got there. So every typed input of a form
 * with more than one input (layer 2, IO-D, port order, price l2, Edge quote and order)
 * dispatches: Enter confirms that field (and rebuilds the form where the value changes it), and
 * only the submit button submits — an order that costs money goes on a deliberate click, not a
 * key pressed to finish a field. The alternatives were worse: marking later fields optional
 * makes Slack label required fields "(optional)" and still sends the half-filled order; a
 * multi-step form would split a form that is rebuilt in place anyway. Typed inputs whose value
 * changes nothing else get an ack-only listener (src/slack/kit/enterKey.ts).
 */
const TYPED_ELEMENTS = new Set(["plain_text_input", "number_input"]);

export function inputBlock(
  blockId: string,
  label: string,
  element: InputBlock["element"],
  extra: Partial<Pick<InputBlock, "hint" | "optional" | "dispatch_action">> = {},
): InputBlock {
  const block: InputBlock = {
    type: "input",
    block_id: blockId,
    label: plainText(label),
    element,
  };
  if (extra.hint) block.hint = extra.hint;
  if (extra.optional) block.optional = true;
  if (extra.dispatch_action || TYPED_ELEMENTS.has(element.type)) block.dispatch_action = true;
  return block;
}

export function staticSelect(
  actionId: string,
  options: PlainTextOption[],
  initialValue: string | undefined,
  placeholder: string,
): StaticSelect {
  const shown = options.slice(0, LIMITS.staticOptions);
  const initial = shown.find((o) => o.value === initialValue);
  return {
    type: "static_select",
    action_id: actionId,
    placeholder: plainText(truncate(placeholder, 150)),
    options: shown,
    ...(initial ? { initial_option: initial } : {}),
  };
}

export function radioButtons(
  actionId: string,
  options: PlainTextOption[],
  initialValue: string | undefined,
): RadioButtons {
  const initial = options.find((o) => o.value === initialValue);
  return {
    type: "radio_buttons",
    action_id: actionId,
    options,
    ...(initial ? { initial_option: initial } : {}),
  };
}

/**
 * A number input; the initial value is kept only when it is a number a person could type. No
 * min_value/max_value: Slack's client checks those itself and answers only that field, so a
 * person would meet one problem per submit. The range is checked with everything else, and
 * every problem is answered at once next to its field.
 */
export function numberInput(
  actionId: string,
  initial: string | undefined,
  placeholder: string,
): InputBlock["element"] {
  return {
    type: "number_input",
    action_id: actionId,
    is_decimal_allowed: false,
    placeholder: plainText(placeholder),
    ...(initial && /^\d{1,12}$/.test(initial) ? { initial_value: initial } : {}),
  };
}

export function textInput(
  actionId: string,
  initial: string | undefined,
  placeholder: string,
  maxLength: number,
): InputBlock["element"] {
  return {
    type: "plain_text_input",
    action_id: actionId,
    max_length: maxLength,
    placeholder: plainText(placeholder),
    ...(initial ? { initial_value: truncate(initial, maxLength) } : {}),
  };
}

/** A port as a select option: name and speed; where it is and its free capacity below. */
export function portOption(port: Port): PlainTextOption {
  const name = port.name?.trim() || port.id;
  const speed = port.speed?.value;
  const free = remainingCapacity(port);
  const details = [
    port.dataCenterFacility?.name ?? port.metro?.name,
    free !== undefined ? `${formatMbps(free)} free` : undefined,
    port.status && port.status !== "ACTIVE" ? port.status : undefined,
  ].filter((d): d is string => typeof d === "string" && d !== "");
  return option(
    typeof speed === "number" ? `${truncate(name, 60)} · ${formatSpeed(speed)}` : name,
    port.id,
    details.length > 0 ? details.join(" · ") : undefined,
  );
}

/** Shown at once (Slack's trigger lasts 3 s), replaced when the ports are loaded. */
export function orderLoadingModal(
  callbackId: string,
  title: string,
  what: string,
  sandbox: boolean,
): ModalView {
  return noticeModal(
    callbackId,
    title,
    `:hourglass_flowing_sand: Loading ${what}…`,
    "Cancel",
    sandbox,
  );
}

/** The form could not be loaded at all: say why, no submit button. */
export function orderProblemModal(
  callbackId: string,
  title: string,
  problem: string,
  sandbox: boolean,
): ModalView {
  return noticeModal(callbackId, title, problem, "Close", sandbox);
}

/** A form's modal that only says something (no inputs, no submit button). */
function noticeModal(
  callbackId: string,
  title: string,
  text: string,
  close: string,
  sandbox: boolean,
): ModalView {
  return {
    type: "modal",
    callback_id: callbackId,
    title: plainText(truncate(title, TITLE_MAX)),
    close: plainText(close),
    blocks: withSandboxLabel([section(text)], sandbox),
  };
}
