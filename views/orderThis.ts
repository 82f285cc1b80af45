import { actions, button, LIMITS } from "./blocks.js";
import type { Reply } from "./reply.js";

/**
 * "Order this" under a price: the order form opens with what was priced already chosen. The
 * button carries the choices (ids and numbers only, never text a person typed); the listener
 * reads them back with parsePortOrderThis and checks them again like any form value.
 */

export const ACTION_ORDER_THIS_PORT = "price_order_port";
export const ACTION_ORDER_THIS_L2 = "price_order_l2";

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
export function withOrderThisButton(
  reply: Reply,
  actionId: string,
  value: string,
  /** A second button after Order this (the layer 2 price's Share in channel). */
  also?: ReturnType<typeof button>,
): Reply {
  return {
    ...reply,
    blocks: [
      ...reply.blocks,
      actions("price_order_this", [
        button("Order this", actionId, value, "primary"),
        ...(also ? [also] : []),
      ]),
    ],
  };
}

/** *Share in channel* under a layer 2 price: its value is the price's Order this value. */
export const ACTION_SHARE_L2_PRICE = "price_l2_share";

export function shareLayer2PriceButton(value: string) {
  return button("Share in channel", ACTION_SHARE_L2_PRICE, value);
}

/** What a layer 2 price was for, as the layer 2 order form's fields take it. */
export interface Layer2OrderThis {
  srcDcfId: string;
  destDcfId: string;
  bandwidthMbps: number;
  classOfService: string;
  duration: { value: number; unit: string };
}

export function encodeLayer2OrderThis(pick: Layer2OrderThis): string {
  return JSON.stringify({
    a: pick.srcDcfId,
    b: pick.destDcfId,
    w: pick.bandwidthMbps,
    c: pick.classOfService,
    d: pick.duration.value,
    u: pick.duration.unit,
  });
}

const positive = (x: unknown): x is number =>
  typeof x === "number" && Number.isSafeInteger(x) && x > 0;

/** Reads what encodeLayer2OrderThis wrote; anything else reads as undefined. */
export function parseLayer2OrderThis(value: unknown): Layer2OrderThis | undefined {
  if (typeof value !== "string" || value.length > LIMITS.actionValue) return undefined;
  try {
    const { a, b, w, c, d, u } = JSON.parse(value) as Record<string, unknown>;
    return typeof a === "string" &&
      typeof b === "string" &&
      positive(w) &&
      typeof c === "string" &&
      positive(d) &&
      typeof u === "string"
      ? {
          srcDcfId: a,
          destDcfId: b,
          bandwidthMbps: w,
          classOfService: c,
          duration: { value: d, unit: u },
        }
      : undefined;
  } catch {
    return undefined;
  }
}
