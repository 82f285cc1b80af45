import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NameReservedError } from "../../../src/approvals/names.js";
import { createLogger } from "../../../src/log.js";
import { literalPattern, scanKeys } from "../../../src/redis/keys.js";
import { layoutKeys, migrateLayout } from "../../../src/redis/layout/migrate.js";
import { LAYOUT_VERSION, type LayoutMigration } from "../../../src/redis/layout/migrations.js";
import { loadLayoutV0, requestsOfLayoutV0 } from "../../fixtures/layout-v0/load.js";
import { deleteKeys, STANDIN_IDS, startTestBot, type TestBot } from "../../harness/botEnv.js";
import { dumpKeys, type KeyDump } from "../../harness/keyDump.js";
import { portOrderRequest } from "../../harness/portOrders.js";
import { deleteKeysMatching } from "../../harness/redisKeys.js";
import { waitFor } from "../../harness/waitFor.js";

/**
 * A store written by layout 0 (test/fixtures/layout-v0, made by that code) is read by the current
 * code after start-up: the bot migrates it, once, however many replicas start together.
 */

const logger = createLogger({ level: "silent" });
const requests = requestsOfLayoutV0();
let redis: Redis;
const prefixes: string[] = [];

/** A fresh prefix holding the layout 0 store. */
async function oldStore(): Promise<string> {
  const prefix = `test:${randomBytes(6).toString("hex")}`;
  prefixes.push(prefix);
  await loadLayoutV0(redis, prefix);
  return prefix;
}

function idOf(name: string): string {
  const request = requests.get(name);
  if (!request) throw new Error(`the fixture has no request named ${name}`);
  return request.id;
}

async function history(prefix: string): Promise<{ version: number; moved: number }[]> {
  const entries = await redis.lrange(layoutKeys(prefix).history, 0, -1);
  return entries.map((entry) => JSON.parse(entry) as { version: number; moved: number });
}

/** Keys under the prefix still named as layout 0 named them. */
async function oldLayoutKeys(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const batch of scanKeys(redis, `${literalPattern(prefix)}:approvalsapproval*`))
    found.push(...batch);
  return found;
}

/** A dump with each TTL as "has one" (they count down between two dumps). */
function withoutClock(dump: KeyDump): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(dump.keys).map(([key, { ttlMs, ...value }]) => [
      key,
      { ...value, expires: ttlMs !== undefined },
    ]),
  );
}

beforeAll(() => {
  redis = new Redis("redis://127.0.0.1:6379");
});
afterAll(async () => {
  for (const prefix of prefixes) await deleteKeysMatching(redis, `${literalPattern(prefix)}*`);
  redis.disconnect();
});

it("the fixture holds a request in every status the store has", () => {
  expect([...requests.values()].map((r) => r.status).sort()).toEqual([
    "approved",
    "cancelled",
    "executing",
    "failed",
    "pending",
    "placed",
    "rejected",
    "unknown",
  ]);
});

describe("an old-layout store after start-up", () => {
  let env: TestBot;
  let prefix: string;

  beforeAll(async () => {
    prefix = await oldStore();
    env = await startTestBot({ redisPrefix: prefix });
  });
  afterAll(async () => {
    await env?.close();
  });

  it("is read by the current code: every record, the pending list, the audit list", async () => {
    const store = env.bot.services.approvals.store;
    for (const [name, { id, status }] of requests) {
      if (name === "fixture-approved") continue; // placed by its queued job (below)
      const record = await store.get(id);
      expect({ name, status: record?.status, title: record?.title }).toEqual({
        name,
        status,
        title: name,
      });
    }
    expect((await store.listPending()).map((r) => r.id)).toEqual([idOf("fixture-pending")]);
    expect((await store.list({ limit: 50 })).map((r) => r.id).sort()).toEqual(
      [...requests.values()].map((r) => r.id).sort(),
    );
    expect(await oldLayoutKeys(prefix)).toEqual([]);
    expect(await redis.get(layoutKeys(prefix).version)).toBe(String(LAYOUT_VERSION));
  });

  it("leaves no key without a hash tag, the old store's or the bot's own since", async () => {
    const untagged: string[] = [];
    for await (const batch of scanKeys(redis, `${literalPattern(prefix)}*`))
      untagged.push(...batch.filter((key) => !/\{[^}]+\}/.test(key)));
    expect(untagged).toEqual([]);
  });

  it("still refuses a name held by a request of the old layout, and frees a released one", async () => {
    const store = env.bot.services.approvals.store;
    const { companyUsername } = await env.bot.services.identity();
    const submission = (portName: string) => ({
      ...portOrderRequest({
        portName,
        companyUsername,
        dataCenterFacility: "dcf-x",
        speed: "1000",
      }),
      sandbox: true,
    });
    for (const held of ["fixture-pending", "fixture-placed", "fixture-unknown"]) {
      const refused = await store.create(submission(held)).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(NameReservedError);
      expect((refused as NameReservedError).heldBy).toBe(idOf(held));
    }
    // The rejected request released its name when layout 0 rejected it.
    const reused = await store.create(submission("fixture-rejected"));
    expect(reused.status).toBe("pending");
  });

  it("runs the jobs layout 0 queued: its placement is placed once, its tracking resumes", async () => {
    const store = env.bot.services.approvals.store;
    await waitFor(async () => (await store.get(idOf("fixture-approved")))?.status === "placed", {
      timeoutMs: 20_000,
      description: "the placement queued by layout 0 placed",
    });
    const summary = (await (
      await fetch(`${env.bot.sandbox!.url}/__sandbox/requests?summary=1`)
    ).json()) as { byOperation: Record<string, number> };
    expect(summary.byOperation.createPortOrder).toBe(1);

    const placed = await store.get(idOf("fixture-placed"));
    const orderId = placed?.result?.providerId;
    if (!orderId) throw new Error("the placed fixture request has no order id");
    // Layout 0's tracker had checked once; its step job, delayed in the old queue, runs again.
    await waitFor(
      async () => {
        const tracked = await env.bot.jobs.tracker.get(orderId);
        return tracked !== null && tracked.checks + tracked.failures > 1;
      },
      { timeoutMs: 20_000, description: "layout 0's tracker checking the order again" },
    );
    await env.standin.waitForMessage(STANDIN_IDS.general, (m) =>
      m.text.includes("A message queued before the upgrade"),
    );
  });
});

describe("replicas starting together", () => {
  it("migrate once, and both read the migrated store", async () => {
    const prefix = await oldStore();
    const [a, b] = await Promise.all([
      startTestBot({ redisPrefix: prefix }),
      startTestBot({ redisPrefix: prefix }),
    ]);
    try {
      expect((await history(prefix)).map((entry) => entry.version)).toEqual(
        Array.from({ length: LAYOUT_VERSION }, (_, i) => i + 1),
      );
      const migrated = [a, b].filter((env) =>
        env.logLines.some((line) => line.includes("key layout migrated")),
      );
      expect(migrated).toHaveLength(1);
      for (const env of [a, b]) {
        const record = await env.bot.services.approvals.store.get(idOf("fixture-pending"));
        expect(record?.status).toBe("pending");
      }
    } finally {
      // Both share the prefix: the second close finds it deleted already.
      await a.close();
      await b.close();
    }
  });

  it("wait for a migration that outlasts the lock's life: its holder renews it", async () => {
    const prefix = `test:${randomBytes(6).toString("hex")}`;
    prefixes.push(prefix);
    await redis.set(`${prefix}:slow:a`, "1");
    const lockMs = 90;
    // One key whose move takes over four times the lock's life (a large store's migration).
    const slow: LayoutMigration = {
      version: 1,
      name: "slow",
      patterns: (p) => [`${literalPattern(p)}:slow:*`],
      rename: async (key) => {
        await new Promise((resolve) => setTimeout(resolve, 4 * lockMs));
        return key.replace(":slow:", ":moved:");
      },
    };
    const options = { logger, lockMs, pollMs: 5, migrations: [slow] };
    const first = migrateLayout(redis, prefix, options);
    // The second starts once the first holds the lock.
    await waitFor(async () => (await redis.exists(layoutKeys(prefix).lock)) === 1);
    const replica = redis.duplicate();
    const second = await migrateLayout(replica, prefix, options).finally(() =>
      replica.disconnect(),
    );
    expect((await first).ran.map((r) => r.moved)).toEqual([1]);
    expect(second).toMatchObject({ ran: [], waited: true });
    expect(await history(prefix)).toHaveLength(1);
    expect(await redis.get(`${prefix}:moved:a`)).toBe("1");
  });

  it("wait for a replica that holds the lock, and take it over when that replica dies", async () => {
    const prefix = await oldStore();
    const { lock } = layoutKeys(prefix);
    // A replica that took the lock and died: its lock lasts until it expires.
    await redis.set(lock, "dead-replica", "PX", 400);
    const report = await migrateLayout(redis, prefix, { logger, pollMs: 20 });
    expect(report.waited).toBe(true);
    expect(report.ran.map((r) => r.version)).toEqual(
      Array.from({ length: LAYOUT_VERSION }, (_, i) => i + 1),
    );
    expect(await redis.exists(lock)).toBe(0);
  });
});

describe("a second start", () => {
  it("changes nothing", async () => {
    const prefix = await oldStore();
    const first = await migrateLayout(redis, prefix, { logger });
    expect(first.from).toBe(0);
    expect(first.ran.reduce((sum, r) => sum + r.moved, 0)).toBeGreaterThan(20);
    const before = withoutClock(await dumpKeys(redis, prefix, "migrated"));
    // Where each key of the old store went (the README's layout table).
    expect(Object.keys(before).filter((key) => !key.includes("{"))).toEqual([]);
    for (const key of [
      `<prefix>:{approvals}:approval:${idOf("fixture-pending")}`,
      "<prefix>:{approvals}:approvals:status:pending",
      "<prefix>:{approvals}:approvals:name:port:fixture-pending",
      `<prefix>:{orders}:lookup:${idOf("fixture-unknown")}`,
      "<prefix>:{home}:page:U0REQUEST1",
      "<prefix>:jobs:{notifier}:outbox:C0GENERAL1",
      "<prefix>:jobs:{tracker}:open",
      `<prefix>:jobs:{placement}:journal:${idOf("fixture-placed")}`,
      `<prefix>:jobs:{placement}:placement:place-${idOf("fixture-approved")}`,
      "<prefix>:jobs:{order-tracking}:order-tracking:delayed",
    ])
      expect(before[key], key).toBeDefined();
    expect(Object.keys(before).some((key) => key.startsWith("<prefix>:{replay}:slack:seen:"))).toBe(
      true,
    );
    const second = await migrateLayout(redis, prefix, { logger });
    expect(second).toEqual({ from: LAYOUT_VERSION, to: LAYOUT_VERSION, ran: [], waited: false });
    expect(withoutClock(await dumpKeys(redis, prefix, "migrated"))).toEqual(before);

    // The bot's own start on the migrated store runs no migration either.
    const env = await startTestBot({ redisPrefix: prefix });
    try {
      expect(env.logLines.some((line) => line.includes("key layout migrated"))).toBe(false);
      expect(await history(prefix)).toHaveLength(LAYOUT_VERSION);
    } finally {
      await env.close();
    }
  });

  it("of an older release on a newer layout is refused", async () => {
    const prefix = `test:${randomBytes(6).toString("hex")}`;
    prefixes.push(prefix);
    await redis.set(layoutKeys(prefix).version, String(LAYOUT_VERSION + 1));
    await expect(migrateLayout(redis, prefix, { logger })).rejects.toThrow(
      `Redis holds key layout ${LAYOUT_VERSION + 1}, newer than this version of the bot reads`,
    );
  });
});

describe("a new store", () => {
  it("is marked current without moving anything", async () => {
    const prefix = `test:${randomBytes(6).toString("hex")}`;
    prefixes.push(prefix);
    const report = await migrateLayout(redis, prefix, { logger });
    expect(report.ran.every((r) => r.moved === 0 && r.merged === 0)).toBe(true);
    expect(await redis.get(layoutKeys(prefix).version)).toBe(String(LAYOUT_VERSION));
    await deleteKeys(prefix);
  });
});
