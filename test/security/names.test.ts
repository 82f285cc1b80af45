import { describe, expect, it } from "vitest";
import { edgeDraftOrderRule, edgePortOrderRule } from "../../src/provider/rules/edge.js";
import { giaServiceRule } from "../../src/provider/rules/iod.js";
import { layer2PortToPortRule } from "../../src/provider/rules/layer2.js";
import { NAME_CHARACTERS_MESSAGE, nameRuleMessage } from "../../src/provider/rules/names.js";
import { portOrderBodyRule } from "../../src/provider/rules/portOrder.js";

/**
 * One rule for every name a person gives an order (port order, layer 2, IO-D, Edge port, Edge
 * draft): names that show as nothing or read differently from what they are are refused, with
 * a field error that says why, before anything is priced, approved or ordered.
 */
const NAME_FIELDS = {
  "port order: Port name": portOrderBodyRule.shape.portName,
  "layer 2: Connection name": layer2PortToPortRule.shape.name,
  "IO-D: Service name": giaServiceRule.shape.name,
  "Edge port: Port name": edgePortOrderRule.shape.portName,
  "Edge draft: Draft name": edgeDraftOrderRule.shape.name,
};

const INVISIBLE_OR_BIDI = {
  "zero-width space": "\u200B",
  "zero-width non-joiner": "\u200C",
  "zero-width joiner": "\u200D",
  "word joiner": "\u2060",
  "byte order mark inside": "a\uFEFFb",
  "soft hyphen": "a\u00ADb",
  "left-to-right mark": "\u200E",
  "right-to-left mark": "\u200F",
  "Arabic letter mark": "\u061C",
  "LRE/RLE/PDF/LRO/RLO": "\u202A\u202B\u202C\u202D\u202E",
  "isolates LRI/RLI/FSI/PDI": "\u2066\u2067\u2068\u2069",
  "private use": "\uE000",
  "lone surrogate": "\uD800",
};

describe("names refuse invisible and direction-changing characters", () => {
  for (const [field, rule] of Object.entries(NAME_FIELDS)) {
    it(`${field}`, () => {
      for (const [what, chars] of Object.entries(INVISIBLE_OR_BIDI)) {
        for (const name of [chars, `ams-${chars}-core`, `invoice${chars}fdp.exe`]) {
          const parsed = rule.safeParse(name);
          expect(parsed.success, `${what} in ${JSON.stringify(name)}`).toBe(false);
          expect(parsed.error?.issues.map((i) => i.message)).toContain(NAME_CHARACTERS_MESSAGE);
        }
      }
      // Empty after trimming, and ordinary names from anywhere in the world, as before.
      expect(rule.safeParse("   ").success).toBe(false);
      for (const fine of ["ams-core-1", "Zürich_Port", "東京-1", "مرفأ-1", "a<b>&c", " sg.edge.2 "])
        expect(rule.safeParse(fine).success, fine).toBe(true);
    });
  }
});

/** The names an order is known by afterwards (an Edge draft's name is the provider's own kind). */
const ORDER_NAME_FIELDS = {
  "Port name": portOrderBodyRule.shape.portName,
  "Connection name": layer2PortToPortRule.shape.name,
  "Service name": giaServiceRule.shape.name,
  "Edge port: Port name": edgePortOrderRule.shape.portName,
};

describe("order names are one word without emoji, and the error says what a valid name is", () => {
  for (const [field, rule] of Object.entries(ORDER_NAME_FIELDS)) {
    it(field, () => {
      const label = field.replace("Edge port: ", "");
      for (const name of ["ams core 1", "ams\u00A0core", "ams-🚀", "🇳🇱-1", "core-1️⃣", "👍🏽"]) {
        const parsed = rule.safeParse(name);
        expect(parsed.success, JSON.stringify(name)).toBe(false);
        expect(parsed.error?.issues[0]?.message).toBe(nameRuleMessage(label));
      }
      expect(nameRuleMessage(label)).toContain("no spaces or emoji");
      expect(nameRuleMessage(label)).toContain("e.g. ams-core-01");
      expect(rule.safeParse("x".repeat(101)).success).toBe(false);
    });
  }

  it("leaves an Edge draft's name alone: the provider names drafts 'Draft order DD-MM-YYYY'", () => {
    expect(edgeDraftOrderRule.shape.name.safeParse("Draft order 26-11-2026").success).toBe(true);
  });
});
