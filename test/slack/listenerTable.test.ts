import type { App } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import { type ListenerRegistry, registerThroughTable } from "../../src/slack/listenerTable.js";

type Listener = (args: unknown) => Promise<void>;

/** Records what the table registers on Bolt: the constraint and the one listener per kind. */
function recordingApp() {
  const registered: Array<{ kind: string; constraint: unknown; listener: Listener }> = [];
  const on =
    (kind: string) =>
    (constraint: unknown, listener: Listener): void => {
      registered.push({ kind, constraint, listener });
    };
  const app = {
    command: on("command"),
    action: on("action"),
    view: on("view"),
    options: on("options"),
  } as unknown as App;
  const find = (kind: string) => {
    const entry = registered.find((r) => r.kind === kind);
    if (!entry) throw new Error(`no ${kind} listener`);
    return entry;
  };
  return { app, registered, find };
}

const noop = async () => {};

describe("registerThroughTable", () => {
  it("installs one Bolt listener per kind and dispatches by id, exact or by pattern", async () => {
    const { app, registered, find } = recordingApp();
    const calls: string[] = [];
    const record = (name: string) => async (args: unknown) => {
      calls.push(`${name}:${JSON.stringify((args as { payload?: unknown }).payload)}`);
    };
    registerThroughTable(app, (registry) => {
      registry.command("/connect", noop);
      registry.action("approve", record("approve"));
      registry.action("reject.v2", record("reject"));
      registry.action(/^page_/, record("page"));
      registry.view("order_form", record("order"));
      registry.options("dcf", record("dcf"));
    });
    expect(registered.map((r) => r.kind)).toEqual(["command", "action", "view", "options"]);

    const action = find("action");
    const pattern = (action.constraint as { action_id: RegExp }).action_id;
    for (const id of ["approve", "reject.v2", "page_2"]) expect(pattern.test(id)).toBe(true);
    // Ids no module claims do not match, so Bolt treats them as unhandled, as before; the dot
    // is literal, and exact ids are anchored.
    for (const id of ["approve_all", "rejectXv2", "xapprove", "unknown"]) {
      expect(pattern.test(id)).toBe(false);
    }
    await action.listener({ payload: { action_id: "approve" } });
    await action.listener({ payload: { action_id: "page_3" } });
    await find("view").listener({ view: { callback_id: "order_form" }, payload: "view" });
    await find("options").listener({ payload: { action_id: "dcf" } });
    expect(calls).toEqual([
      'approve:{"action_id":"approve"}',
      'page:{"action_id":"page_3"}',
      'order:"view"',
      'dcf:{"action_id":"dcf"}',
    ]);
    expect(find("view").constraint).toMatchObject({ type: "view_submission" });
  });

  it("refuses an id registered twice, a pattern with flags, and registrations after start-up", () => {
    expect(() =>
      registerThroughTable(recordingApp().app, (r) => {
        r.action("approve", noop);
        r.action("approve", noop);
      }),
    ).toThrow(/registered twice/);
    expect(() =>
      registerThroughTable(recordingApp().app, (r) => r.action(/^page_/i, noop)),
    ).toThrow(/no flags/);
    let late: ListenerRegistry | undefined;
    registerThroughTable(recordingApp().app, (r) => {
      late = r;
    });
    expect(() => late?.view("later", noop)).toThrow(/before the table is installed/);
  });

  it("registers nothing for a kind nobody uses", () => {
    const { app, registered } = recordingApp();
    registerThroughTable(app, (r) => r.view("only_view", noop));
    expect(registered.map((r) => r.kind)).toEqual(["view"]);
  });
});
