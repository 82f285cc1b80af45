import { actions, button, LIMITS } from "./blocks.js";
import type { Reply } from "./reply.js";

/**
 * "Order this" under a price: the order form opens with what was priced already chosen. The
 * button carries the choices (ids and numbers only, never text a person typed); the listener
 * reads them back with parsePortOrderThis and checks them again like any form value.
 */

export const ACTION_ORDER_THIS_PORT = "price_order_port";

/** What a port price was for, as the port order form's fields take it. */
export interface PortOrderThis {
  /** The data center reference the form's select uses (`id|username`). */
  dcf: string;
  speedMbps: number;
  /** The term as the form's Term option values spell it ("1y", "1m"). */
  term: string;
}

export function encodePortOrderThis(pick: PortOrderThis): string {
  return JSON.stringify({ d: pick.dcf, s: pick.speedMbps, t: pick.term });
}

/** Reads what encodePortOrderThis wrote; anything else (a forged value) reads as undefined. */
export function parsePortOrderThis(value: unknown): PortOrderThis | undefined {
  if (typeof value !== "string" || value.length > LIMITS.actionValue) return undefined;
  try {
    const { d, s, t } = JSON.parse(value) as { d?: unknown; s?: unknown; t?: unknown };
    return typeof d === "string" &&
      typeof s === "number" &&
      Number.isSafeInteger(s) &&
      s > 0 &&
      typeof t === "string"
      ? { dcf: d, speedMbps: s, term: t }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Adds the Order this button under a price answer. */
export function withOrderThisButton(reply: Reply, actionId: string, value: string): Reply {
  return {
    ...reply,
    blocks: [
      ...reply.blocks,
      actions("price_order_this", [button("Order this", actionId, value, "primary")]),
    ],
  };
}
