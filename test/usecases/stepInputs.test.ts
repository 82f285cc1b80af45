import { describe, expect, it } from "vitest";
import { MAX_TERM_MONTHS } from "../../src/domain/catalog/terms.js";
import {
  priceLayer2Inputs,
  pricePortInputs,
  requestLayer2Inputs,
  requestPortOrderInputs,
} from "../../src/usecases/steps/inputs.js";

// The Workflow Builder steps take a term as the forms do: up to the one longest term
// (src/domain/catalog/terms.ts), so a step never places what a form would refuse.

const inputs = {
  requester: "U0REQUEST1",
  data_center: "ironbridge-iad1",
  source: "ams",
  destination: "lon",
  source_port: "port-1",
  speed_mbps: 1000,
  bandwidth_mbps: 100,
  port_name: "ams-core-01",
  connection_name: "ams-lon-01",
};

describe("the steps' term input", () => {
  for (const [name, schema] of Object.entries({
    pricePortInputs,
    priceLayer2Inputs,
    requestPortOrderInputs,
    requestLayer2Inputs,
  })) {
    it(`${name}: takes the longest term and refuses a longer one`, () => {
      expect(schema.safeParse({ ...inputs, term_months: MAX_TERM_MONTHS }).success).toBe(true);
      const longer = schema.safeParse({ ...inputs, term_months: String(MAX_TERM_MONTHS + 1) });
      expect(longer.success).toBe(false);
      expect(longer.error?.issues.map((i) => i.message)).toEqual([
        "Term (months) must be at most 120",
      ]);
    });
  }
});
