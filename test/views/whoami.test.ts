import { describe, expect, it } from "vitest";
import { whoamiView } from "../../views/general/whoami.js";
import { readable } from "./support.js";

describe("whoamiView", () => {
  it("reads the same for everyone when shared in a channel: it names who asked (issue 32, item 19)", () => {
    const reply = whoamiView(
      {
        userId: "u-1",
        companyId: "c-1",
        companyUsername: "acme-networks",
        companyName: "Acme Networks",
      },
      "U0REQUEST1",
    );
    const text = readable(reply.blocks);
    expect(text).toContain("*Asked by (Slack)*");
    expect(text).toContain("<@U0REQUEST1>");
    expect(text).not.toMatch(/\bYou\b/);
    expect(text).toContain("Acme Networks");
  });
});
