import type { ViewOutput } from "@slack/bolt";
import { truncate } from "../../../views/blocks.js";

const ERROR_TEXT_MAX = 300;

/**
 * Field errors as Slack's `response_action: errors` wants them: keyed by input block_id. Slack
 * refuses errors for blocks the view does not have (the Speed input is absent until a data
 * center is picked), so those go to `fallback`'s block instead of being lost.
 */
export function blockErrors<F extends string>(
  errors: Partial<Record<F, string>>,
  blockIds: Readonly<Record<F, string>>,
  view: Pick<ViewOutput, "blocks">,
  fallback: F,
): Record<string, string> {
  const inputs = new Set(
    (view.blocks as unknown as Array<{ type?: unknown; block_id?: unknown }>)
      .filter((b) => b?.type === "input" && typeof b.block_id === "string")
      .map((b) => b.block_id as string),
  );
  const out: Record<string, string> = {};
  const entries = Object.entries(errors) as Array<[F, string | undefined]>;
  for (const [field, message] of entries) {
    if (message && inputs.has(blockIds[field]))
      out[blockIds[field]] = truncate(message, ERROR_TEXT_MAX);
  }
  // Only when the fallback field is fine: "Choose a speed" says nothing new next to "Choose a
  // data center" (the Speed input appears once one is picked).
  const target = blockIds[fallback];
  if (out[target] === undefined) {
    const moved = entries
      .filter(([field, message]) => message && !inputs.has(blockIds[field]))
      .map(([, message]) => message);
    if (moved.length > 0) out[target] = truncate(moved.join("; "), ERROR_TEXT_MAX);
  }
  return out;
}
