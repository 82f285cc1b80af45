import { describe, expect, it } from "vitest";
import { holdingAnswers, WINDOW_LINE } from "./fixtures/answerWindow.js";

describe("the answer window of the placing process (fixture)", () => {
  function recordingFetch(answer: () => Response) {
    const seen: string[] = [];
    const inner: typeof fetch = async (input) => {
      seen.push(input instanceof Request ? input.method : "GET");
      return answer();
    };
    return { inner, seen };
  }

  it("holds a successful write's answer for holdMs after reporting it, and hands it over intact", async () => {
    const lines: string[] = [];
    const { inner } = recordingFetch(() =>
      Response.json({ id: "order-1", status: "created" }, { status: 200 }),
    );
    const wrapped = holdingAnswers(inner, { holdMs: 120, report: (l) => lines.push(l) });
    const request = new Request("http://provider.test/api/company/acme/ports/orders", {
      method: "PUT",
      body: "{}",
    });
    const started = performance.now();
    const pending = wrapped(request);
    // The answer is reported before the caller can see it.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(lines).toEqual([
      "window sending 1 PUT /api/company/acme/ports/orders",
      "window answered 1 200 order-1",
    ]);
    const response = await pending;
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    expect(await response.json()).toEqual({ id: "order-1", status: "created" });
    expect(lines.at(-1)).toBe("window released 1");
    for (const line of lines) expect(line).toMatch(WINDOW_LINE);
  });

  it("passes reads through untouched and does not hold a refusal", async () => {
    const lines: string[] = [];
    const { inner, seen } = recordingFetch(() => Response.json({ code: 400 }, { status: 400 }));
    const wrapped = holdingAnswers(inner, { holdMs: 10_000, report: (l) => lines.push(l) });
    await wrapped(new Request("http://provider.test/api/company/acme/ports"));
    expect(lines).toEqual([]);
    const started = performance.now();
    const refused = await wrapped(
      new Request("http://provider.test/api/company/acme/ports/orders", { method: "PUT" }),
    );
    expect(refused.status).toBe(400);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(lines).toEqual([
      "window sending 1 PUT /api/company/acme/ports/orders",
      "window released 1",
    ]);
    expect(seen).toEqual(["GET", "PUT"]);
  });
});
