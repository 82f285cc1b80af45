import type { Jobs } from "../../jobs/index.js";
import type { PlacementCallbacks, StoreForPlacement } from "./contract.js";
import { Placement, type PlacementOptions } from "./placement.js";

/**
 * Placing approved orders, one step of the order lifecycle: the placement job is built on
 * src/jobs' placement queue with the lifecycle's own steps (place, look up, tell the outcome:
 * `OrderLifecycle`), and run by src/workers (its worker and reconciler), which calls down into
 * it: nothing is injected into src/jobs. The modules: placement.ts (the job and who may carry a
 * claim on), send.ts, outcomes.ts, journal.ts, contract.ts (what the job asks of the lifecycle
 * and answers).
 */

export * from "./contract.js";
export * from "./journal.js";
export * from "./placement.js";

/** What the placement is built with besides the jobs' queue, connection and notifier. */
export type PlacementSetup = Omit<
  PlacementOptions,
  "redis" | "queue" | "prefix" | "logger" | "metrics" | "notifier" | "store" | "callbacks"
> & {
  /** Where placements are processed and reconciled: the store and the lifecycle's steps. */
  store?: StoreForPlacement;
  callbacks?: PlacementCallbacks;
};

/** The settings tests and operations tune (src/bot.ts's `jobs.placementSettings`). */
export type PlacementSettings = Pick<
  PlacementSetup,
  "stuckAfterMs" | "workerId" | "answerWriteTimeoutMs" | "tellLeaseMs" | "now"
>;

/**
 * Builds the placement on the jobs' placement queue; it does not run it. src/workers runs its
 * worker and reconciler where this process runs workers and it can place (`canProcess`: a store
 * and the steps given); anywhere, it queues (`enqueue`).
 */
export function buildPlacement(
  jobs: Pick<Jobs, "partOptions" | "notifier">,
  options: PlacementSetup,
): Placement {
  return new Placement({
    ...jobs.partOptions("placement"),
    notifier: jobs.notifier,
    ...options,
  });
}
