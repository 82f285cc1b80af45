import { isObject } from "../json.js";
import type { Option, ViewOutput, ViewStateValue, ViewStateValues } from "../types.js";
import { findInputByLabel, isExternalSelect, type LocatedElement } from "./elements.js";
import { type FieldInput, stateValueFor, TYPED_INPUT_TYPES, viewStateValues } from "./viewState.js";

/**
 * Filling a modal the way a person does: find each input by the label they read, enter a value
 * according to what the element is (type text, pick an option by what it says, type into an
 * external select and pick from what the app suggests, tick boxes, pick a date), and produce the
 * `view.state.values` Slack sends on submission. Refuses what Slack's client would not let a
 * person do (an option that is not offered, a number out of range, submitting with a required
 * input empty), so a test cannot pass with input no person could give. This file is the filling
 * and the Enter key; finding elements is elements.ts, each element's state rules viewState.ts.
 */

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
  if (located.blockType !== "input" || !TYPED_INPUT_TYPES.has(element.type)) {
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
  if (isExternalSelect(located)) {
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
