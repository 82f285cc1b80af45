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
}

export const RESULTS_DIR = join(process.cwd(), ".bench-results");

export function writeReliabilityResult(result: ReliabilityResult): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `reliability-${result.suite}.json`);
  writeFileSync(file, `${JSON.stringify({ ...result, at: new Date().toISOString() }, null, 2)}\n`);
}
