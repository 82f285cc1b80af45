import { QUEUE_NAMES } from "../../jobs/queues.js";
import { literalPattern } from "../keys.js";

/**
 * The key layout's migrations, oldest first. Each one moves keys of the layout before it to the
 * names of its own (`moveKey`: values and times to live kept) and nothing else, so running it
 * again finds nothing to move. src/redis/layout/README.md shows each layout's keys.
 */
export interface LayoutMigration {
  /** The layout this migration produces (the one before it is `version - 1`). */
  version: number;
  /** What it does, in the history (`<prefix>:{layout}:history`) and the logs. */
  name: string;
  /** SCAN patterns matching the keys it may move, under the bot's prefix. */
  patterns(prefix: string): string[];
  /**
   * A matched key's new name, or undefined when the key is not this migration's to move (a
   * promise where working it out needs Redis).
   */
  rename(key: string, prefix: string): string | undefined | Promise<string | undefined>;
}

/**
 * Layout 0 → 1: the approvals store's prefix was `<prefix>:approvals` with no separator after
 * it, so its keys read `<prefix>:approvalsapproval:<id>`, `…approvalsapprovals:created` (and
 * `:expires`, `:status:<status>`, `:name:<scope>:<name>`). They become
 * `<prefix>:approvals:approval:<id>`, `<prefix>:approvals:approvals:created` and so on. The ids
 * inside (index members, a name key's value) name no key, so a rename is the whole move.
 */
const separator: LayoutMigration = {
  version: 1,
  name: "the approvals store's keys get their separator",
  patterns: (prefix) => [`${literalPattern(prefix)}:approvalsapproval*`],
  rename(key, prefix) {
    const old = `${prefix}:approvalsapproval`;
    return key.startsWith(old) ? `${prefix}:approvals:approval${key.slice(old.length)}` : undefined;
  },
};

const QUEUES: ReadonlySet<string> = new Set(Object.values(QUEUE_NAMES));

/** The parts whose keys are `<prefix>:<part>:…` in layout 1 and `<prefix>:{<part>}:…` in 2. */
const TAGGED_PARTS = ["approvals", "orders", "home"] as const;

/**
 * Layout 1 → 2: every key carries a Redis Cluster hash tag, so each script's keys are in one
 * slot (src/redis/layout/README.md has the table):
 * - the approvals store, the orders' notes and App Home pages: `<prefix>:{<part>}:…`;
 * - the replay guard's signatures: `<prefix>:{replay}:slack:seen:…`;
 * - the jobs' state: `<prefix>:jobs:{<area>}:…` (stateKey);
 * - each BullMQ queue under its own prefix `<prefix>:jobs:{<queue>}`, so a queue's keys read
 *   `<prefix>:jobs:{<queue>}:<queue>:…` (queuePrefix). `placement` is both a queue and an area:
 *   its `journal` and `told` keys are the area's, the rest the queue's.
 */
const clusterTags: LayoutMigration = {
  version: 2,
  name: "every key carries a hash tag (the Redis Cluster layout)",
  patterns: (prefix) => {
    const base = literalPattern(prefix);
    return [...TAGGED_PARTS, "slack:seen", "jobs"].map((part) => `${base}:${part}:*`);
  },
  rename(key, prefix) {
    for (const part of TAGGED_PARTS) {
      const old = `${prefix}:${part}:`;
      if (key.startsWith(old)) return `${prefix}:{${part}}:${key.slice(old.length)}`;
    }
    if (key.startsWith(`${prefix}:slack:seen:`)) {
      return `${prefix}:{replay}:${key.slice(prefix.length + 1)}`;
    }
    const jobs = `${prefix}:jobs:`;
    if (!key.startsWith(jobs)) return undefined;
    const rest = key.slice(jobs.length);
    const colon = rest.indexOf(":");
    const area = colon === -1 ? rest : rest.slice(0, colon);
    const tail = colon === -1 ? "" : rest.slice(colon + 1);
    if (area === "" || area.startsWith("{")) return undefined;
    const isAreaKey = area === "placement" && /^(journal|told):/.test(tail);
    if (QUEUES.has(area) && !isAreaKey) return `${jobs}{${area}}:${rest}`;
    return `${jobs}{${area}}${colon === -1 ? "" : `:${tail}`}`;
  },
};

export const MIGRATIONS: readonly LayoutMigration[] = [separator, clusterTags];

/** The layout this code writes: the last migration's. */
export const LAYOUT_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
