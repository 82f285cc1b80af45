import { literalPattern } from "../redisKeys.js";

/**
 * The key layout's migrations, oldest first. Each one moves keys of the layout before it to the
 * names of its own (`moveKey`: values and times to live kept) and nothing else, so running it
 * again finds nothing to move. src/redisLayout/README.md shows each layout's keys.
 */
export interface LayoutMigration {
  /** The layout this migration produces (the one before it is `version - 1`). */
  version: number;
  /** What it does, in the history (`<prefix>:{layout}:history`) and the logs. */
  name: string;
  /** SCAN patterns matching the keys it may move, under the bot's prefix. */
  patterns(prefix: string): string[];
  /** A matched key's new name, or undefined when the key is not this migration's to move. */
  rename(key: string, prefix: string): string | undefined;
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

export const MIGRATIONS: readonly LayoutMigration[] = [separator];

/** The layout this code writes: the last migration's. */
export const LAYOUT_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
