// The spend feature's listener (src/slack/features/spend): Export CSV uploads the month's ledger
// to the clicker's DM by Slack's external upload and answers the click privately.
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerSpendListeners } from "../../../src/slack/features/spend/index.js";
import { SANDBOX_LABEL } from "../../../views/blocks.js";
import { SPEND_EXPORT_BUTTON } from "../../../views/spend/spend.js";
import { fakeRegistry, listenerServices } from "../../support/fakeSlack.js";
import { click } from "./support.js";

const exercised = new Set<string>();
afterEach(() => vi.restoreAllMocks());

function feature(sandbox = false, approvers = ["U0SPENDER1"]) {
  const registry = fakeRegistry();
  const services = listenerServices({
    sandbox,
    // No placed request this month: the ledger is empty but still a file, for someone who may
    // see the team's (the clicker approves).
    approvals: { store: { findByStatus: async () => [] }, approvers } as never,
  });
  registerSpendListeners(registry.registry, services);
  const run = (args: Record<string, unknown>) => {
    exercised.add(SPEND_EXPORT_BUTTON);
    return registry.run("action", SPEND_EXPORT_BUTTON, args);
  };
  return { registry, run };
}

const where = { userId: "U0SPENDER1", channel: "C0GENERAL1" };

describe("Export CSV", () => {
  it("uploads the month's ledger into the clicker's DM and says so privately", async () => {
    const uploads: Array<{ url: string; body: string }> = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init) => {
      uploads.push({ url: String(url), body: Buffer.from(init?.body as Buffer).toString("utf8") });
      return new Response("OK", { status: 200 });
    });
    const { run } = feature(true);
    const c = click(SPEND_EXPORT_BUTTON, "2026-11", where);
    c.slack.answer("conversations.open", { channel: { id: "D0SPENDER1" } });
    c.slack.answer("files.getUploadURLExternal", {
      upload_url: "https://files.example/upload/1",
      file_id: "F0LEDGER1",
    });
    await run(c.args);
    expect(c.acks.acked).toEqual([undefined]);
    expect(c.slack.callsTo("conversations.open")).toEqual([{ users: "U0SPENDER1" }]);
    expect(uploads.map((u) => u.url)).toEqual(["https://files.example/upload/1"]);
    const [shared] = c.slack.callsTo("files.completeUploadExternal");
    expect(shared).toMatchObject({ channel_id: "D0SPENDER1", files: [{ id: "F0LEDGER1" }] });
    expect(JSON.stringify(shared?.blocks)).toContain(SANDBOX_LABEL);
    expect(c.responses.responded).toHaveLength(1);
    expect(c.responses.responded[0]).toMatchObject({
      response_type: "ephemeral",
      replace_original: false,
    });
    expect(String(c.responses.responded[0]?.text)).toMatch(
      /^:page_facing_up: The ledger of 2026-11/,
    );
  });

  it("refuses someone who may not see the team's ledger and has nothing of their own; no upload", async () => {
    const { run } = feature(false, ["U0APPROVE1"]);
    const c = click(SPEND_EXPORT_BUTTON, "2026-11", where);
    await run(c.args);
    expect(c.acks.acked).toEqual([undefined]);
    expect(c.slack.calls).toEqual([]);
    expect(String(c.responses.responded[0]?.text)).toMatch(
      /is for approvers, the finance group and the people in SPEND_VIEWERS/,
    );
  });

  it("says the button carries no month when its value is not one", async () => {
    const { run } = feature();
    const c = click(SPEND_EXPORT_BUTTON, "last month", where);
    await run(c.args);
    expect(c.slack.calls).toEqual([]);
    expect(String(c.responses.responded[0]?.text)).toMatch(/this button carries no month/);
  });

  it("says Slack did not take the file when the upload is refused, and never throws", async () => {
    const { run } = feature();
    const c = click(SPEND_EXPORT_BUTTON, "2026-11", where);
    c.slack.failWith("conversations.open", "missing_scope");
    await run(c.args);
    expect(String(c.responses.responded[0]?.text)).toMatch(/Slack did not take the file/);
    const mute = click(SPEND_EXPORT_BUTTON, "2026-11", where);
    await expect(
      run({
        ...mute.args,
        respond: async () => {
          throw new Error("expired");
        },
      }),
    ).resolves.toBeUndefined();
  });
});

describe("every spend listener", () => {
  it("is exercised above", () => {
    const { registry } = feature();
    expect(registry.ids("action")).toEqual([...exercised]);
    expect([...registry.ids("view"), ...registry.ids("options")]).toEqual([]);
  });
});
