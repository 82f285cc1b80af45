import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import type { Logger } from "../../log.js";
import { scanKeys } from "../keys.js";
import { keyLayout } from "./keyLayout.js";
import { LAYOUT_VERSION, type LayoutMigration, MIGRATIONS } from "./migrations.js";
import { moveKey } from "./moveKey.js";

/**
 * Brings the store under `prefix` to the current key layout at start-up, before any part reads
 * or writes it. The layout's version is `<prefix>:{layout}:version` (absent: layout 0, or a new
 * store, where every migration finds nothing to move). One replica migrates, holding
 * `<prefix>:{layout}:lock` (SET NX PX with a random token, renewed while it works, released only
 * by its holder); replicas starting at the same time wait until the version is current, and take
 * over the lock should its holder die (it expires `lockMs` after its last renewal). Each
 * migration that ran is appended to `<prefix>:{layout}:history` (JSON: version, name, keys
 * moved and merged, by whom, when, how long), and the version is written after each, so a
 * migration stopped half way is run again from where the store is.
 */

export interface MigrateOptions {
  logger: Logger;
  /** How long the lock lasts without renewal. Default 30 s; renewed every third of it. */
  lockMs?: number;
  /** How often a waiting replica looks at the version and the lock. Default 250 ms. */
  pollMs?: number;
  /** How long a replica waits for another's migration before start-up fails. Default 15 min. */
  waitMs?: number;
  /** The migrations to run (tests); default MIGRATIONS. */
  migrations?: readonly LayoutMigration[];
}

export interface MigrationReport {
  /** The layout found. */
  from: number;
  /** The layout now (the current one). */
  to: number;
  /** The migrations this replica ran (none when the store was current or another ran them). */
  ran: { version: number; name: string; moved: number; merged: number }[];
  /** Whether this replica waited for another's migration. */
  waited: boolean;
}

/** The store holds a layout newer than this code knows: an older release started on it. */
export class LayoutTooNewError extends Error {
  readonly code = "layout_too_new";
  constructor(found: number, known: number) {
    super(
      `Redis holds key layout ${found}, newer than this version of the bot reads (${known}): run a release that knows layout ${found} or later.`,
    );
  }
}

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export async function migrateLayout(
  redis: Redis,
  prefix: string,
  options: MigrateOptions,
): Promise<MigrationReport> {
  const migrations = options.migrations ?? MIGRATIONS;
  const target = migrations[migrations.length - 1]?.version ?? LAYOUT_VERSION;
  const keys = layoutKeys(prefix);
  const lockMs = options.lockMs ?? 30_000;
  const pollMs = options.pollMs ?? 250;
  const deadline = Date.now() + (options.waitMs ?? 15 * 60_000);
  const from = await versionOf(redis, keys.version, target);
  if (from === target) return { from, to: target, ran: [], waited: false };

  let waited = false;
  let lastSaid = 0;
  for (;;) {
    const token = randomBytes(12).toString("hex");
    if ((await redis.set(keys.lock, token, "PX", lockMs, "NX")) === "OK") {
      try {
        // Read again under the lock: another replica may have finished meanwhile.
        const current = await versionOf(redis, keys.version, target);
        const ran = await runFrom(current, { redis, prefix, keys, token, lockMs, migrations });
        return { from, to: target, ran, waited };
      } finally {
        await redis.eval(RELEASE, 1, keys.lock, token).catch(() => undefined);
      }
    }
    waited = true;
    if ((await versionOf(redis, keys.version, target)) === target) {
      return { from, to: target, ran: [], waited };
    }
    if (Date.now() > deadline) {
      throw new Error(
        `another replica has held the key layout migration lock (${keys.lock}) for too long; start-up stops here`,
      );
    }
    if (Date.now() - lastSaid > 10_000) {
      lastSaid = Date.now();
      options.logger.info(
        { from, to: target },
        "key layout: another replica is migrating; waiting for it",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

interface Run {
  redis: Redis;
  prefix: string;
  keys: ReturnType<typeof layoutKeys>;
  token: string;
  lockMs: number;
  migrations: readonly LayoutMigration[];
}

/** Runs every migration after `current`, keeping the lock alive meanwhile. */
async function runFrom(current: number, run: Run): Promise<MigrationReport["ran"]> {
  const { redis, keys, token, lockMs } = run;
  let lost = false;
  const renewal = setInterval(
    () => {
      redis.eval(RENEW, 1, keys.lock, token, lockMs).then(
        (renewed) => {
          if (renewed !== 1) lost = true;
        },
        () => undefined,
      );
    },
    Math.max(10, Math.floor(lockMs / 3)),
  );
  const stillHeld = () => {
    if (lost) throw new Error("key layout migration: the lock was lost (lock expired); stopping");
  };
  try {
    const ran: MigrationReport["ran"] = [];
    for (const migration of run.migrations.filter((m) => m.version > current)) {
      const started = Date.now();
      let moved = 0;
      let merged = 0;
      for (const pattern of migration.patterns(run.prefix)) {
        for await (const batch of scanKeys(redis, pattern)) {
          stillHeld();
          for (const key of batch) {
            const to = await migration.rename(key, run.prefix);
            if (to === undefined || to === key) continue;
            const outcome = await moveKey(redis, key, to);
            if (outcome === "renamed") moved++;
            if (outcome === "merged") merged++;
          }
        }
      }
      stillHeld();
      const entry = { version: migration.version, name: migration.name, moved, merged };
      await redis.rpush(
        keys.history,
        JSON.stringify({
          ...entry,
          by: token,
          at: new Date().toISOString(),
          ms: Date.now() - started,
        }),
      );
      await redis.set(keys.version, String(migration.version));
      ran.push(entry);
    }
    return ran;
  } finally {
    clearInterval(renewal);
  }
}

/** The layout's own keys (one hash tag: on a cluster they share a slot). */
export function layoutKeys(prefix: string) {
  const base = keyLayout(prefix).layout;
  return { version: `${base}:version`, lock: `${base}:lock`, history: `${base}:history` };
}

async function versionOf(redis: Redis, key: string, known: number): Promise<number> {
  const raw = await redis.get(key);
  const version = raw === null ? 0 : Number(raw);
  if (!Number.isInteger(version) || version < 0) {
    throw new Error(`${key} holds "${raw}", not a key layout version`);
  }
  if (version > known) throw new LayoutTooNewError(version, known);
  return version;
}
