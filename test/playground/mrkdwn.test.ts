import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  emojiFor,
  emojify,
  formatSlackDate,
  isSafeUrl,
  type MrkdwnNode,
  parseMrkdwn,
} from "../../src/playground/static/mrkdwn.js";

/** The text a person reads from a parsed tree (mentions and dates as their ids/fallbacks). */
function plain(nodes: MrkdwnNode[]): string {
  return nodes
    .map((node) => {
      if ("children" in node) return plain(node.children);
      if ("text" in node) return node.text;
      if (node.type === "link") return node.label;
      if (node.type === "date") return node.fallback;
      return `[${node.type}]`;
    })
    .join("");
}

describe("mrkdwn as the playground page reads it", () => {
  it("reads bold, italic, strike and nesting at word boundaries only", () => {
    expect(parseMrkdwn("*Port* _ams-1_ ~old~")).toEqual([
      { type: "bold", children: [{ type: "text", text: "Port" }] },
      { type: "text", text: " " },
      { type: "italic", children: [{ type: "text", text: "ams-1" }] },
      { type: "text", text: " " },
      { type: "strike", children: [{ type: "text", text: "old" }] },
    ]);
    expect(parseMrkdwn("*bold _both_*")).toEqual([
      {
        type: "bold",
        children: [
          { type: "text", text: "bold " },
          { type: "italic", children: [{ type: "text", text: "both" }] },
        ],
      },
    ]);
    for (const text of ["snake_case_name", "5 * 3 * 2", "a*b*c", "* not bold *"]) {
      expect(parseMrkdwn(text)).toEqual([{ type: "text", text }]);
    }
  });

  it("keeps code as written: no formatting, mentions or emoji inside", () => {
    expect(parseMrkdwn("run `/connect *price*` now")).toEqual([
      { type: "text", text: "run " },
      { type: "code", text: "/connect *price*" },
      { type: "text", text: " now" },
    ]);
    expect(parseMrkdwn("```\n<@U1> :x: &lt;b&gt;\n```")).toEqual([
      { type: "pre", text: "<@U1> :x: <b>\n" },
    ]);
  });

  it("reads mentions, user groups, channels and special mentions", () => {
    expect(
      parseMrkdwn("<@U0REQUEST1> <!subteam^S0APPROVERS|@approvers> <#C0GENERAL1|general> <!here>"),
    ).toEqual([
      { type: "user", id: "U0REQUEST1" },
      { type: "text", text: " " },
      { type: "usergroup", id: "S0APPROVERS", label: "@approvers" },
      { type: "text", text: " " },
      { type: "channel", id: "C0GENERAL1", label: "general" },
      { type: "text", text: " " },
      { type: "special", name: "here" },
    ]);
  });

  it("links only to web and mail addresses; anything else stays text", () => {
    expect(parseMrkdwn("<https://example.com/a?b=1&amp;c=2|the docs>")).toEqual([
      { type: "link", url: "https://example.com/a?b=1&c=2", label: "the docs" },
    ]);
    expect(parseMrkdwn("<mailto:noc@example.com>")).toEqual([
      { type: "link", url: "mailto:noc@example.com", label: "mailto:noc@example.com" },
    ]);
    expect(parseMrkdwn("<javascript:alert(1)|click>")).toEqual([{ type: "text", text: "click" }]);
    expect(plain(parseMrkdwn("<img src=x onerror=alert(1)>"))).toBe("<img src=x onerror=alert(1)>");
    expect(isSafeUrl(" JavaScript:alert(1)")).toBe(false);
    expect(isSafeUrl("data:text/html,<script>")).toBe(false);
  });

  it("decodes Slack's three escapes into text, never into markup", () => {
    expect(parseMrkdwn("&lt;script&gt;alert(1)&lt;/script&gt; &amp;")).toEqual([
      { type: "text", text: "<script>alert(1)</script> &" },
    ]);
    // The page's own placeholders cannot be smuggled in.
    expect(plain(parseMrkdwn("\uE0000\uE001 *x*"))).toBe("0 x");
  });

  it("groups quoted lines and turns known emoji into characters", () => {
    expect(parseMrkdwn("&gt; approved\n&gt; by Alex\nthen ordered")).toEqual([
      { type: "quote", children: [{ type: "text", text: "approved\nby Alex" }] },
      { type: "text", text: "then ordered" },
    ]);
    expect(plain(parseMrkdwn(":white_check_mark: done :not_an_emoji:"))).toBe(
      "✅ done :not_an_emoji:",
    );
    expect(emojify(":test_tube: Sandbox")).toBe("🧪 Sandbox");
  });

  it("shows <!date^…> in the viewer's time zone, and the fallback when it cannot", () => {
    const [node] = parseMrkdwn("<!date^1700000000^{date_short} {time}|2023-11-14 22:13 UTC>");
    expect(node).toEqual({
      type: "date",
      seconds: 1700000000,
      format: "{date_short} {time}",
      fallback: "2023-11-14 22:13 UTC",
    });
    expect(formatSlackDate(1700000000, "{date_short} {time}", "fb", "Europe/Amsterdam")).toBe(
      "Nov 14, 2023 23:13",
    );
    expect(formatSlackDate(1700000000, "{date_num} {time_secs}", "fb", "America/New_York")).toBe(
      "2023-11-14 17:13:20",
    );
    expect(formatSlackDate(1700000000, "{date_long}", "fb", "Asia/Tokyo")).toBe(
      "Wednesday, November 15, 2023",
    );
    const now = new Date(1700000000 * 1000 + 3600 * 1000);
    expect(formatSlackDate(1700000000, "{date_pretty}, {ago}", "fb", "UTC", now)).toBe(
      "Today, 1 hour ago",
    );
    const nextMorning = new Date(1700000000 * 1000 + 3 * 3600 * 1000);
    expect(formatSlackDate(1700000000, "{date_pretty}", "fb", "UTC", nextMorning)).toBe(
      "Yesterday",
    );
    expect(formatSlackDate(1700000000, "{date_pretty}", "fb", "Asia/Tokyo", nextMorning)).toBe(
      "Today",
    );
    // Capitalised only where it starts the text, as Slack shows it.
    expect(
      formatSlackDate(1700000000, "approved {date_short_pretty} at {time}", "fb", "UTC", now),
    ).toBe("approved today at 22:13");
    expect(formatSlackDate(1700000000, "{nonsense}", "the fallback", "UTC")).toBe("the fallback");
    expect(formatSlackDate(Number.NaN, "{date}", "the fallback", "UTC")).toBe("the fallback");
    expect(formatSlackDate(1700000000, "{date}", "the fallback", "Not/AZone")).toBe("the fallback");
  });
});

/**
 * Every `:shortcode:` the bot writes into a message: in views/ (where all text reaching Slack is
 * built) and src/, a shortcode stands after a quote, a backtick or a space and before a space.
 * Redis key fragments such as `…:again:…` stand between other characters and are not matched.
 */
function shortcodesTheBotWrites(): string[] {
  const found = new Set<string>();
  const scan = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) scan(path);
      else if (entry.name.endsWith(".ts")) {
        const text = readFileSync(path, "utf8");
        for (const m of text.matchAll(/(?<=["'`(\s]):([a-z][a-z0-9_+-]*):(?=\s)/g)) {
          found.add(m[1]!);
        }
      }
    }
  };
  scan("views");
  scan("src");
  return [...found].sort();
}

describe("emoji the bot uses", () => {
  it("renders every shortcode used in the bot's messages", () => {
    const used = shortcodesTheBotWrites();
    // The scan finds the known ones (a broken scan would pass vacuously).
    expect(used).toEqual(expect.arrayContaining(["email", "telephone_receiver", "warning"]));
    expect(used.filter((name) => emojiFor(name) === undefined)).toEqual([]);
  });
});
