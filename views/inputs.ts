import type {
  ExternalSelect,
  InputBlock,
  KnownBlock,
  ModalView,
  PlainTextOption,
  RadioButtons,
  StaticSelect,
} from "@slack/types";
import { LIMITS, truncate } from "./blocks.js";

/**
 * The one home of a modal's Block Kit input pieces: a plain_text object, an input block with
 * its label, and the elements (selects, radio buttons, number and text inputs). Every form
 * builds its inputs from these (issue 21: each modal had its own copy), so a label, a hint or
 * a select looks and behaves the same in every form. What only the order forms share
 * (metadata, a port as an option, the loading and problem modals) is in orderForms.ts.
 */

/** Slack cuts a modal title at 24 characters. */
const TITLE_MAX = 24;

/** A plain_text object (emoji shown as emoji). Plain text: no escaping. */
export function plainText(text: string) {
  return { type: "plain_text" as const, text, emoji: true };
}

/**
 * A modal: its callback id, its title (cut to Slack's limit), its blocks, its buttons (no
 * submit: a modal that only says something) and what it carries in private_metadata.
 */
export function modalView(
  callbackId: string,
  title: string,
  blocks: KnownBlock[],
  buttons: { submit?: string; close: string },
  privateMetadata?: string,
): ModalView {
  return {
    type: "modal",
    callback_id: callbackId,
    ...(privateMetadata !== undefined ? { private_metadata: privateMetadata } : {}),
    title: plainText(truncate(title, TITLE_MAX)),
    ...(buttons.submit ? { submit: plainText(buttons.submit) } : {}),
    close: plainText(buttons.close),
    blocks,
  };
}

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
 * changes nothing else get an ack-only listener (src/slack/kit/enterKey.ts). A form with one
 * input (a discount code, a draft's name) says `enterSubmits`: there Enter is the submit.
 */
const TYPED_ELEMENTS = new Set(["plain_text_input", "number_input"]);

export type InputExtra = Partial<Pick<InputBlock, "hint" | "optional" | "dispatch_action">> & {
  /** The form's only input: Enter submits it (no dispatch_action added for a typed input). */
  enterSubmits?: boolean;
};

/** An input block: its id, its label, its element, and optionally a hint, optional, dispatch. */
export function inputBlock(
  blockId: string,
  label: string,
  element: InputBlock["element"],
  extra: InputExtra = {},
): InputBlock {
  const { enterSubmits, ...rest } = extra;
  const block: InputBlock = {
    type: "input",
    block_id: blockId,
    label: plainText(label),
    element,
    ...rest,
  };
  if (!enterSubmits && TYPED_ELEMENTS.has(element.type)) block.dispatch_action = true;
  return block;
}

/** A static select of at most Slack's 100 options, the one matching `initialValue` chosen. */
export function staticSelect(
  actionId: string,
  options: PlainTextOption[],
  initialValue?: string,
  placeholder?: string,
): StaticSelect {
  const shown = options.slice(0, LIMITS.staticOptions);
  const initial = shown.find((o) => o.value === initialValue);
  return {
    type: "static_select",
    action_id: actionId,
    ...(placeholder ? { placeholder: plainText(truncate(placeholder, 150)) } : {}),
    options: shown,
    ...(initial ? { initial_option: initial } : {}),
  };
}

/** A select whose options the app answers as the person types (an options load). */
export function externalSelect(
  actionId: string,
  placeholder: string,
  minQueryLength: number,
  initial?: PlainTextOption,
): ExternalSelect {
  return {
    type: "external_select",
    action_id: actionId,
    placeholder: plainText(placeholder),
    min_query_length: minQueryLength,
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
  placeholder?: string,
  decimalAllowed = false,
): InputBlock["element"] {
  return {
    type: "number_input",
    action_id: actionId,
    is_decimal_allowed: decimalAllowed,
    ...(placeholder ? { placeholder: plainText(placeholder) } : {}),
    ...(initial && /^\d{1,12}$/.test(initial) ? { initial_value: initial } : {}),
  };
}

/** A one-line text input, the initial value cut to the length allowed. */
export function textInput(
  actionId: string,
  initial: string | undefined,
  placeholder: string | undefined,
  maxLength: number,
  minLength?: number,
): InputBlock["element"] {
  return {
    type: "plain_text_input",
    action_id: actionId,
    ...(minLength !== undefined ? { min_length: minLength } : {}),
    max_length: maxLength,
    ...(placeholder ? { placeholder: plainText(placeholder) } : {}),
    ...(initial ? { initial_value: truncate(initial, maxLength) } : {}),
  };
}
