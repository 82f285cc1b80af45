import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, REDACTION_MARK, scrubSecrets } from "../src/log.js";

function collector() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      callback();
    },
  });
  return { lines, stream };
}

describe("createLogger", () => {
  it("redacts secrets by key path and by value, wherever they appear", () => {
    const apiKey = "prov-key-0123456789abcdef";
    const { lines, stream } = collector();
    const logger = createLogger({ secrets: [apiKey], destination: stream });
    logger.info({ headers: { authorization: `Bearer ${apiKey}` } }, "request");
    logger.info({ config: { botToken: "xoxb-some-bot-token" } }, "config");
    logger.warn(`the provider echoed ${apiKey} back`);
    logger.error({ err: new Error(`failed with key ${apiKey}`) }, "boom");
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line).not.toContain(apiKey);
      expect(line).not.toContain("xoxb-some-bot-token");
      expect(() => JSON.parse(line)).not.toThrow();
    }
    expect(lines.join("\n")).toContain(REDACTION_MARK);
  });

  it("leaves short values alone so ordinary words are not mangled", () => {
    expect(scrubSecrets("a port in ams", ["ams"])).toBe("a port in ams");
    expect(scrubSecrets("key=supersecretvalue!", ["supersecretvalue"])).toBe(
      `key=${REDACTION_MARK}!`,
    );
  });
});
