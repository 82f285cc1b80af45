import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { expect } from "vitest";
import { ApprovalStore } from "../../src/approvals/store.js";
import type { ApprovalStoreOptions } from "../../src/approvals/storeOptions.js";
import type { CreateApprovalInput } from "../../src/approvals/types.js";
import { StorageUnavailableError } from "../../src/domain/errors.js";
import { describeFailure, STORAGE_UNAVAILABLE_TEXT } from "../../views/failures.js";
import { deleteKeysMatching } from "../harness/redisKeys.js";

export const REDIS_URL = "redis://127.0.0.1:6379";

/** A unique key prefix for one test file's run; everything under it is deleted afterwards. */
export function runPrefix(name: string): string {
  return `test:${name}:${randomUUID()}:`;
}

export function connect(): Redis {
  return new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: false });
}

/**
 * A real ioredis client pointed at a port nothing listens on, failing fast (no retries, no
 * offline queue, no reconnects): what the stores see while Redis is out of reach.
 */
export function unreachableRedis(): Redis {
  const redis = new Redis({
    host: "127.0.0.1",
    port: 1,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // ioredis reports the refused connection as an event as well; the calls' rejections are the test.
  redis.on("error", () => {});
  return redis;
}

/**
 * `pending` rejects with StorageUnavailableError (code "storage_unavailable", ioredis's own
 * error kept as its cause for the log), and describeFailure words it for a person.
 */
export async function expectStorageUnavailable(pending: Promise<unknown>): Promise<void> {
  const error = await pending.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(StorageUnavailableError);
  expect(error).toMatchObject({ code: "storage_unavailable" });
  expect((error as StorageUnavailableError).cause).toBeInstanceOf(Error);
  expect(describeFailure(error)).toBe(STORAGE_UNAVAILABLE_TEXT);
}

export function deleteKeys(redis: Redis, prefix: string): Promise<number> {
  return deleteKeysMatching(redis, `${prefix}*`);
}

/** A clock that moves one second forward on every reading, so each step has its own time. */
export function tickingClock(startIso = "2025-03-01T10:00:00.000Z"): {
  now: () => Date;
  peek: () => Date;
  advance: (ms: number) => void;
} {
  let t = Date.parse(startIso);
  return {
    now: () => {
      t += 1000;
      return new Date(t);
    },
    peek: () => new Date(t),
    advance: (ms) => {
      t += ms;
    },
  };
}

let storeCount = 0;

/** A store under its own sub-prefix of `prefix`, so tests cannot see each other's indexes. */
export function newStore(
  redis: Redis,
  prefix: string,
  options: Partial<ApprovalStoreOptions> = {},
): { store: ApprovalStore; prefix: string } {
  storeCount += 1;
  const own = options.prefix ?? `${prefix}s${storeCount}:`;
  return {
    store: new ApprovalStore({ redis, prefix: own, ...options }),
    prefix: own,
  };
}

let portCount = 0;

/**
 * A port order as the port-order flow would submit it. Each call asks for a port name of its
 * own (names are reserved: a second live request for one name is refused), unless the
 * overrides give a `reconcileKey`.
 */
export function portOrderInput(overrides: Partial<CreateApprovalInput> = {}): CreateApprovalInput {
  portCount += 1;
  const portName = `syd-core-${String(portCount).padStart(2, "0")}`;
  return {
    kind: "port",
    title: "Port order: 10 Gbps at Equinix SY1, 12 months",
    summary: [
      { label: "Data center", value: "Equinix SY1 (locationId 3)" },
      { label: "Speed", value: "10 Gbps" },
      { label: "Port name", value: portName },
      { label: "Term", value: "12 months" },
      { label: "Diversity zone", value: "red" },
      { label: "Marketplace visibility", value: "private" },
      { label: "Cost centre", value: "NET-OPS" },
      { label: "Price", value: "USD 1,200.00 monthly" },
    ],
    call: {
      operation: "createPortOrder",
      pathParams: {},
      body: [
        {
          locationId: 3,
          speed: 10000,
          term: 12,
          portName,
          diversityZone: "red",
          marketPlaceVisibility: false,
          costCentre: "NET-OPS",
          promoCode: "",
          resources: { interface: [] },
        },
      ],
    },
    reconcileKey: portName,
    price: { monthly: 1200, text: "USD 1,200.00 monthly" },
    requester: { userId: "UREQ00001", channelId: "D0REQ0001" },
    sandbox: true,
    ...overrides,
  };
}
