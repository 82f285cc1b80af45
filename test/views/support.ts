// Assertions shared by the view tests: what a person reads, and Slack's limits.
import type { KnownBlock } from "@slack/types";
import { expect } from "vitest";
import { LIMITS } from "../../views/blocks.js";
import { VIEW_BLOCKS } from "../../views/list.js";

interface TextObject {
  type: string;
  text: string;
}

function isText(x: unknown): x is TextObject {
  return typeof x === "object" && x !== null && typeof (x as TextObject).text === "string";
}

/** Every text a person can read in the blocks, one per line. */
export function readable(blocks: readonly KnownBlock[]): string {
  const out: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "header":
        out.push(block.text.text);
        break;
      case "section":
        if (block.text) out.push(block.text.text);
        for (const f of block.fields ?? []) out.push(f.text);
        if (block.accessory && "text" in block.accessory && isText(block.accessory.text))
          out.push(block.accessory.text.text);
        break;
      case "context":
        for (const e of block.elements) if (isText(e)) out.push(e.text);
        break;
      case "actions":
        for (const e of block.elements) if ("text" in e && isText(e.text)) out.push(e.text.text);
        break;
      default:
        break;
    }
  }
  return out.join("\n");
}

/** Slack would refuse the message (`invalid_blocks`) if any of these failed. */
export function expectWithinSlackLimits(blocks: readonly KnownBlock[]): void {
  expect(blocks.length).toBeGreaterThan(0);
  // The Slack layer adds an actions block and the sandbox label on top of the view's blocks.
  expect(blocks.length).toBeLessThanOrEqual(VIEW_BLOCKS);
  expect(blocks.length).toBeLessThanOrEqual(LIMITS.messageBlocks);
  for (const block of blocks) {
    switch (block.type) {
      case "header":
        expect(block.text.text.length).toBeLessThanOrEqual(LIMITS.headerText);
        expect(block.text.text.length).toBeGreaterThan(0);
        break;
      case "section":
        expect(block.text || block.fields).toBeTruthy();
        if (block.text) {
          expect(block.text.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
          expect(block.text.text.trim().length).toBeGreaterThan(0);
        }
        if (block.fields) {
          expect(block.fields.length).toBeGreaterThan(0);
          expect(block.fields.length).toBeLessThanOrEqual(LIMITS.sectionFields);
          for (const f of block.fields) expect(f.text.length).toBeLessThanOrEqual(LIMITS.fieldText);
        }
        if (block.accessory && block.accessory.type === "button") {
          expect(block.accessory.text.text.length).toBeLessThanOrEqual(LIMITS.buttonText);
          expect((block.accessory.value ?? "").length).toBeLessThanOrEqual(LIMITS.actionValue);
        }
        break;
      case "context":
        expect(block.elements.length).toBeGreaterThan(0);
        expect(block.elements.length).toBeLessThanOrEqual(LIMITS.contextElements);
        for (const e of block.elements) {
          if (isText(e)) expect(e.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
        }
        break;
      case "actions":
        for (const e of block.elements) {
          if (e.type === "button") {
            expect(e.text.text.length).toBeLessThanOrEqual(LIMITS.buttonText);
            expect((e.value ?? "").length).toBeLessThanOrEqual(LIMITS.actionValue);
          }
        }
        break;
      default:
        break;
    }
  }
}

/** The mrkdwn texts of the blocks (plain_text, e.g. headers and buttons, is never parsed). */
export function mrkdwnTexts(blocks: readonly KnownBlock[]): string[] {
  const out: string[] = [];
  const add = (t: unknown) => {
    if (isText(t) && t.type === "mrkdwn") out.push(t.text);
  };
  for (const block of blocks) {
    if (block.type === "section") {
      add(block.text);
      for (const f of block.fields ?? []) add(f);
    }
    if (block.type === "context") for (const e of block.elements) add(e);
  }
  return out;
}

/** Provider text must never reach Slack unescaped (no mentions, links or broken markup). */
export function expectNoRawAngleBrackets(blocks: readonly KnownBlock[]): void {
  // None of these views links or mentions, so any "<" is provider text that escaped escaping.
  for (const text of mrkdwnTexts(blocks)) expect(text).not.toContain("<");
}
