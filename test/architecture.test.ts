import { rm, writeFile } from "node:fs/promises";
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

// A view that reaches into the Slack adapter, written for the test and removed after it.
const PROBE = `views/architectureProbe${process.pid}.ts`;

afterAll(async () => {
  await rm(PROBE, { force: true });
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

  it("find no violation in src/ and views/ as they stand", async () => {
    const violations = violationsOf(await cruiseWithRules(["src", "views"]));
    expect(
      violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`),
      "see the rule's comment in .dependency-cruiser.cjs and docs/ARCHITECTURE.md",
    ).toEqual([]);
  }, 120_000);
});
