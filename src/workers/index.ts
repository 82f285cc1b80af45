import type { Worker } from "bullmq";
import type { DraftReminderCallbacks, Jobs, QuoteCallbacks, WorkerKind } from "../jobs/index.js";
import type { ApprovalMessages } from "../orders/approvalMessages.js";
import type { Placement } from "../orders/placement/index.js";
import type { Tracker } from "../orders/tracking/index.js";
import { DraftReminding } from "./draftReminders.js";
import {
  type MaintenanceReport,
  maintenance,
  type Reconciler,
  reconcileNow,
  scheduleMaintenance,
} from "./maintenance.js";
import { NotifierDrain, type NotifierDrainOptions } from "./notifier/drain.js";
import { QuotePoll } from "./quotes.js";
import { closeWorkers, startWorker, type WorkerTuning } from "./runner.js";

/**
 * The background work's front door (issue 29: "no hop upward"): a BullMQ worker is an adapter
 * like a Slack listener. It takes a job off src/jobs' queues and calls down into what does it —
 * the notifier's drain (here, with src/orders' renderer and App Home publisher), the lifecycle's
 * placement job and tracker (src/orders), the Edge quote polls and draft reminders (here, with
 * src/orders' callbacks) —
 * and runs the reconcilers (`runMaintenance`: on a schedule, at start). Nothing below calls
 * up into it: src/jobs enqueues, src/orders builds its parts on src/jobs' queues.
 */

export type { MaintenanceReport, PartReport } from "./maintenance.js";
export { RECOVERY_TUNING, type WorkerTuning } from "./runner.js";

/** What this process runs besides src/jobs' own producers (each optional: no worker without it). */
export interface WorkerParts {
  /** The notifier's drain: Slack's clients, the renderer, the App Home publisher. */
  notify?: Omit<NotifierDrainOptions, "notifier" | "part">;
  /** The lifecycle's tracker: reconciled; processed where it reads (`canProcess`). */
  tracker?: Pick<Tracker, "process" | "reconcile" | "canProcess">;
  /** The lifecycle's placement job: processed and reconciled where it can place (`canProcess`). */
  placement?: Pick<Placement, "processJob" | "reconcile" | "canProcess">;
  /** Requests whose approval message was never posted (and placed ones never tracked): maintenance. */
  approvalMessages?: Pick<ApprovalMessages, "reconcile">;
  /** Edge quote polling: read, then post the offers or why not (src/orders/edge/callbacks.ts). */
  quotes?: QuoteCallbacks<unknown>;
  /** Edge draft expiry reminders: is the draft still there, and the reminder's message. */
  draftReminders?: DraftReminderCallbacks;
}

export interface WorkerOptions {
  /** Jobs processed in parallel per worker kind (shorthand for workerTuning.*.concurrency). */
  concurrency?: Partial<Record<WorkerKind, number>>;
  workerTuning?: Partial<Record<WorkerKind, WorkerTuning>>;
  /**
   * How often the reconcilers run (a BullMQ job scheduler shared by the replicas; the last one
   * started sets the interval). 0 = this process does not schedule them. Default 5 minutes.
   */
  maintenanceEveryMs?: number;
  /** Run the reconcilers once right after start (catch up after a crash). Default true. */
  reconcileOnStart?: boolean;
}

/** Splits a caller's options (src/bot.ts's `jobs`) into the workers' and the rest. */
export function splitWorkerOptions<T extends WorkerOptions>(
  options: T,
): [WorkerOptions, Omit<T, keyof WorkerOptions>] {
  const { concurrency, workerTuning, maintenanceEveryMs, reconcileOnStart, ...rest } = options;
  return [{ concurrency, workerTuning, maintenanceEveryMs, reconcileOnStart }, rest];
}

export interface Workers {
  /** Runs every reconciler now (they also run on a schedule). */
  runMaintenance(): Promise<MaintenanceReport>;
  /**
   * Stops taking work and lets active jobs finish for most of `timeoutMs`, then drops the
   * workers (unfinished jobs are handed back when their locks expire); the queues and
   * connections are src/jobs' to close after. Always resolves within about `timeoutMs`.
   */
  close(timeoutMs?: number): Promise<{ clean: boolean }>;
}

/** The parts' reconcilers, each filed under its kind (the approval messages' as `maintenance`). */
function reconcilersOf(parts: WorkerParts): Reconciler[] {
  const { tracker, placement, approvalMessages } = parts;
  return [
    ...(tracker
      ? [["tracking", async () => ({ recreated: await tracker.reconcile() })] as const]
      : []),
    ...(placement?.canProcess ? [["placement", () => placement.reconcile()] as const] : []),
    ...(approvalMessages ? [["maintenance", () => approvalMessages.reconcile()] as const] : []),
  ];
}

/**
 * Every reconciler of `parts` run at once, without starting anything: where a process runs no
 * workers (`WORKERS=false`), a caller may still catch up by hand.
 */
export function maintenanceOf(
  jobs: Pick<Jobs, "notifier">,
  parts: WorkerParts,
): () => Promise<MaintenanceReport> {
  return maintenance(jobs, reconcilersOf(parts));
}

/**
 * Starts this process's workers on src/jobs' queues: the notifier's drain (with `notify`), the
 * quote polls and draft reminders (with their callbacks), the tracker and placement (where they
 * can process), and the maintenance worker with its schedule; then runs the reconcilers once
 * (`reconcileOnStart`). If it cannot start (Redis unreachable), it closes
 * what it started and throws.
 */
export async function startWorkers(
  jobs: Jobs,
  parts: WorkerParts,
  options: WorkerOptions = {},
): Promise<Workers> {
  const base = jobs.workerConnection();
  const settings = {
    ...base,
    workerTuning: options.workerTuning,
    concurrency: options.concurrency,
  };
  const workers: Worker[] = [];
  const run = (kind: WorkerKind, process: Parameters<typeof startWorker>[1]) => {
    workers.push(startWorker(kind, process, settings));
  };
  const runMaintenance = maintenanceOf(jobs, parts);

  if (parts.notify) {
    const drain = new NotifierDrain({
      ...parts.notify,
      notifier: jobs.notifier,
      part: jobs.partOptions("notify"),
    });
    run("notify", (job, token) => drain.process(job, token));
  }
  if (parts.quotes) {
    const poll = new QuotePoll(jobs.quotePoller, parts.quotes, base);
    run("quotes", (job, token) => poll.process(job, token));
  }
  if (parts.draftReminders) {
    const reminding = new DraftReminding(
      jobs.draftReminders,
      parts.draftReminders,
      jobs.notifier,
      base.logger,
    );
    run("drafts", (job, token) => reminding.process(job, token));
  }
  const { tracker, placement } = parts;
  if (tracker?.canProcess) run("tracking", (job, token) => tracker.process(job, token));
  if (placement?.canProcess) run("placement", (job) => placement.processJob(job));
  run("maintenance", () => runMaintenance());
  try {
    await scheduleMaintenance(jobs.queues.maintenance, options.maintenanceEveryMs ?? 5 * 60_000);
  } catch (error) {
    // E.g. Redis unreachable at start: leave no workers behind.
    await closeWorkers(workers, 2_000, base.logger);
    throw error;
  }
  if (options.reconcileOnStart !== false) reconcileNow(runMaintenance, base.logger);

  let closing: Promise<{ clean: boolean }> | undefined;
  return {
    runMaintenance,
    close(timeoutMs = 10_000) {
      closing ??= closeWorkers(workers, timeoutMs, base.logger);
      return closing;
    },
  };
}
