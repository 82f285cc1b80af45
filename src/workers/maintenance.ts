import type { Queue } from "bullmq";
import { errorText, type Jobs, type WorkerKind } from "../jobs/index.js";
import type { Logger } from "../log.js";

/**
 * The reconcilers: what re-creates what a crash lost (the notifier's drain jobs, the tracker's
 * jobs, stuck placements, approval messages never posted), run together (`runMaintenance`), on a
 * schedule shared by the replicas (a BullMQ job scheduler on the maintenance queue) and once at
 * start where workers run. Each is called down from here; nothing below calls back up.
 */

/** What a part's reconciler counted (e.g. placement's `{ requeued, stuck, retriedLookups }`). */
export type PartReport = Record<string, number>;

/** The notifier's repairs, and each part's reconciler's report, by its kind. */
export type MaintenanceReport = { drainJobsRecreated: number } & Partial<
  Record<WorkerKind, PartReport>
>;

/** A part's reconciler, under the kind its report is filed by. */
export type Reconciler = readonly [kind: WorkerKind, reconcile: () => Promise<PartReport>];

/** Runs the notifier's drain-job repair, then each reconciler in turn (in the order given). */
export function maintenance(
  jobs: Pick<Jobs, "notifier">,
  reconcilers: readonly Reconciler[],
): () => Promise<MaintenanceReport> {
  return async () => {
    const report: MaintenanceReport = { drainJobsRecreated: await jobs.notifier.reconcile() };
    for (const [kind, reconcile] of reconcilers) report[kind] = await reconcile();
    return report;
  };
}

/**
 * Schedules `runMaintenance` every `everyMs` (0: this process does not schedule it; the last
 * replica started sets the interval), the job the maintenance worker runs.
 */
export async function scheduleMaintenance(queue: Queue, everyMs: number): Promise<void> {
  if (everyMs <= 0) return;
  await queue.upsertJobScheduler(
    "reconcile",
    { every: everyMs },
    { name: "reconcile", opts: { removeOnComplete: true, removeOnFail: { count: 100 } } },
  );
}

/** Catches up at once on what a crash left behind (replicas doing this together is harmless). */
export function reconcileNow(
  runMaintenance: () => Promise<MaintenanceReport>,
  logger: Logger,
): void {
  runMaintenance().catch((error) =>
    logger.warn({ err: errorText(error) }, "workers: start-up reconcile failed"),
  );
}
