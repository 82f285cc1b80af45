import { generatedElementId } from "../ids.js";
import type { SlackBlock } from "../types.js";

/**
 * Block Kit checks the stand-in makes before accepting blocks or a view, with Slack's limits.
 * Slack refuses such payloads (`invalid_blocks`, `invalid_arguments`); a fake that accepts them
 * would let a view that breaks in a real workspace pass every test. Not every rule Slack has:
 * the ones our views can plausibly break (lengths, counts, ids, text types).
 */

export type Surface = "message" | "modal" | "home";

export const MAX_BLOCKS: Record<Surface, number> = { message: 50, modal: 100, home: 100 };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function textOf(value: unknown): string | undefined {
  return isObject(value) && typeof value.text === "string" ? value.text : undefined;
}

class Problems {
  readonly list: string[] = [];
  add(pointer: string, message: string): void {
    this.list.push(`[ERROR] ${message} [json-pointer:${pointer}]`);
  }
}

function checkText(
  problems: Problems,
  pointer: string,
  value: unknown,
  options: { max: number; plainOnly?: boolean; required?: boolean },
): void {
  if (value === undefined) {
    if (options.required) problems.add(pointer, "must provide an object");
    return;
  }
  if (!isObject(value) || (value.type !== "plain_text" && value.type !== "mrkdwn")) {
    problems.add(pointer, "must be a text object (plain_text or mrkdwn)");
    return;
  }
  if (options.plainOnly && value.type !== "plain_text") {
    problems.add(`${pointer}/type`, "must be plain_text");
  }
  const text = textOf(value);
  if (text === undefined || text.length === 0) {
    problems.add(`${pointer}/text`, "must be more than 0 characters");
  } else if (text.length > options.max) {
    problems.add(`${pointer}/text`, `must be less than ${options.max + 1} characters`);
  }
}

function checkOptions(problems: Problems, pointer: string, options: unknown): void {
  if (!Array.isArray(options)) {
    problems.add(pointer, "must be an array");
    return;
  }
  if (options.length > 100) problems.add(pointer, "must provide no more than 100 items");
  options.forEach((option, i) => {
    checkText(problems, `${pointer}/${i}/text`, isObject(option) ? option.text : undefined, {
      max: 75,
      required: true,
    });
    const value = isObject(option) ? option.value : undefined;
    if (typeof value !== "string" || value.length === 0) {
      problems.add(`${pointer}/${i}/value`, "must be a non-empty string");
    } else if (value.length > 150) {
      problems.add(`${pointer}/${i}/value`, "must be less than 151 characters");
    }
  });
}

const SELECTS_WITH_OPTIONS = new Set([
  "static_select",
  "multi_static_select",
  "radio_buttons",
  "checkboxes",
  "overflow",
]);

function checkElement(problems: Problems, pointer: string, element: unknown): void {
  if (!isObject(element) || typeof element.type !== "string") {
    problems.add(pointer, "must be an element object with a type");
    return;
  }
  if (typeof element.action_id === "string" && element.action_id.length > 255) {
    problems.add(`${pointer}/action_id`, "must be less than 256 characters");
  }
  if (element.type === "button") {
    checkText(problems, `${pointer}/text`, element.text, {
      max: 75,
      plainOnly: true,
      required: true,
    });
    if (typeof element.value === "string" && element.value.length > 2000) {
      problems.add(`${pointer}/value`, "must be less than 2001 characters");
    }
    if (element.style !== undefined && element.style !== "primary" && element.style !== "danger") {
      problems.add(`${pointer}/style`, "must be primary or danger");
    }
  }
  if (SELECTS_WITH_OPTIONS.has(element.type)) {
    if (element.option_groups !== undefined && element.type.endsWith("static_select")) {
      if (!Array.isArray(element.option_groups)) {
        problems.add(`${pointer}/option_groups`, "must be an array");
      } else {
        element.option_groups.forEach((group, i) => {
          checkOptions(
            problems,
            `${pointer}/option_groups/${i}/options`,
            isObject(group) ? group.options : undefined,
          );
        });
      }
    } else {
      checkOptions(problems, `${pointer}/options`, element.options);
    }
  }
  if (element.placeholder !== undefined) {
    checkText(problems, `${pointer}/placeholder`, element.placeholder, {
      max: 150,
      plainOnly: true,
    });
  }
}

function checkBlock(problems: Problems, pointer: string, block: unknown, surface: Surface): void {
  if (!isObject(block) || typeof block.type !== "string") {
    problems.add(pointer, "must be a block object with a type");
    return;
  }
  if (block.block_id !== undefined) {
    if (typeof block.block_id !== "string" || block.block_id.length === 0) {
      problems.add(`${pointer}/block_id`, "must be a non-empty string");
    } else if (block.block_id.length > 255) {
      problems.add(`${pointer}/block_id`, "must be less than 256 characters");
    }
  }
  switch (block.type) {
    case "section": {
      if (block.text === undefined && block.fields === undefined) {
        problems.add(pointer, "must provide text or fields");
      }
      checkText(problems, `${pointer}/text`, block.text, { max: 3000 });
      if (block.fields !== undefined) {
        if (!Array.isArray(block.fields) || block.fields.length > 10) {
          problems.add(`${pointer}/fields`, "must be an array of no more than 10 items");
        } else {
          block.fields.forEach((field, i) => {
            checkText(problems, `${pointer}/fields/${i}`, field, { max: 2000, required: true });
          });
        }
      }
      if (block.accessory !== undefined)
        checkElement(problems, `${pointer}/accessory`, block.accessory);
      break;
    }
    case "header":
      checkText(problems, `${pointer}/text`, block.text, {
        max: 150,
        plainOnly: true,
        required: true,
      });
      break;
    case "actions":
      if (!Array.isArray(block.elements) || block.elements.length === 0) {
        problems.add(`${pointer}/elements`, "must provide at least one element");
      } else {
        if (block.elements.length > 25) {
          problems.add(`${pointer}/elements`, "must provide no more than 25 items");
        }
        block.elements.forEach((element, i) => {
          checkElement(problems, `${pointer}/elements/${i}`, element);
        });
      }
      break;
    case "context":
      if (!Array.isArray(block.elements) || block.elements.length === 0) {
        problems.add(`${pointer}/elements`, "must provide at least one element");
      } else if (block.elements.length > 10) {
        problems.add(`${pointer}/elements`, "must provide no more than 10 items");
      }
      break;
    case "input":
      if (surface === "message") problems.add(pointer, "input blocks are not allowed in messages");
      checkText(problems, `${pointer}/label`, block.label, {
        max: 2000,
        plainOnly: true,
        required: true,
      });
      if (block.hint !== undefined) {
        checkText(problems, `${pointer}/hint`, block.hint, { max: 2000, plainOnly: true });
      }
      if (block.element === undefined) problems.add(`${pointer}/element`, "must provide an object");
      else checkElement(problems, `${pointer}/element`, block.element);
      break;
    default:
      break;
  }
}

/** Problems Slack would report for these blocks (empty when they are acceptable). */
export function blockProblems(blocks: unknown, surface: Surface, pointer = "/blocks"): string[] {
  const problems = new Problems();
  if (!Array.isArray(blocks)) {
    problems.add(pointer, "must be an array");
    return problems.list;
  }
  if (blocks.length > MAX_BLOCKS[surface]) {
    problems.add(pointer, `must provide no more than ${MAX_BLOCKS[surface]} items`);
  }
  const seen = new Set<string>();
  blocks.forEach((block, i) => {
    checkBlock(problems, `${pointer}/${i}`, block, surface);
    if (isObject(block) && typeof block.block_id === "string") {
      if (seen.has(block.block_id)) {
        problems.add(`${pointer}/${i}/block_id`, `duplicate block_id "${block.block_id}"`);
      }
      seen.add(block.block_id);
    }
  });
  return problems.list;
}

/** Problems Slack would report for a view given to views.open/push/update/publish. */
export function viewProblems(view: unknown, expected: "modal" | "home" | "any"): string[] {
  const problems = new Problems();
  if (!isObject(view)) {
    problems.add("/view", "must provide an object");
    return problems.list;
  }
  if (view.type !== "modal" && view.type !== "home") {
    problems.add("/view/type", "must be modal or home");
    return problems.list;
  }
  if (expected !== "any" && view.type !== expected) {
    problems.add("/view/type", `must be ${expected}`);
  }
  if (view.type === "modal") {
    checkText(problems, "/view/title", view.title, { max: 24, plainOnly: true, required: true });
    checkText(problems, "/view/submit", view.submit, { max: 24, plainOnly: true });
    checkText(problems, "/view/close", view.close, { max: 24, plainOnly: true });
    const hasInput =
      Array.isArray(view.blocks) && view.blocks.some((b) => isObject(b) && b.type === "input");
    if (hasInput && view.submit === undefined) {
      problems.add("/view/submit", "must provide submit when the view has input blocks");
    }
  }
  for (const [key, max] of [
    ["private_metadata", 3000],
    ["callback_id", 255],
    ["external_id", 255],
  ] as const) {
    const value = view[key];
    if (value === undefined) continue;
    if (typeof value !== "string") problems.add(`/view/${key}`, "must be a string");
    else if (value.length > max)
      problems.add(`/view/${key}`, `must be less than ${max + 1} characters`);
  }
  problems.list.push(...blockProblems(view.blocks, view.type, "/view/blocks"));
  return problems.list;
}

function withActionId(element: unknown): void {
  if (isObject(element) && typeof element.type === "string" && element.action_id === undefined) {
    element.action_id = generatedElementId();
  }
}

/**
 * A copy of the blocks with the ids Slack fills in when the app gives none: a random block_id
 * on every block and a random action_id on every interactive element, as seen in what Slack
 * returns and later sends back in interaction payloads.
 */
export function withSlackIds(blocks: readonly unknown[]): SlackBlock[] {
  const copy = structuredClone(blocks) as unknown[];
  for (const block of copy) {
    if (!isObject(block)) continue;
    if (block.block_id === undefined) block.block_id = generatedElementId();
    if (block.type === "section") withActionId(block.accessory);
    if (block.type === "input") withActionId(block.element);
    if (block.type === "actions" && Array.isArray(block.elements)) {
      for (const element of block.elements) withActionId(element);
    }
  }
  return copy as SlackBlock[];
}
