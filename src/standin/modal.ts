import type { ViewStateSelectedOption } from "@slack/bolt";
import type { Option, SlackBlock, ViewOutput, ViewStateValue, ViewStateValues } from "./types.js";

/**
 * Filling a modal the way a person does: find each input by the label they read, enter a value
 * according to what the element is (type text, pick an option by what it says, type into an
 * external select and pick from what the app suggests, tick boxes, pick a date), and produce the
 * `view.state.values` Slack sends on submission. Refuses what Slack's client would not let a
 * person do (an option that is not offered, a number out of range, submitting with a required
 * input empty), so a test cannot pass with input no person could give.
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function textOf(value: unknown): string | undefined {
  return isObject(value) && typeof value.text === "string" ? value.text : undefined;
}

/** An interactive element with where it sits. */
export interface LocatedElement {
  blockId: string;
  actionId: string;
  element: Json & { type: string };
  blockType: string;
  /** The input block's label, when the element is in an input block. */
  label?: string;
  /** The input block asks Slack to send `block_actions` when this element changes. */
  dispatchAction: boolean;
  optional: boolean;
}

/** Every interactive element of these blocks, in order (input elements, accessories, actions). */
export function interactiveElements(blocks: readonly SlackBlock[] | undefined): LocatedElement[] {
  const found: LocatedElement[] = [];
  for (const block of (blocks ?? []) as unknown[]) {
    if (!isObject(block) || typeof block.type !== "string") continue;
    const blockId = typeof block.block_id === "string" ? block.block_id : "";
    const candidates: unknown[] = [];
    if (block.type === "input") candidates.push(block.element);
    if (block.type === "section") candidates.push(block.accessory);
    if (block.type === "actions" && Array.isArray(block.elements))
      candidates.push(...block.elements);
    for (const element of candidates) {
      if (!isObject(element) || typeof element.type !== "string") continue;
      if (typeof element.action_id !== "string") continue;
      found.push({
        blockId,
        actionId: element.action_id,
        element: element as Json & { type: string },
        blockType: block.type,
        label: block.type === "input" ? textOf(block.label) : undefined,
        dispatchAction: block.type === "input" && block.dispatch_action === true,
        optional: block.type === "input" && block.optional === true,
      });
    }
  }
  return found;
}

/** The element with this action_id (and block_id, when given); a clear error listing the ids otherwise. */
export function findElement(
  blocks: readonly SlackBlock[] | undefined,
  actionId: string,
  blockId?: string,
): LocatedElement {
  const all = interactiveElements(blocks);
  const match = all.find(
    (e) => e.actionId === actionId && (blockId === undefined || e.blockId === blockId),
  );
  if (match) return match;
  const ids = all.map((e) => `${e.blockId}/${e.actionId} (${e.element.type})`).join(", ");
  throw new Error(
    `No element with action_id "${actionId}"${blockId ? ` in block "${blockId}"` : ""}; elements: ${ids || "none"}`,
  );
}

/** The input labels a person sees in this view, in order. */
export function inputLabels(blocks: readonly SlackBlock[] | undefined): string[] {
  return interactiveElements(blocks)
    .filter((e) => e.blockType === "input" && e.label !== undefined)
    .map((e) => e.label as string);
}

const normalise = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();

/** The input block whose label reads `label` (case-insensitive). */
export function findInputByLabel(
  blocks: readonly SlackBlock[] | undefined,
  label: string,
): LocatedElement {
  const inputs = interactiveElements(blocks).filter((e) => e.blockType === "input");
  const matches = inputs.filter(
    (e) => e.label !== undefined && normalise(e.label) === normalise(label),
  );
  if (matches.length === 1 && matches[0]) return matches[0];
  const labels = inputs.map((e) => `"${e.label ?? "(no label)"}"`).join(", ");
  if (matches.length > 1) {
    throw new Error(`More than one input is labelled "${label}"; labels: ${labels}`);
  }
  throw new Error(`No input labelled "${label}"; labels: ${labels || "none"}`);
}

/** The options an element offers (option groups flattened). */
export function optionsOf(element: Json): Option[] {
  if (Array.isArray(element.options)) return element.options as Option[];
  if (Array.isArray(element.option_groups)) {
    return element.option_groups.flatMap((group) =>
      isObject(group) && Array.isArray(group.options) ? (group.options as Option[]) : [],
    );
  }
  return [];
}

function describeOptions(options: readonly Option[]): string {
  if (options.length === 0) return "none";
  return options.map((o) => `"${o.text.text}" (${o.value ?? ""})`).join(", ");
}

/** Picks an option by its value (exact) or by what it says (case-insensitive). */
export function pickOption(options: readonly Option[], wanted: string, what: string): Option {
  const byValue = options.find((o) => o.value === wanted);
  if (byValue) return byValue;
  const byText = options.filter((o) => normalise(o.text.text) === normalise(wanted));
  if (byText.length >= 1 && byText[0]) return byText[0];
  throw new Error(`${what}: no option "${wanted}"; options: ${describeOptions(options)}`);
}

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

const SINGLE_SELECT_KEYS: Record<string, keyof ViewStateValue> = {
  users_select: "selected_user",
  conversations_select: "selected_conversation",
  channels_select: "selected_channel",
};
const MULTI_SELECT_KEYS: Record<string, keyof ViewStateValue> = {
  multi_users_select: "selected_users",
  multi_conversations_select: "selected_conversations",
  multi_channels_select: "selected_channels",
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
      const single = SINGLE_SELECT_KEYS[type];
      if (single) return { type, [single]: asText(input, what) };
      const multi = MULTI_SELECT_KEYS[type];
      if (multi) return { type, [multi]: asList(input, what) };
      throw new Error(`${what}: the stand-in cannot fill a ${type} element`);
    }
  }
}

/** What Slack submits for an element the person did not touch: its initial value, or empty. */
export function untouchedStateValue(element: Json & { type: string }): ViewStateValue {
  const type = element.type;
  switch (type) {
    case "plain_text_input":
    case "email_text_input":
    case "url_text_input":
    case "number_input":
      return {
        type,
        value: typeof element.initial_value === "string" ? element.initial_value : null,
      };
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
    case "datepicker":
      return {
        type,
        selected_date: typeof element.initial_date === "string" ? element.initial_date : null,
      };
    case "timepicker":
      return {
        type,
        selected_time: typeof element.initial_time === "string" ? element.initial_time : null,
      };
    case "users_select":
      return {
        type,
        selected_user: typeof element.initial_user === "string" ? element.initial_user : null,
      };
    case "conversations_select":
      return {
        type,
        selected_conversation:
          typeof element.initial_conversation === "string" ? element.initial_conversation : null,
      };
    case "channels_select":
      return {
        type,
        selected_channel:
          typeof element.initial_channel === "string" ? element.initial_channel : null,
      };
    case "multi_users_select":
      return {
        type,
        selected_users: Array.isArray(element.initial_users)
          ? (element.initial_users as string[])
          : [],
      };
    case "multi_conversations_select":
      return {
        type,
        selected_conversations: Array.isArray(element.initial_conversations)
          ? (element.initial_conversations as string[])
          : [],
      };
    case "multi_channels_select":
      return {
        type,
        selected_channels: Array.isArray(element.initial_channels)
          ? (element.initial_channels as string[])
          : [],
      };
    default:
      return { type };
  }
}

const STATEFUL_TYPES = new Set([
  "plain_text_input",
  "email_text_input",
  "url_text_input",
  "number_input",
  "static_select",
  "external_select",
  "radio_buttons",
  "multi_static_select",
  "multi_external_select",
  "checkboxes",
  "datepicker",
  "timepicker",
  "users_select",
  "conversations_select",
  "channels_select",
  "multi_users_select",
  "multi_conversations_select",
  "multi_channels_select",
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

const TYPED_TYPES = new Set([
  "plain_text_input",
  "email_text_input",
  "url_text_input",
  "number_input",
]);

/** What pressing Enter in a typed input does in Slack. */
export type EnterKeyEffect = "dispatch" | "submit" | "newline";

/**
 * Enter in a text or number input, as Slack's client handles it: a multiline input takes it as a
 * new line; an input whose block has `dispatch_action` sends `block_actions` (when the element's
 * `dispatch_action_config` is given, only if it lists `on_enter_pressed`); any other input
 * submits the whole modal, as the submit button does.
 */
export function enterKeyEffect(located: LocatedElement): EnterKeyEffect {
  const { element } = located;
  if (located.blockType !== "input" || !TYPED_TYPES.has(element.type)) {
    throw new Error(
      `"${located.label ?? located.actionId}" is a ${element.type}: Enter only acts in a text or number input`,
    );
  }
  if (element.type === "plain_text_input" && element.multiline === true) return "newline";
  if (!located.dispatchAction) return "submit";
  const config = element.dispatch_action_config;
  const triggers =
    isObject(config) && Array.isArray(config.trigger_actions_on)
      ? config.trigger_actions_on
      : ["on_enter_pressed"];
  return triggers.includes("on_enter_pressed") ? "dispatch" : "submit";
}

/** How a fill reaches the open view and the app behind it. */
export interface ModalSession {
  /** The view as it is now, with `state.values` as entered so far. */
  view(): ViewOutput;
  /** Records what the person entered. */
  enter(blockId: string, actionId: string, value: ViewStateValue): void;
  /** Types `query` into an external select and returns the options the app offers. */
  suggest(blockId: string, actionId: string, query: string): Promise<Option[]>;
  /** Sends the `block_actions` Slack sends when a dispatch_action input changes. */
  dispatch(located: LocatedElement, value: ViewStateValue): Promise<void>;
  /**
   * Resolves true once the view's hash differs from `hash` (the app updated it), false after
   * `timeoutMs`. Without it a fill never waits.
   */
  viewChanged?(hash: string, timeoutMs: number): Promise<boolean>;
}

export type ModalInputs = Record<string, FieldInput> | ReadonlyArray<readonly [string, FieldInput]>;

export interface FillOptions {
  /**
   * How long a step that cannot be done yet (no such label, no such option) waits for the app to
   * update the view. Apps ack first and update after (a dispatch_action that loads the next
   * input's options, a "loading…" modal replaced by the real one), so the view a person sees
   * changes under them.
   */
  waitForUpdateMs?: number;
}

function queryFor(input: FieldInput): string {
  if (isObject(input) && !Array.isArray(input)) return input.query;
  return Array.isArray(input) ? String(input[0] ?? "") : String(input);
}

async function fillOne(session: ModalSession, label: string, input: FieldInput): Promise<void> {
  const located = findInputByLabel(session.view().blocks, label);
  let suggestions: Option[] | undefined;
  if (
    located.element.type === "external_select" ||
    located.element.type === "multi_external_select"
  ) {
    const queries = Array.isArray(input) ? input.map(String) : [queryFor(input)];
    suggestions = [];
    for (const query of queries) {
      suggestions.push(...(await session.suggest(located.blockId, located.actionId, query)));
    }
  }
  const value = stateValueFor(located, input, suggestions);
  session.enter(located.blockId, located.actionId, value);
  if (located.dispatchAction) await session.dispatch(located, value);
}

/**
 * Enters each value in order, looking the label up in the view as it is at that moment, and
 * returns the state the view would submit.
 */
export async function fillModal(
  session: ModalSession,
  inputs: ModalInputs,
  options: FillOptions = {},
): Promise<ViewStateValues> {
  const entries = Array.isArray(inputs)
    ? (inputs as ReadonlyArray<readonly [string, FieldInput]>)
    : Object.entries(inputs as Record<string, FieldInput>);
  const waitMs = options.waitForUpdateMs ?? 3_000;
  for (const [label, input] of entries) {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const hash = session.view().hash;
      try {
        await fillOne(session, label, input);
        break;
      } catch (error) {
        const left = deadline - Date.now();
        if (!session.viewChanged || left <= 0 || !(await session.viewChanged(hash, left)))
          throw error;
      }
    }
  }
  return session.view().state.values;
}

/**
 * A session over a view held in memory, without a stand-in: for filling a view built by a view
 * function in a unit test. Suggestions and dispatches go to the given handlers (none by default:
 * an external select then has nothing to pick from).
 */
export function createLocalModalSession(
  view: ViewOutput,
  handlers: Partial<Pick<ModalSession, "suggest" | "dispatch">> = {},
): ModalSession {
  const current = structuredClone(view);
  const entered: ViewStateValues = {};
  current.state = { values: viewStateValues(current.blocks, entered) };
  return {
    view: () => current,
    enter(blockId, actionId, value) {
      entered[blockId] = { ...entered[blockId], [actionId]: value };
      current.state = { values: viewStateValues(current.blocks, entered) };
    },
    suggest: handlers.suggest ?? (async () => []),
    dispatch: handlers.dispatch ?? (async () => {}),
  };
}
