import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * What a reliability suite measured in its run, written to `.bench-results/reliability-<suite>.json`
 * so that `bench/reliability-report.ts` can turn the figures into docs/RELIABILITY.md: figures
 * come from a run, never typed by hand.
 */
export interface ReliabilityResult {
  suite: string;
  /** One line: what the suite checks. */
  checks: string;
  /** Counts measured in the run (refused requests, fuzz runs, recovered faults, …). */
  figures: Record<string, number>;
  /** Seeds and bounds, so a run can be repeated. */
  settings?: Record<string, number | string>;
  /** Whether the suite's checks held in this run, and if not, what they found (see verdictOf). */
  verdict?: Verdict;
}

export interface Verdict {
  held: boolean;
  /** The first line of each failed check's message. */
  broken: string[];
}

/** The part of a finished vitest test a verdict is read from. */
export interface FinishedTask {
  name: string;
  result?: { state?: string; errors?: ReadonlyArray<{ message?: string }> };
}

/**
 * The verdict of a suite's tests, collected with `onTestFinished(({ task }) => …)`: a run whose
 * checks failed is reported as such, with its figures (the evidence), instead of looking like a
 * passing one.
 */
export function verdictOf(tasks: readonly FinishedTask[]): Verdict {
  const broken = tasks
    .filter((task) => task.result?.state === "fail")
    .map((task) => {
      const message = task.result?.errors?.[0]?.message ?? "failed";
      return `${task.name}: ${message.split("\n")[0]}`;
    });
  return { held: tasks.length > 0 && broken.length === 0, broken };
}

export const RESULTS_DIR = join(process.cwd(), ".bench-results");

export function writeReliabilityResult(result: ReliabilityResult): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `reliability-${result.suite}.json`);
  writeFileSync(file, `${JSON.stringify({ ...result, at: new Date().toISOString() }, null, 2)}\n`);
}
