import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { cruise, type ICruiseResult, type IReporterOutput } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { afterAll, describe, expect, it } from "vitest";

// The import rules of docs/ARCHITECTURE.md are .dependency-cruiser.cjs, run by `npm run lint`
// (lint:deps). These tests prove the rules bite (a wrong arrow fails with the rule's own words)
// and that the tree as it stands keeps them.

const CONFIG = "./.dependency-cruiser.cjs";

async function cruiseWithRules(files: string[], outputType?: "err-long"): Promise<IReporterOutput> {
  const options = await extractDepcruiseOptions(CONFIG);
  const tsConfig = extractTSConfig("tsconfig.json");
  return cruise(files, { ...options, ...(outputType ? { outputType } : {}) }, {}, { tsConfig });
}

function violationsOf(output: IReporterOutput): ICruiseResult["summary"]["violations"] {
  if (typeof output.output === "string") throw new Error("expected a cruise result object");
  return output.output.summary.violations;
}

// A view that reaches into the Slack adapter, and a feature that reaches into another feature,
// written for the test and removed after it.
const PROBE = `views/architectureProbe${process.pid}.ts`;
const FEATURE_PROBE = `src/slack/features/spend/architectureProbe${process.pid}.ts`;

afterAll(async () => {
  await rm(PROBE, { force: true });
  await rm(FEATURE_PROBE, { force: true });
});

describe("the import rules (.dependency-cruiser.cjs)", () => {
  it("fail a view that imports src/slack, with the rule's message", async () => {
    await writeFile(
      PROBE,
      'import { boltLogger } from "../src/slack/logger.js";\n\nexport const probe = boltLogger;\n',
    );
    const result = await cruiseWithRules([PROBE], "err-long").finally(() => rm(PROBE));
    expect(result.exitCode).toBeGreaterThan(0);
    expect(result.output).toContain("views-never-know-slack");
    expect(result.output).toContain("views/ may not import src/slack (the Bolt adapter)");
    expect(result.output).toContain("src/slack/logger.ts");
  }, 60_000);

  it("fail a Slack feature that imports another feature's listener", async () => {
    await writeFile(
      FEATURE_PROBE,
      'import { withdrawButton } from "../withdraw/withdrawButton.js";\n\nexport const probe = withdrawButton;\n',
    );
    const result = await cruiseWithRules([FEATURE_PROBE], "err-long").finally(() =>
      rm(FEATURE_PROBE),
    );
    expect(result.exitCode).toBeGreaterThan(0);
    expect(result.output).toContain("features-never-import-each-other");
    expect(result.output).toContain("belongs in src/slack/kit");
  }, 60_000);

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
