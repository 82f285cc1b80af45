import { afterAll, describe, expect, it } from "vitest";
import { newApprovalId } from "../../src/approvals/keys.js";
import { ApprovalStore } from "../../src/approvals/store.js";
import { ApprovalInputError } from "../../src/approvals/types.js";
import { expectStorageUnavailable, portOrderInput, unreachableRedis } from "./support.js";

/**
 * A real ioredis client pointed at a port nothing listens on: every store call goes through
 * the store's one way to Redis and rejects with StorageUnavailableError (code
 * "storage_unavailable"), which views/failures.ts words for a person.
 */
describe("ApprovalStore when Redis is out of reach", () => {
  const redis = unreachableRedis();
  const store = new ApprovalStore({ redis, prefix: "test:storage-errors:" });
  const id = newApprovalId();

  afterAll(() => {
    redis.disconnect();
  });

  const calls: Array<[string, () => Promise<unknown>]> = [
    ["create", () => store.create(portOrderInput())],
    ["get", () => store.get(id)],
    ["mergeSlackRefs", () => store.mergeSlackRefs(id, { approvalTs: "1700000000.000100" })],
    [
      "keepApprovalMessage",
      () =>
        store.keepApprovalMessage(id, {
          approvalChannel: "C0APPROVALS",
          approvalTs: "1700000000.1",
        }),
    ],
    ["approve", () => store.approve(id, { by: "U0APPROVER1" })],
    [
      "decide (reject)",
      () => store.decide(id, { by: "U0APPROVER1", action: "reject", reason: "no" }),
    ],
    ["cancel", () => store.cancel(id, "UREQ00001")],
    ["claim", () => store.claim(id, "worker-1")],
    ["retry", () => store.retry(id, "U0APPROVER1")],
    ["list", () => store.list()],
    ["listPending", () => store.listPending()],
    ["findByStatus", () => store.findByStatus("approved")],
  ];

  it.each(calls)("%s rejects with StorageUnavailableError", async (_name, call) => {
    await expectStorageUnavailable(call());
  });

  it("still refuses bad input as input, before any Redis call", async () => {
    await expect(store.create({ ...portOrderInput(), title: "" })).rejects.toBeInstanceOf(
      ApprovalInputError,
    );
  });
});
