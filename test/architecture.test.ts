import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { cruise, type ICruiseResult, type IReporterOutput } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { afterAll, describe, expect, it } from "vitest";

// The import rules of docs/ARCHITECTURE.md are .dependency-cruiser.cjs, run by `npm run lint`
// (lint:deps). These tests prove the rules bite (a wrong arrow fails with the rule's own words)
// and that the tree as it stands keeps them.

const CONFIG = resolve(".dependency-cruiser.cjs");

async function cruiseWithRules(
  files: string[],
  outputType?: "err-long",
  baseDir?: string,
): Promise<IReporterOutput> {
  const options = await extractDepcruiseOptions(CONFIG);
  const tsConfig = extractTSConfig(resolve("tsconfig.json"));
  return cruise(
    files,
    { ...options, ...(outputType ? { outputType } : {}), ...(baseDir ? { baseDir } : {}) },
    {},
    { tsConfig },
  );
}

function violationsOf(output: IReporterOutput): ICruiseResult["summary"]["violations"] {
  if (typeof output.output === "string") throw new Error("expected a cruise result object");
  return output.output.summary.violations;
}

// Probes are planted in a tree of their own under the system's temporary folder, never in src/:
// the rules match paths relative to the tree cruised (`baseDir`), so a probe in the temporary
// tree's views folder importing a stand-in of the Slack logger there is judged exactly as the
// same import in the repository would be, while the real tree is never touched.
const PROBE = "architectureProbe";
const probeDirs: string[] = [];
afterAll(async () => {
  await Promise.all(probeDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Cruises `probe` (the first file) in a temporary tree holding `files` (path → source). */
async function cruiseProbe(files: Record<string, string>): Promise<IReporterOutput> {
  const dir = await mkdtemp(join(tmpdir(), "architecture-probe-"));
  probeDirs.push(dir);
  for (const [path, source] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), source);
  }
  const probe = Object.keys(files)[0];
  if (!probe) throw new Error("no probe file");
  return cruiseWithRules([probe], "err-long", dir);
}

describe("the import rules (.dependency-cruiser.cjs)", () => {
  it("fail a view that imports src/slack, with the rule's message", async () => {
    const result = await cruiseProbe({
      [`views/${PROBE}.ts`]:
        'import { boltLogger } from "../src/slack/logger.js";\n\nexport const probe = boltLogger;\n',
      "src/slack/logger.ts": "export const boltLogger = {};\n",
    });
    expect(result.exitCode).toBeGreaterThan(0);
    expect(result.output).toContain("views-never-know-slack");
    expect(result.output).toContain("views/ may not import src/slack (the Bolt adapter)");
    expect(result.output).toContain("src/slack/logger.ts");
  }, 60_000);

  it("fail a shared view that imports a feature's own view", async () => {
    const result = await cruiseProbe({
      [`views/${PROBE}.ts`]: `import { featureView } from "./${PROBE}Feature/view.js";\n\nexport const probe = featureView;\n`,
      [`views/${PROBE}Feature/view.ts`]: "export const featureView = {};\n",
    });
    expect(result.exitCode).toBeGreaterThan(0);
    expect(result.output).toContain("shared-views-never-import-a-feature's-views");
    expect(result.output).toContain("it may not import a feature's own views");
    const featureToShared = await cruiseProbe({
      [`views/${PROBE}Feature/${PROBE}.ts`]:
        'import { DASH } from "../blocks.js";\n\nexport const probe = DASH;\n',
      "views/blocks.ts": 'export const DASH = "—";\n',
    });
    expect(featureToShared.exitCode).toBe(0);
  }, 60_000);

  it("fail a Slack feature that imports another feature's listener", async () => {
    const result = await cruiseProbe({
      [`src/slack/features/spend/${PROBE}.ts`]:
        'import { withdrawButton } from "../withdraw/withdrawButton.js";\n\nexport const probe = withdrawButton;\n',
      "src/slack/features/withdraw/withdrawButton.ts": "export const withdrawButton = {};\n",
    });
    expect(result.exitCode).toBeGreaterThan(0);
    expect(result.output).toContain("features-never-import-each-other");
    expect(result.output).toContain("belongs in src/slack/kit");
  }, 60_000);

  it("fail a Slack listener that calls the approvals store, and let it import the record's type", async () => {
    const wrong = await cruiseProbe({
      [`src/slack/features/approvals/${PROBE}.ts`]:
        'import { ApprovalStore } from "../../../approvals/store.js";\n\nexport const probe = ApprovalStore;\n',
      "src/approvals/store.ts": "export class ApprovalStore {}\n",
    });
    expect(wrong.exitCode).toBeGreaterThan(0);
    expect(wrong.output).toContain("slack-never-touches-the-approvals-store");
    expect(wrong.output).toContain("go through the lifecycle API (src/orders/requests.ts");
    const typeOnly = await cruiseProbe({
      [`src/slack/features/approvals/${PROBE}.ts`]:
        'import type { ApprovalRequest } from "../../../approvals/types.js";\n\nexport type Probe = ApprovalRequest;\n',
      "src/approvals/types.ts": "export interface ApprovalRequest { id: string }\n",
    });
    expect(typeOnly.exitCode).toBe(0);
  }, 60_000);

  it("fail the lifecycle, or src/jobs, importing src/workers, and src/workers importing src/slack", async () => {
    const worker = "export const startWorkers = () => undefined;\n";
    const fromOrders = await cruiseProbe({
      [`src/orders/${PROBE}.ts`]:
        'import { startWorkers } from "../workers/index.js";\n\nexport const probe = startWorkers;\n',
      "src/workers/index.ts": worker,
    });
    expect(fromOrders.exitCode).toBeGreaterThan(0);
    expect(fromOrders.output).toContain("only-the-entry-point-starts-the-workers");
    expect(fromOrders.output).toContain("issue 29: no hop upward");
    const fromJobs = await cruiseProbe({
      [`src/jobs/${PROBE}.ts`]:
        'import type { Workers } from "../workers/index.js";\n\nexport type Probe = Workers;\n',
      "src/workers/index.ts": "export interface Workers { close(): void }\n",
    });
    expect(fromJobs.exitCode).toBeGreaterThan(0);
    expect(fromJobs.output).toContain("infrastructure-never-imports-adapter-or-use-cases");
    const toSlack = await cruiseProbe({
      [`src/workers/${PROBE}.ts`]:
        'import { boltLogger } from "../slack/logger.js";\n\nexport const probe = boltLogger;\n',
      "src/slack/logger.ts": "export const boltLogger = {};\n",
    });
    expect(toSlack.exitCode).toBeGreaterThan(0);
    expect(toSlack.output).toContain("workers-never-import-slack-or-views");
    // The entry point starts them, and they call down into src/orders.
    const fromBot = await cruiseProbe({
      "src/bot.ts":
        'import { startWorkers } from "./workers/index.js";\n\nexport const probe = startWorkers;\n',
      "src/workers/index.ts":
        'import { Placement } from "../orders/placement/placement.js";\n\nexport const startWorkers = () => new Placement();\n',
      "src/orders/placement/placement.ts": "export class Placement {}\n",
    });
    expect(fromBot.exitCode).toBe(0);
  }, 60_000);

  it("never writes a probe into the repository", async () => {
    const planted = [...(await sourceFiles("src")), ...(await sourceFiles("views"))].filter((f) =>
      f.includes(PROBE),
    );
    expect(planted).toEqual([]);
  });

  it("find no violation in src/ and views/ as they stand", async () => {
    const violations = violationsOf(await cruiseWithRules(["src", "views"]));
    expect(
      violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`),
      "see the rule's comment in .dependency-cruiser.cjs and docs/ARCHITECTURE.md",
    ).toEqual([]);
  }, 120_000);
});

// Issue 21: small modules. Generated code and seed data are data, not modules to read.
const MAX_LINES = 500;
const EXEMPT = [/^src\/provider\/generated\//, /^src\/sandbox\/seed(Data)?\.ts$/];

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : [join(dir, e.name)])),
  );
  return nested.flat().filter((f) => /\.(ts|js)$/.test(f));
}

describe("module size", () => {
  it(`keeps every file of src/ and views/ within ${MAX_LINES} lines (generated code and seed data aside)`, async () => {
    const files = [...(await sourceFiles("src")), ...(await sourceFiles("views"))];
    const tooLong: string[] = [];
    for (const file of files.filter((f) => !EXEMPT.some((e) => e.test(f)))) {
      const lines = (await readFile(file, "utf8")).split("\n").length - 1;
      if (lines > MAX_LINES) tooLong.push(`${file}: ${lines} lines`);
    }
    expect(tooLong, "split along the module's seams (docs/ARCHITECTURE.md)").toEqual([]);
  });
});
