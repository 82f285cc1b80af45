import type { Redis } from "ioredis";
import type { ApprovalRecordError, ApprovalStatus } from "./types.js";

/** How an ApprovalStore (store.ts) is built, and what its audit list takes. */

export interface ApprovalStoreOptions {
  redis: Redis;
  /** Prefix of every key, e.g. `connect:`; tests use a unique one per run. */
  prefix: string;
  /** How long a record is kept after its last change; at least 90 (docs/DESIGN.md: kept ≥ 90 days). */
  retentionDays?: number;
  now?: () => Date;
  /** Told about records a list skips because they cannot be read (e.g. to log them). */
  onInvalidRecord?: (error: ApprovalRecordError) => void;
  /**
   * How long a decision or a name reservation waits for a replica to hold it (WAIT) before it
   * counts as not recorded; see store.ts `confirmed`. Default 1 s (src/replicaConfirmation.ts).
   */
  replicaWaitMs?: number;
}

export interface ListOptions {
  /** Only requests created at or after this time. */
  since?: Date;
  status?: ApprovalStatus;
  /** Default 50, at most 1000. */
  limit?: number;
}
