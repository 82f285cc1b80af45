// The Slack kit's patterns, each tested once here with fake ack/client (test/support/fakeSlack.ts).
import { describe, expect, it } from "vitest";
import { blockErrors } from "../../src/slack/kit/fieldErrors.js";
import { rebuildOnChange } from "../../src/slack/kit/newestWins.js";
import { approvalsUnavailable } from "../../src/slack/kit/requireApprovals.js";
import { tellPrivately, whereFormOpened } from "../../src/slack/kit/tellPrivately.js";
import { SANDBOX_LABEL } from "../../views/blocks.js";
import { fakeAck, fakeClient, listenerServices } from "../support/fakeSlack.js";

describe("whereFormOpened", () => {
  it("answers in the channel the form was opened from, and only the person without one", () => {
    expect(whereFormOpened("U1", { channelId: "C1" })).toEqual({ userId: "U1", channelId: "C1" });
    const noChannel = whereFormOpened("U1", {});
    expect(noChannel).toEqual({ userId: "U1" });
    expect("channelId" in noChannel).toBe(false);
  });
});

describe("tellPrivately", () => {
  it("answers ephemerally in the channel the person acted in", async () => {
    const slack = fakeClient();
    await tellPrivately(slack.client, listenerServices(), { userId: "U1", channelId: "C1" }, "hi");
    expect(slack.callsTo("chat.postEphemeral")).toEqual([
      { channel: "C1", user: "U1", text: "hi" },
    ]);
    expect(slack.callsTo("chat.postMessage")).toEqual([]);
  });

  it("falls back to a DM when the ephemeral is refused, and DMs when there is no channel", async () => {
    const slack = fakeClient();
    slack.failWith("chat.postEphemeral", "not_in_channel");
    await tellPrivately(slack.client, listenerServices(), { userId: "U1", channelId: "C1" }, "a");
    await tellPrivately(slack.client, listenerServices(), { userId: "U2" }, "b");
    expect(slack.callsTo("chat.postMessage")).toEqual([
      { channel: "U1", text: "a" },
      { channel: "U2", text: "b" },
    ]);
  });

  it("labels every answer in sandbox mode, text-only ones included", async () => {
    const slack = fakeClient();
    await tellPrivately(slack.client, listenerServices({ sandbox: true }), { userId: "U1" }, "x");
    const [sent] = slack.callsTo("chat.postMessage");
    expect(JSON.stringify(sent?.blocks)).toContain(SANDBOX_LABEL);
  });
});

describe("blockErrors", () => {
  const view = { blocks: [{ type: "input", block_id: "b_name" }] } as never;
  const ids = { name: "b_name", speed: "b_speed" } as const;
  it("keys errors by block and moves those of absent blocks to the fallback field", () => {
    expect(
      blockErrors<"name" | "speed">({ name: "taken", speed: "choose" }, ids, view, "name"),
    ).toEqual({
      b_name: "taken",
    });
    expect(blockErrors<"name" | "speed">({ speed: "choose a speed" }, ids, view, "name")).toEqual({
      b_name: "choose a speed",
    });
  });
});

describe("approvalsUnavailable", () => {
  it("refuses inside the form when approvals are not set up, and only then", () => {
    const unset = listenerServices({ approvals: { channel: undefined, approvers: [] } as never });
    const set = listenerServices({ approvals: { channel: "C9", approvers: ["U9"] } as never });
    expect(approvalsUnavailable(unset)).toMatch(/APPROVALS_CHANNEL and APPROVERS/);
    expect(approvalsUnavailable(set)).toBeUndefined();
  });
});

describe("rebuildOnChange", () => {
  const body = (actionTs: string, callbackId = "form") => ({
    view: {
      id: "V1",
      callback_id: callbackId,
      private_metadata: "",
      state: { values: { ts: actionTs } },
    },
    actions: [{ action_ts: actionTs }],
  });

  it("acks at once and applies the newest change last, even when an older build finishes later", async () => {
    const slack = fakeClient();
    let releaseFirst: () => void = () => undefined;
    const firstDone = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const built: string[] = [];
    const listener = rebuildOnChange(
      listenerServices(),
      { callbackId: "form", what: "test" },
      async (view) => {
        const ts = (view.state as { ts: string }).ts;
        if (ts === "1.0") await firstDone;
        built.push(ts);
        return { type: "modal", title: { type: "plain_text", text: ts }, blocks: [] } as never;
      },
    );
    const a = fakeAck();
    const first = listener({ ack: a.ack, body: body("1.0"), client: slack.client } as never);
    const second = listener({ ack: a.ack, body: body("2.0"), client: slack.client } as never);
    const stale = listener({ ack: a.ack, body: body("0.5"), client: slack.client } as never);
    releaseFirst();
    await Promise.all([first, second, stale]);
    expect(a.acked).toHaveLength(3);
    const titles = slack
      .callsTo("views.update")
      .map((u) => (u.view as { title: { text: string } }).title.text);
    expect(titles.at(-1)).toBe("2.0");
    expect(built).not.toContain("0.5");
  });

  it("leaves another form alone", async () => {
    const slack = fakeClient();
    const listener = rebuildOnChange(
      listenerServices(),
      { callbackId: "form", what: "test" },
      async () => {
        throw new Error("must not build");
      },
    );
    const a = fakeAck();
    await listener({ ack: a.ack, body: body("1.0", "other"), client: slack.client } as never);
    expect(a.acked).toHaveLength(1);
    expect(slack.calls).toEqual([]);
  });
});
