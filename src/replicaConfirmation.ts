import type { Redis } from "ioredis";

/**
 * "Acked means kept, through a failover too" (docs/DESIGN.md §5, issue 31). Redis replicates
 * asynchronously: a write the master acknowledged and then died with may be missing on the
 * replica Sentinel promotes. The writes a person or the provider relies on (a decision, a name
 * reservation, the placement journal's `sending` and `answered`) go through `confirmedWrite`:
 * the write, then `WAIT 1 <timeout>` on the same connection, so the bot goes on only once a
 * replica holds it.
 *
 * - Without replicas (a single Redis, or a master whose replicas are all gone) there is nothing
 *   to confirm on and nothing changes: the count of online replicas is read from `INFO
 *   replication` after the connection (re)connects and at most every `REPLICAS_REFRESH_MS`, and
 *   no WAIT is sent while it is 0.
 * - WAIT counts the writes of its own connection only, so a write is confirmed only if the
 *   connection did not change between the write and the WAIT: ioredis resends a command whose
 *   reply a dropped connection lost, and a WAIT resent to a new master would confirm nothing.
 *   A reconnect in between makes the write unconfirmed (the caller writes again or refuses).
 * - WAIT confirms every write the replica stream carried before it, whichever connection made
 *   it (the stream is one ordered log): the journal's confirmed `sending` also confirms the
 *   approvals store's claim written just before it on another connection.
 *
 * What is not covered (README "Operations", "Redis Sentinel"): a write made while the master had
 * no online replica (e.g. during the seconds a returning replica resyncs) is unconfirmed but
 * accepted, and is lost only if that master dies before the replica catches up and the stale
 * replica is promoted anyway.
 */

/** How long a click or a journal step waits for a replica: well inside Slack's 3-second ack. */
export const REPLICA_WAIT_MS = 1_000;
/** How often the count of connected replicas is read again while writes happen. */
const REPLICAS_REFRESH_MS = 2_000;

export interface ConfirmedWrite<T> {
  value: T;
  /**
   * true when a replica acknowledged the write, or when the master has none to ask; false when
   * it has replicas and none acknowledged within the timeout, or the connection changed.
   */
  confirmed: boolean;
  /** How many replicas acknowledged (0 when there were none to ask). */
  replicas: number;
}

interface ConnectionState {
  /** Incremented whenever the connection is lost: a write and its WAIT must share one. */
  epoch: number;
  replicas: number | undefined;
  readAt: number;
  reading?: Promise<number>;
}

const states = new WeakMap<Redis, ConnectionState>();

function stateOf(redis: Redis): ConnectionState {
  let state = states.get(redis);
  if (!state) {
    const created: ConnectionState = { epoch: 0, replicas: undefined, readAt: 0 };
    // A lost connection, not a new one: a write queued before the first connection is sent
    // on it, while one sent before a drop may have been resent on the next.
    redis.on("close", () => {
      created.epoch += 1;
      created.replicas = undefined;
    });
    states.set(redis, created);
    state = created;
  }
  return state;
}

/** Runs `write` on `redis`, then confirms it on a replica (see the header). */
export async function confirmedWrite<T>(
  redis: Redis,
  write: () => Promise<T>,
  timeoutMs = REPLICA_WAIT_MS,
): Promise<ConfirmedWrite<T>> {
  const state = stateOf(redis);
  const epoch = state.epoch;
  const value = await write();
  const known = await connectedReplicas(redis, state);
  if (state.epoch !== epoch) return { value, confirmed: false, replicas: 0 };
  if (known === 0) return { value, confirmed: true, replicas: 0 };
  const acked = Number(await redis.wait(1, timeoutMs));
  if (state.epoch !== epoch) return { value, confirmed: false, replicas: 0 };
  if (acked >= 1) return { value, confirmed: true, replicas: acked };
  // None answered: perhaps the replica went away meanwhile (then there is none to ask).
  state.readAt = 0;
  const now = await connectedReplicas(redis, state);
  return { value, confirmed: now === 0 && state.epoch === epoch, replicas: 0 };
}

/** The master's count of connected replicas, read at most every REPLICAS_REFRESH_MS. */
async function connectedReplicas(redis: Redis, state: ConnectionState): Promise<number> {
  if (state.replicas !== undefined && Date.now() - state.readAt < REPLICAS_REFRESH_MS) {
    return state.replicas;
  }
  state.reading ??= redis
    .info("replication")
    .then(
      (info) => readConnectedReplicas(info),
      // A managed Redis may refuse INFO: then no replicas are known and nothing is awaited.
      (error: Error) => {
        if (isRefused(error)) return 0;
        throw error;
      },
    )
    .then((count) => {
      state.replicas = count;
      state.readAt = Date.now();
      return count;
    })
    .finally(() => {
      state.reading = undefined;
    });
  return state.reading;
}

/**
 * The replicas of INFO replication that are `online` (`slaveN:…,state=online,…`). One still
 * loading its first copy (`wait_bgsave`, `send_bulk`) acknowledges nothing until it has it, so
 * waiting on it would refuse every click for the seconds of a full resync; it counts once online.
 */
export function readConnectedReplicas(info: string): number {
  return info.split(/\r?\n/).filter((line) => /^slave\d+:.*\bstate=online\b/.test(line)).length;
}

function isRefused(error: Error): boolean {
  return /unknown command|NOPERM|not allowed/i.test(error.message);
}
