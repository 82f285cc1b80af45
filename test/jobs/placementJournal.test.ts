import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PlacementJournal } from "../../src/orders/placement/journal.js";
import { ORDER_1 } from "./placementSupport.js";
import { connect, deleteKeys, manualClock, runPrefix } from "./support.js";

const ID = "apr_aaaaaaaaaaaaaaaa";

/** The journal's steps on their own: each a compare-and-set, each safe to repeat. */
describe("placement journal steps", () => {
  let redis: Redis;
  const prefix = runPrefix("placement-journal-steps");
  let n = 0;

  /** A fresh journal entry space per test (one approval id, its own prefix). */
  function journal(): PlacementJournal {
    n += 1;
    return new PlacementJournal({ redis, prefix: `${prefix}:${n}`, now: manualClock().now });
  }

  beforeAll(() => {
    redis = connect();
  });

  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it("moves claimed → sending → answered, only as the claim's owner", async () => {
    const j = journal();
    expect(await j.read(ID)).toBeNull();
    await j.intend(ID, 1);
    expect(await j.read(ID)).toMatchObject({ attempt: 1, state: "claimed", owner: "" });
    expect(await j.startSending(ID, 1, "a")).toBe(false); // nobody named yet
    expect(await j.own(ID, 1, "a", "")).toBe(true);
    expect(await j.own(ID, 1, "b", "")).toBe(false); // taken by a, not by "" any more
    expect(await j.startSending(ID, 1, "b")).toBe(false);
    expect(await j.startSending(ID, 1, "a")).toBe(true);
    // Repeated (a command resent after a reconnect): its own write, so still yes.
    expect(await j.startSending(ID, 1, "a")).toBe(true);
    // Nobody can take over or send again once it is sending.
    expect(await j.own(ID, 1, "b", "a")).toBe(false);
    expect(await j.startSending(ID, 1, "b")).toBe(false);
    expect(await j.recordAnswer(ID, 1, { outcome: "placed", result: ORDER_1 })).toBe("recorded");
    expect(await j.recordAnswer(ID, 1, { outcome: "placed", result: ORDER_1 })).toBe("recorded");
    expect(await j.read(ID)).toMatchObject({
      attempt: 1,
      state: "answered",
      owner: "a",
      answer: { outcome: "placed", result: ORDER_1 },
    });
  });

  it("a takeover names the new owner, and the old one can no longer send", async () => {
    const j = journal();
    await j.intend(ID, 1);
    await j.own(ID, 1, "a", "");
    expect(await j.own(ID, 1, "b", "a")).toBe(true);
    expect(await j.startSending(ID, 1, "a")).toBe(false);
    expect(await j.startSending(ID, 1, "b")).toBe(true);
  });

  it("a later attempt starts afresh, an earlier one never overwrites it, and every answer is kept", async () => {
    const j = journal();
    await j.intend(ID, 1);
    await j.own(ID, 1, "a", "");
    await j.startSending(ID, 1, "a");
    // A person placed it again after a look-up found nothing: attempt 2.
    await j.intend(ID, 2);
    await j.intend(ID, 1); // a stale worker's intent: ignored
    expect(await j.read(ID)).toMatchObject({ attempt: 2, state: "claimed", owner: "" });
    expect(await j.own(ID, 1, "a", "a")).toBe(false);
    // Attempt 1's answer arrives late: kept, but attempt 2's entry stays as it is.
    const late = { outcome: "placed", result: ORDER_1 } as const;
    expect(await j.recordAnswer(ID, 1, late)).toBe("newer-attempt");
    expect(await j.read(ID)).toEqual({
      attempt: 2,
      state: "claimed",
      owner: "",
      at: expect.any(String),
    });
    expect(await redis.hget(j.key(ID), "answer.1")).toBe(JSON.stringify(late));
  });

  it("records an answer even where the entry was lost, and keeps it for as long as approvals", async () => {
    const j = journal();
    const refused = { outcome: "refused", error: { message: "no", httpStatus: 400 } } as const;
    expect(await j.recordAnswer(ID, 3, refused)).toBe("recorded");
    expect(await j.read(ID)).toMatchObject({ attempt: 3, state: "answered", answer: refused });
    const ttlDays = (await redis.pttl(j.key(ID))) / 86_400_000;
    expect(ttlDays).toBeGreaterThan(99);
  });

  it("reads an unreadable answer as none (looked up, never resent)", async () => {
    const j = journal();
    await j.intend(ID, 1);
    await redis.hset(j.key(ID), "state", "answered", "answer.1", "{not json");
    expect(await j.read(ID)).toEqual({
      attempt: 1,
      state: "answered",
      owner: "",
      at: expect.any(String),
    });
    await redis.hset(j.key(ID), "state", "exploded");
    expect(await j.read(ID)).toBeNull();
  });

  it("keeps a huge provider record out of the journal (its ids stay)", async () => {
    const j = journal();
    const result = {
      providerId: "order-9",
      status: "created",
      record: { blob: "x".repeat(20_000) },
    };
    await j.recordAnswer(ID, 1, { outcome: "placed", result });
    expect((await j.read(ID))?.answer).toEqual({
      outcome: "placed",
      result: {
        providerId: "order-9",
        status: "created",
        record: { omitted: "provider record larger than 16384 bytes", bytes: 20_011 },
      },
    });
  });
});
