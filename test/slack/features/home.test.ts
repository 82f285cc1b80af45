// The App Home listeners (src/slack/features/home): opening the tab publishes it, paging
// publishes and remembers the page, quick actions run the `/connect` command they name with
// answers in the person's DM. The Home is read from a real approvals store (unique prefix).
import { afterAll, describe, expect, it } from "vitest";
import {
  registerHomeEvents,
  registerHomeListeners,
} from "../../../src/slack/features/home/index.js";
import type { RunCommand } from "../../../src/slack/features/home/quickActions.js";
import type { ListenerDeps } from "../../../src/slack/listeners.js";
import {
  ACTION_HOME_PAGE,
  ACTION_HOME_QUICK,
  HOME_QUICK_ACTIONS,
} from "../../../views/home/home.js";
import { fakeClient, fakeRegistry, listenerServices } from "../../support/fakeSlack.js";
import { approvalSettings, click, REQUESTER, redisStore } from "./support.js";

const redis = redisStore("slack-features-home");
afterAll(() => redis.close());

const exercised = new Set<string>();

function feature() {
  const pages = new Map<string, number>();
  const services = listenerServices({
    approvals: approvalSettings(redis.store),
    jobs: { tracker: { list: async () => [] } } as never,
    homePages: {
      get: async (userId: string) => pages.get(userId) ?? 0,
      set: async (userId: string, page: number) => void pages.set(userId, page),
    },
  } as Partial<ListenerDeps>);
  const ran: Array<Parameters<RunCommand>[0]> = [];
  const run: RunCommand = async (input) => {
    ran.push(input);
    await input.respond({ text: `ran ${input.text}` });
  };
  const registry = fakeRegistry();
  registerHomeListeners(registry.registry, services, run);
  const runAction = (id: string, args: Record<string, unknown>) => {
    exercised.add(
      registry.ids("action").find((pattern) => new RegExp(pattern.slice(1, -1)).test(id)) ?? id,
    );
    return registry.run("action", id, args);
  };
  return { services, registry, runAction, ran, pages };
}

describe("app_home_opened", () => {
  it("publishes the Home tab of the person who opened it, and ignores the Messages tab", async () => {
    const { services } = feature();
    const events = new Map<string, (args: Record<string, unknown>) => Promise<void>>();
    registerHomeEvents(
      { event: (name: string, listener: never) => events.set(name, listener) } as never,
      services,
    );
    const opened = events.get("app_home_opened");
    if (!opened) throw new Error("app_home_opened not registered");
    const slack = fakeClient();
    await opened({ event: { tab: "messages", user: REQUESTER }, client: slack.client });
    expect(slack.calls).toEqual([]);
    await opened({ event: { tab: "home", user: REQUESTER }, client: slack.client });
    const [published] = slack.callsTo("views.publish");
    expect(published?.user_id).toBe(REQUESTER);
    expect(published?.view).toMatchObject({ type: "home" });
  });

  it("does not throw when Slack refuses the view", async () => {
    const { services } = feature();
    let opened: ((args: Record<string, unknown>) => Promise<void>) | undefined;
    registerHomeEvents({ event: (_: string, l: never) => (opened = l) } as never, services);
    const slack = fakeClient();
    slack.failWith("views.publish", "not_enabled");
    await expect(
      opened?.({ event: { tab: "home", user: REQUESTER }, client: slack.client }),
    ).resolves.toBeUndefined();
  });
});

describe("Older / Newer", () => {
  it("acks, remembers the page and publishes it; a forged page number shows the first", async () => {
    const { runAction, pages } = feature();
    const older = click(`${ACTION_HOME_PAGE}_next`, "2", { userId: REQUESTER, home: true });
    await runAction(`${ACTION_HOME_PAGE}_next`, older.args);
    expect(older.acks.acked).toEqual([undefined]);
    expect(pages.get(REQUESTER)).toBe(2);
    expect(older.slack.callsTo("views.publish")).toHaveLength(1);
    const forged = click(`${ACTION_HOME_PAGE}_prev`, "-3", { userId: REQUESTER, home: true });
    await runAction(`${ACTION_HOME_PAGE}_prev`, forged.args);
    expect(pages.get(REQUESTER)).toBe(0);
  });

  it("does not throw when the page cannot be published", async () => {
    const { runAction } = feature();
    const c = click(`${ACTION_HOME_PAGE}_next`, "1", { userId: REQUESTER, home: true });
    c.slack.failWith("views.publish", "ratelimited");
    await expect(runAction(`${ACTION_HOME_PAGE}_next`, c.args)).resolves.toBeUndefined();
    expect(c.acks.acked).toEqual([undefined]);
  });
});

describe("quick actions", () => {
  it("run the command they name, answering in the person's DM", async () => {
    const { runAction, ran } = feature();
    for (const quick of HOME_QUICK_ACTIONS) {
      const id = `${ACTION_HOME_QUICK}_${quick.name}`;
      const c = click(id, quick.command, { userId: REQUESTER, home: true });
      await runAction(id, c.args);
      expect(c.acks.acked).toEqual([undefined]);
      expect(c.slack.callsTo("chat.postMessage")).toEqual([
        { channel: REQUESTER, text: `ran ${quick.command}` },
      ]);
    }
    expect(ran.map((r) => [r.text, r.userId, r.channelId, r.triggerId, r.mode])).toEqual(
      HOME_QUICK_ACTIONS.map((q) => [q.command, REQUESTER, REQUESTER, "T0TRIGGER", "ephemeral"]),
    );
  });

  it("run nothing for a value Home does not offer", async () => {
    const { runAction, ran } = feature();
    const id = `${ACTION_HOME_QUICK}_price_port`;
    const c = click(id, "approvals all", { userId: REQUESTER, home: true });
    await runAction(id, c.args);
    expect(c.acks.acked).toEqual([undefined]);
    expect(ran).toEqual([]);
  });
});

describe("every Home listener", () => {
  it("is exercised above", () => {
    const { registry } = feature();
    expect(registry.ids("action").sort()).toEqual([...exercised].sort());
    expect([...registry.ids("view"), ...registry.ids("options")]).toEqual([]);
  });
});
