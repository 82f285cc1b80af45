import { describe, expect, it } from "vitest";
import { finalText } from "../../views/approvals/trackerMessages.js";

describe("an Edge order's final message", () => {
  const edge = {
    orderId: "eo-1",
    kind: "edge" as const,
    target: { kind: "edge-order" as const, id: "eo-1" },
  };

  it("says the port is ACTIVE when it already is, and asks nothing more", () => {
    const text = finalText(edge, { status: "done", port: { id: "p-9", status: "ACTIVE" } });
    expect(text).toContain("The Edge port is ACTIVE.");
    expect(text).not.toContain("Next: activation");
  });

  it("names the port to check by its id, never a raw <id> placeholder", () => {
    const withId = finalText(edge, { status: "done", port: { id: "p-9" } });
    expect(withId).toContain("check it with `/connect port p-9` until it is ACTIVE");
    const withoutId = finalText(edge, { status: "done", port: {} });
    expect(withoutId).toContain("`/connect port &lt;portId&gt;`");
    expect(`${withId}${withoutId}`).not.toMatch(/<[a-z]+>/i);
  });
});
