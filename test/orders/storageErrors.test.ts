import { afterAll, describe, it } from "vitest";
import { newApprovalId } from "../../src/approvals/keys.js";
import type { ApprovalRequest } from "../../src/approvals/types.js";
import { LifecycleNotes } from "../../src/orders/lifecycleNotes.js";
import { ProgressStore } from "../../src/orders/progress.js";
import { expectStorageUnavailable, unreachableRedis } from "../approvals/support.js";

/**
 * src/orders' own Redis reads and writes (what tracking said, the last look-up, the card
 * notices) raise StorageUnavailableError when Redis is out of reach, like the approvals store.
 */
describe("src/orders when Redis is out of reach", () => {
  const redis = unreachableRedis();
  const progress = new ProgressStore(redis, "test:orders-storage-errors:progress");
  const notes = new LifecycleNotes(redis, "test:orders-storage-errors");
  const id = newApprovalId();
  // The notes read only a request's id and attempt.
  const record = { id, attempts: 1 } as ApprovalRequest;

  afterAll(() => {
    redis.disconnect();
  });

  const calls: Array<[string, () => Promise<unknown>]> = [
    ["progress.record", () => progress.record(id, "e1", { status: "LIVE" })],
    ["progress.get", () => progress.get(id)],
    ["progress.many", () => progress.many([id])],
    [
      "notes.recordLookUp",
      () => notes.recordLookUp(record, { kind: "not-found", detail: "nothing yet" }),
    ],
    ["notes.lastLookUp", () => notes.lastLookUp(record)],
    ["notes.firstCardNotice", () => notes.firstCardNotice("UREQ00001", "C0ORDERS")],
  ];

  it.each(calls)("%s rejects with StorageUnavailableError", async (_name, call) => {
    await expectStorageUnavailable(call());
  });
});
