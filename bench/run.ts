// `npm run bench`: every benchmark in its own process (one's memory and timers cannot colour
// the next), then docs/BENCHMARKS.md from their JSON. `npm run bench -- ack notify` runs some.
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BENCH_RESULTS_DIR, loadAverage, machine, ROOT, round } from "./common.js";
import { writeReport } from "./report.js";

const ALL = ["footprint", "ack", "tracking", "notify", "guard"] as const;

function runOne(name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "bench", `${name}.ts`)], {
      stdio: "inherit",
      env: process.env,
    });
    child.once("error", reject);
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

const picked = process.argv.slice(2).filter((a) => (ALL as readonly string[]).includes(a));
const names = picked.length > 0 ? picked : [...ALL];
const started = new Date();
const failed: string[] = [];
for (const name of names) {
  process.stdout.write(`\n=== bench: ${name} (load average ${loadAverage().join(" ")}) ===\n`);
  const t = performance.now();
  const code = await runOne(name);
  process.stdout.write(
    `=== ${name}: ${code === 0 ? "ok" : `failed (${code})`} in ${round((performance.now() - t) / 1000, 1)} s ===\n`,
  );
  if (code !== 0) failed.push(name);
}
await mkdir(BENCH_RESULTS_DIR, { recursive: true });
await writeFile(
  join(BENCH_RESULTS_DIR, "run.json"),
  `${JSON.stringify(
    {
      command: `npm run bench${picked.length > 0 ? ` -- ${picked.join(" ")}` : ""}`,
      startedAt: started.toISOString(),
      totalSeconds: round((Date.now() - started.getTime()) / 1000, 1),
      benchmarks: names,
      failed,
      machine: machine(),
      loadAverageAtEnd: loadAverage(),
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("BENCH_"))),
    },
    null,
    2,
  )}\n`,
);
const path = await writeReport();
process.stdout.write(`\nWrote ${path}\n`);
if (failed.length > 0) {
  process.stderr.write(`Failed: ${failed.join(", ")}\n`);
  process.exitCode = 1;
}
