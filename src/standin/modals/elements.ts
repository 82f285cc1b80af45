import type { Json } from "../json.js";
import { isObject } from "../json.js";
import type { Option, SlackBlock } from "../types.js";

/**
 * Finding the interactive elements of a set of blocks the way a person finds them on screen: by
 * the input's label, or by action_id/block_id as an app names them, and an element's options by
 * what they say. Shared by the modal filler (modal.ts), the driver's clicks and the playground's
 * API, so all three locate an element and pick an option the same way.
 */

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

/** An external select (single or multi): what it offers comes from the app (`block_suggestion`). */
export function isExternalSelect(located: LocatedElement): boolean {
  return (
    located.element.type === "external_select" || located.element.type === "multi_external_select"
  );
}
