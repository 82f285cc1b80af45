/**
 * Reading a submitted modal's `view.state.values`. Whatever arrives is read defensively: a
 * forged payload looks no different from a real one, so every reader returns `unknown` for the
 * form's own checks to accept or refuse.
 */

function entry(values: unknown, blockId: string, actionId: string): Record<string, unknown> {
  if (typeof values !== "object" || values === null) return {};
  const block = (values as Record<string, unknown>)[blockId];
  if (typeof block !== "object" || block === null) return {};
  const state = (block as Record<string, unknown>)[actionId];
  return typeof state === "object" && state !== null ? (state as Record<string, unknown>) : {};
}

/** The value of a select's or radio's chosen option (or whatever stands in its place). */
export function selectedValue(values: unknown, blockId: string, actionId: string): unknown {
  const selected = entry(values, blockId, actionId).selected_option;
  return typeof selected === "object" && selected !== null
    ? (selected as Record<string, unknown>).value
    : selected;
}

/** What was typed into a text or number input. */
export function typedValue(values: unknown, blockId: string, actionId: string): unknown {
  return entry(values, blockId, actionId).value;
}

/**
 * A single checkbox: false when nothing is ticked, true when only `value` is; anything else
 * (a forged value) is passed on to be refused.
 */
export function checkboxTicked(
  values: unknown,
  blockId: string,
  actionId: string,
  value: string,
): unknown {
  const selected = entry(values, blockId, actionId).selected_options;
  if (selected === undefined || selected === null) return false;
  if (!Array.isArray(selected)) return selected;
  const ticked = selected.map((o) =>
    typeof o === "object" && o !== null ? (o as Record<string, unknown>).value : o,
  );
  if (ticked.length === 0) return false;
  return ticked.every((v) => v === value) ? true : ticked;
}
