// `/connect order <id>`: a port order's status looked up by id, and the hand-over point for
// tracking it from the order message's Track button. Named for the look-up, apart from the port
// order form (src/usecases/portOrder/) and src/orders.
import type { PortOrderRead, ProviderApi } from "../provider/api.js";
import type { IdentityLookup } from "../provider/identity.js";
import { isNotFound } from "./ports.js";

export type OrderDeps = { provider: ProviderApi; identity: IdentityLookup };

export type PortOrderLookup =
  | { found: true; order: PortOrderRead }
  | { found: false; orderId: string };

/** GET the port order; the provider's 404 is an answer ("no such order"), not a failure. */
export async function lookUpPortOrder(deps: OrderDeps, orderId: string): Promise<PortOrderLookup> {
  const { companyUsername } = await deps.identity();
  try {
    return { found: true, order: await deps.provider.getPortOrder(companyUsername, orderId) };
  } catch (error) {
    if (isNotFound(error)) return { found: false, orderId };
    throw error;
  }
}

/** Who clicked Track, on which order, where. */
export interface TrackOrderRequest {
  orderId: string;
  /** The Slack user who asked. */
  userId: string;
  /** The channel the order message was shown in. */
  channelId: string;
}

/**
 * What the background jobs plug in to start tracking an order (src/jobs tracker). It answers
 * with the sentence to show the person ("Tracking order … in this thread").
 */
export interface OrderTracking {
  track(request: TrackOrderRequest): Promise<{ text: string }>;
}

export type TrackOrderOutcome =
  | { started: true; text: string }
  | { started: false; reason: "no-tracker" };

/**
 * Starts tracking when a tracker is there. Without one it says so: a Track button that
 * pretended to track would leave people waiting for updates that never come.
 */
export async function requestOrderTracking(
  tracking: OrderTracking | undefined,
  request: TrackOrderRequest,
): Promise<TrackOrderOutcome> {
  if (!tracking) return { started: false, reason: "no-tracker" };
  const { text } = await tracking.track(request);
  return { started: true, text };
}
