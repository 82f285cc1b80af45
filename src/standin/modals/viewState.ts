import type { ViewStateSelectedOption } from "@slack/bolt";
import { isObject, type Json } from "../json.js";
import type { Option, SlackBlock, ViewStateValue, ViewStateValues } from "../types.js";
import { interactiveElements, type LocatedElement, optionsOf, pickOption } from "./elements.js";

/**
 * `view.state.values` as Slack keeps it: the value a person produces by giving an element some
 * input (refusing what Slack's client refuses: an option not offered, a number out of range),
 * what an untouched element submits, and which required inputs are still empty. The rules of
 * each element type live in one place, so the filler, the workspace and the playground agree.
 */

/** Slack puts the option as defined (a radio button's mrkdwn text included) into the state. */
const selected = (option: Option) => option as unknown as ViewStateSelectedOption;
const selectedList = (options: readonly Option[]) => options.map(selected);

/** What a person gives for one input. */
export type FieldInput =
  | string
  | number
  | readonly string[]
  /** For an external select: what to type, then which suggestion to pick. */
  | { query: string; pick?: string };

/** What a person types into an external select for this input (a `{query, pick}` types the query). */
export function typedQuery(input: FieldInput): string {
  return isObject(input) && !Array.isArray(input) ? input.query : String(input);
}

/** Text and number inputs: what a person types, and where Enter acts (modal.ts). */
export const TYPED_INPUT_TYPES = new Set([
  "plain_text_input",
  "email_text_input",
  "url_text_input",
  "number_input",
]);

/** Elements whose state is one string, with the field it is in and the field of its initial value. */
const SINGLE_VALUE_FIELDS: Record<string, readonly [keyof ViewStateValue, string]> = {
  datepicker: ["selected_date", "initial_date"],
  timepicker: ["selected_time", "initial_time"],
  users_select: ["selected_user", "initial_user"],
  conversations_select: ["selected_conversation", "initial_conversation"],
  channels_select: ["selected_channel", "initial_channel"],
};
/** Elements whose state is a list of ids, likewise. */
const MULTI_VALUE_FIELDS: Record<string, readonly [keyof ViewStateValue, string]> = {
  multi_users_select: ["selected_users", "initial_users"],
  multi_conversations_select: ["selected_conversations", "initial_conversations"],
  multi_channels_select: ["selected_channels", "initial_channels"],
};

function asList(input: FieldInput, what: string): string[] {
  if (Array.isArray(input)) return input.map(String);
  if (typeof input === "string" || typeof input === "number") return [String(input)];
  throw new Error(`${what}: expected a value or a list of values`);
}

function asText(input: FieldInput, what: string): string {
  if (typeof input === "string" || typeof input === "number") return String(input);
  throw new Error(`${what}: expected a single value, got ${JSON.stringify(input)}`);
}

function checkTextLength(element: Json, text: string, what: string): void {
  if (typeof element.max_length === "number" && text.length > element.max_length) {
    throw new Error(`${what}: at most ${element.max_length} characters`);
  }
  if (typeof element.min_length === "number" && text.length < element.min_length) {
    throw new Error(`${what}: at least ${element.min_length} characters`);
  }
}

function checkNumber(element: Json, text: string, what: string): void {
  const decimals = element.is_decimal_allowed === true;
  const pattern = decimals ? /^-?\d+(\.\d+)?$/ : /^-?\d+$/;
  if (!pattern.test(text.trim())) {
    throw new Error(`${what}: "${text}" is not ${decimals ? "a number" : "a whole number"}`);
  }
  const value = Number(text);
  if (element.min_value !== undefined && value < Number(element.min_value)) {
    throw new Error(`${what}: must be at least ${String(element.min_value)}`);
  }
  if (element.max_value !== undefined && value > Number(element.max_value)) {
    throw new Error(`${what}: must be at most ${String(element.max_value)}`);
  }
}

/**
 * The state value a person produces by giving `input` to this element. For an external select,
 * `suggestions` are the options the app offered for what was typed.
 */
export function stateValueFor(
  located: LocatedElement,
  input: FieldInput,
  suggestions?: readonly Option[],
): ViewStateValue {
  const { element } = located;
  const what = `"${located.label ?? located.actionId}"`;
  const type = element.type;
  switch (type) {
    case "plain_text_input":
    case "email_text_input":
    case "url_text_input": {
      const text = asText(input, what);
      checkTextLength(element, text, what);
      return { type, value: text };
    }
    case "number_input": {
      const text = asText(input, what);
      checkNumber(element, text, what);
      return { type, value: text.trim() };
    }
    case "static_select":
    case "radio_buttons":
    case "overflow":
      return {
        type,
        selected_option: selected(pickOption(optionsOf(element), asText(input, what), what)),
      };
    case "multi_static_select":
    case "checkboxes": {
      const options = optionsOf(element);
      const picked = asList(input, what).map((wanted) => pickOption(options, wanted, what));
      if (
        typeof element.max_selected_items === "number" &&
        picked.length > element.max_selected_items
      ) {
        throw new Error(`${what}: at most ${element.max_selected_items} selections`);
      }
      return { type, selected_options: selectedList(picked) };
    }
    case "external_select": {
      const offered = suggestions ?? [];
      const wanted =
        isObject(input) && !Array.isArray(input)
          ? (input.pick ?? input.query)
          : asText(input, what);
      // A person who typed a query and got a single suggestion picks that one.
      const only = offered.length === 1 && offered[0] ? offered[0] : undefined;
      try {
        return { type, selected_option: selected(pickOption(offered, wanted, what)) };
      } catch (error) {
        if (only && !(isObject(input) && !Array.isArray(input) && input.pick)) {
          return { type, selected_option: selected(only) };
        }
        throw error;
      }
    }
    case "multi_external_select": {
      const offered = suggestions ?? [];
      return {
        type,
        selected_options: selectedList(
          asList(input, what).map((wanted) => pickOption(offered, wanted, what)),
        ),
      };
    }
    case "datepicker": {
      const date = asText(input, what);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) {
        throw new Error(`${what}: "${date}" is not a date (YYYY-MM-DD)`);
      }
      return { type, selected_date: date };
    }
    case "timepicker": {
      const time = asText(input, what);
      if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) {
        throw new Error(`${what}: "${time}" is not a time (HH:mm)`);
      }
      return { type, selected_time: time };
    }
    default: {
      const single = SINGLE_VALUE_FIELDS[type];
      if (single) return { type, [single[0]]: asText(input, what) };
      const multi = MULTI_VALUE_FIELDS[type];
      if (multi) return { type, [multi[0]]: asList(input, what) };
      throw new Error(`${what}: the stand-in cannot fill a ${type} element`);
    }
  }
}

/** What Slack submits for an element the person did not touch: its initial value, or empty. */
export function untouchedStateValue(element: Json & { type: string }): ViewStateValue {
  const type = element.type;
  if (TYPED_INPUT_TYPES.has(type)) {
    return {
      type,
      value: typeof element.initial_value === "string" ? element.initial_value : null,
    };
  }
  switch (type) {
    case "static_select":
    case "external_select":
    case "radio_buttons":
      return {
        type,
        selected_option: isObject(element.initial_option)
          ? selected(element.initial_option as unknown as Option)
          : null,
      };
    case "multi_static_select":
    case "multi_external_select":
    case "checkboxes":
      return {
        type,
        selected_options: Array.isArray(element.initial_options)
          ? selectedList(element.initial_options as Option[])
          : [],
      };
    default: {
      const single = SINGLE_VALUE_FIELDS[type];
      if (single) {
        const initial = element[single[1]];
        return { type, [single[0]]: typeof initial === "string" ? initial : null };
      }
      const multi = MULTI_VALUE_FIELDS[type];
      if (multi) {
        const initial = element[multi[1]];
        return { type, [multi[0]]: Array.isArray(initial) ? (initial as string[]) : [] };
      }
      return { type };
    }
  }
}

const STATEFUL_TYPES = new Set([
  ...TYPED_INPUT_TYPES,
  "static_select",
  "external_select",
  "radio_buttons",
  "multi_static_select",
  "multi_external_select",
  "checkboxes",
  ...Object.keys(SINGLE_VALUE_FIELDS),
  ...Object.keys(MULTI_VALUE_FIELDS),
]);

/**
 * `view.state.values` as Slack sends it: every input (entered or untouched), plus stateful
 * elements outside inputs that were changed or have an initial value.
 */
export function viewStateValues(
  blocks: readonly SlackBlock[] | undefined,
  entered: ViewStateValues,
): ViewStateValues {
  const values: ViewStateValues = {};
  for (const located of interactiveElements(blocks)) {
    if (!STATEFUL_TYPES.has(located.element.type)) continue;
    const given = entered[located.blockId]?.[located.actionId];
    const untouched = untouchedStateValue(located.element);
    const hasInitial = !isEmptyStateValue(untouched);
    if (located.blockType !== "input" && given === undefined && !hasInitial) continue;
    values[located.blockId] ??= {};
    (values[located.blockId] as Record<string, ViewStateValue>)[located.actionId] =
      given ?? untouched;
  }
  return values;
}

export function isEmptyStateValue(value: ViewStateValue): boolean {
  for (const [key, v] of Object.entries(value)) {
    if (key === "type") continue;
    if (Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined && v !== "") return false;
  }
  return true;
}

/** Labels of required inputs that are still empty: Slack's client will not submit then. */
export function missingRequiredInputs(
  blocks: readonly SlackBlock[] | undefined,
  values: ViewStateValues,
): string[] {
  return interactiveElements(blocks)
    .filter((e) => e.blockType === "input" && !e.optional)
    .filter((e) => {
      const value = values[e.blockId]?.[e.actionId];
      return value === undefined || isEmptyStateValue(value);
    })
    .map((e) => e.label ?? e.blockId);
}

/** What Slack's client shows next to a required input left empty when a modal is submitted. */
export const REQUIRED_FIELD_MESSAGE = "Please complete this required field.";

/** Slack's client-side answer: each empty required input (by block_id) with Slack's words. */
export function requiredFieldErrors(
  blocks: readonly SlackBlock[] | undefined,
  values: ViewStateValues,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const e of interactiveElements(blocks)) {
    if (e.blockType !== "input" || e.optional) continue;
    const value = values[e.blockId]?.[e.actionId];
    if (value === undefined || isEmptyStateValue(value)) errors[e.blockId] = REQUIRED_FIELD_MESSAGE;
  }
  return errors;
}
