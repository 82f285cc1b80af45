import { parse } from "csv-parse/sync";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalStore } from "../../../src/approvals/store.js";
import type { ApprovalKind, CreateApprovalInput, Price } from "../../../src/approvals/types.js";
import { readRequest } from "../../../src/orders/readModel.js";
import {
  type LedgerMonth,
  ledgerEntries,
  monthlySpend,
  parseLedgerMonth,
} from "../../../src/orders/spend/ledger.js";
import { LEDGER_CSV_COLUMNS, ledgerCsv } from "../../../src/orders/spend/ledgerCsv.js";
import {
  connect,
  deleteKeys,
  newStore,
  portOrderInput,
  runPrefix,
} from "../../approvals/support.js";

// The spend ledger's sums, against approval records seeded in a real store (Redis, this run's
// prefix) and walked through the real state machine: only placed ones count, each in the month
// it was placed, running until its term ends.

let redis: Redis;
const prefix = runPrefix("ledger");

beforeAll(() => {
  redis = connect();
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  await redis.quit();
});

const ALEX = "U0APPROVE1";
const RITA = "U0REQUEST1";
const GRACE = "U0APPROVE2";

function month(key: string): LedgerMonth {
  const parsed = parseLedgerMonth(key);
  if (!parsed) throw new Error(`bad month ${key}`);
  return parsed;
}

interface Seed {
  kind: ApprovalKind;
  name: string;
  requester: string;
  channel?: string;
  price?: Omit<Price, "text">;
  /** When it was created and decided; placed a minute later. */
  at: string;
  outcome: "placed" | "rejected" | "cancelled" | "failed" | "pending";
}

/** Seeds one request and moves it through the store's real steps to its outcome. */
async function seed(store: ApprovalStore, clock: { set(iso: string): void }, s: Seed) {
  clock.set(s.at);
  const input: CreateApprovalInput = {
    ...portOrderInput({ reconcileKey: s.name }),
    kind: s.kind,
    title: `${s.name}: seeded`,
    requester: { userId: s.requester, ...(s.channel ? { channelId: s.channel } : {}) },
    price: { text: "seeded", ...s.price },
  };
  const created = await store.create(input);
  if (s.outcome === "pending") return created.id;
  if (s.outcome === "cancelled") {
    expect((await store.cancel(created.id, s.requester)).ok).toBe(true);
    return created.id;
  }
  if (s.outcome === "rejected") {
    expect((await store.decide(created.id, { by: ALEX, action: "reject", reason: "no" })).ok).toBe(
      true,
    );
    return created.id;
  }
  expect((await store.decide(created.id, { by: ALEX, action: "approve" })).ok).toBe(true);
  expect((await store.claim(created.id, "worker-1")).ok).toBe(true);
  clock.set(new Date(Date.parse(s.at) + 60_000).toISOString());
  const done =
    s.outcome === "placed"
      ? await store.complete(created.id, {
          providerId: `ord-${s.name}`,
          status: "created",
          record: {},
        })
      : await store.fail(created.id, { message: "refused" });
  expect(done.ok).toBe(true);
  return created.id;
}

describe("the spend ledger's sums over seeded approvals", () => {
  let store: ApprovalStore;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const clock = {
      set(iso: string) {
        now = Date.parse(iso);
      },
    };
    ({ store } = newStore(redis, prefix, { now: () => new Date(now) }));
    const seeds: Seed[] = [
      // September: a one-year port (runs until next September) and a month-to-month port.
      {
        kind: "port",
        name: "sep-port-1y",
        requester: RITA,
        channel: "C0GENERAL1",
        price: { monthly: 1000, total: 12000, termMonths: 12 },
        at: "2026-09-10T09:00:00Z",
        outcome: "placed",
      },
      {
        kind: "port",
        name: "sep-port-1m",
        requester: RITA,
        channel: "C0GENERAL1",
        price: { monthly: 300, total: 300, termMonths: 1 },
        at: "2026-09-20T09:00:00Z",
        outcome: "placed",
      },
      // October: a layer 2 by Grace, and an old-style record with no term (term unknown).
      {
        kind: "layer2",
        name: "oct-l2",
        requester: GRACE,
        channel: "C0APPROVALS",
        price: { monthly: 250.5, total: 3006, termMonths: 12 },
        at: "2026-10-05T12:00:00Z",
        outcome: "placed",
      },
      {
        kind: "edge",
        name: "oct-edge-old",
        requester: RITA,
        price: { monthly: 99.25 },
        at: "2026-10-31T23:58:00Z",
        outcome: "placed",
      },
      // November: an Edge port (total from monthly × term), an IO-D (no amounts), and requests
      // that committed nothing: rejected, cancelled, failed, pending.
      {
        kind: "edge",
        name: "nov-edge",
        requester: GRACE,
        channel: "C0GENERAL1",
        price: { monthly: 500, termMonths: 24 },
        at: "2026-11-02T08:00:00Z",
        outcome: "placed",
      },
      {
        kind: "iod",
        name: "nov-iod",
        requester: RITA,
        channel: "C0GENERAL1",
        at: "2026-11-03T08:00:00Z",
        outcome: "placed",
      },
      {
        kind: "port",
        name: "nov-rejected",
        requester: RITA,
        price: { monthly: 7777, total: 7777 * 12, termMonths: 12 },
        at: "2026-11-04T08:00:00Z",
        outcome: "rejected",
      },
      {
        kind: "port",
        name: "nov-cancelled",
        requester: RITA,
        price: { monthly: 8888, termMonths: 12 },
        at: "2026-11-04T09:00:00Z",
        outcome: "cancelled",
      },
      {
        kind: "port",
        name: "nov-failed",
        requester: RITA,
        price: { monthly: 9999, termMonths: 12 },
        at: "2026-11-04T10:00:00Z",
        outcome: "failed",
      },
      {
        kind: "layer2",
        name: "nov-pending",
        requester: GRACE,
        price: { monthly: 6666, termMonths: 12 },
        at: "2026-11-05T10:00:00Z",
        outcome: "pending",
      },
    ];
    for (const s of seeds) ids[s.name] = await seed(store, clock, s);
  });

  async function spendIn(key: string) {
    const placed = (await store.findByStatus("placed")).map((record) => readRequest(record));
    const entries = ledgerEntries(placed, "USD");
    return monthlySpend(entries, month(key), "USD");
  }

  it("counts only placed orders, each in the month it was placed and while its term runs", async () => {
    const september = await spendIn("2026-09");
    expect(september.totals).toEqual({
      committedMonthly: 1300,
      running: 2,
      runningPayAsYouGo: 0,
      newMonthly: 1300,
      newTotal: 12300,
      placed: 2,
      placedPayAsYouGo: 0,
    });

    const october = await spendIn("2026-10");
    // The month-to-month port placed 20 September ran into October; the 1-year port runs on.
    expect(october.totals).toEqual({
      committedMonthly: 1000 + 300 + 250.5 + 99.25,
      running: 4,
      runningPayAsYouGo: 0,
      newMonthly: 349.75,
      // The old record has no term and no total: it adds nothing to the total commitment.
      newTotal: 3006,
      placed: 2,
      placedPayAsYouGo: 0,
    });
    expect(october.termUnknown).toBe(1);

    const november = await spendIn("2026-11");
    // The month-to-month port ended on 20 October; rejected, cancelled, failed and pending
    // requests committed nothing.
    expect(november.totals).toEqual({
      committedMonthly: 1000 + 250.5 + 99.25 + 500,
      running: 5,
      runningPayAsYouGo: 1,
      newMonthly: 500,
      newTotal: 500 * 24,
      placed: 2,
      placedPayAsYouGo: 1,
    });
    // IO-D is pay as you go: counted as an order, never as a missing (0.00) amount.
    expect(november.noMonthly).toBe(0);
    expect(november.payAsYouGo).toBe(1);
    expect(november.entries.map((e) => e.name)).not.toContain("sep-port-1m");
    for (const name of ["nov-rejected", "nov-cancelled", "nov-failed", "nov-pending"]) {
      expect(november.entries.map((e) => e.name)).not.toContain(name);
    }
  });

  it("groups by kind, requester and channel", async () => {
    const november = await spendIn("2026-11");
    const byKind = Object.fromEntries(november.byKind.map((g) => [g.key, g]));
    expect(byKind.port).toMatchObject({ committedMonthly: 1000, running: 1, placed: 0 });
    expect(byKind.layer2).toMatchObject({ committedMonthly: 250.5, running: 1 });
    expect(byKind.edge).toMatchObject({
      committedMonthly: 599.25,
      running: 2,
      placed: 1,
      newTotal: 12000,
    });
    expect(byKind.iod).toMatchObject({
      committedMonthly: 0,
      running: 1,
      runningPayAsYouGo: 1,
      placed: 1,
      placedPayAsYouGo: 1,
    });
    expect(byKind.port).toMatchObject({ runningPayAsYouGo: 0 });

    const byRequester = Object.fromEntries(november.byRequester.map((g) => [g.key, g]));
    expect(byRequester[RITA]).toMatchObject({ committedMonthly: 1099.25, running: 3, placed: 1 });
    expect(byRequester[GRACE]).toMatchObject({ committedMonthly: 750.5, running: 2, placed: 1 });
    // Largest committed first.
    expect(november.byRequester.map((g) => g.key)).toEqual([RITA, GRACE]);

    const byChannel = Object.fromEntries(november.byChannel.map((g) => [g.key, g]));
    expect(byChannel.C0GENERAL1).toMatchObject({ committedMonthly: 1500, running: 3 });
    expect(byChannel.C0APPROVALS).toMatchObject({ committedMonthly: 250.5 });
    // The old record kept no channel.
    expect(byChannel[""]).toMatchObject({ committedMonthly: 99.25 });
  });

  it("a month before anything was placed is empty", async () => {
    const august = await spendIn("2026-08");
    expect(august.entries).toEqual([]);
    expect(august.totals.committedMonthly).toBe(0);
  });

  it("exports the month's orders as CSV that a CSV parser reads back row for row", async () => {
    const november = await spendIn("2026-11");
    const rows = parse(ledgerCsv(november), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0] ?? {})).toEqual([...LEDGER_CSV_COLUMNS]);
    expect(rows.map((r) => r.name)).toEqual([
      "sep-port-1y",
      "oct-l2",
      "oct-edge-old",
      "nov-edge",
      "nov-iod",
    ]);
    const edge = rows.find((r) => r.name === "nov-edge");
    expect(edge).toMatchObject({
      "request id": ids["nov-edge"],
      kind: "edge",
      requester: GRACE,
      approvers: ALEX,
      "placed at": "2026-11-02T08:01:00.000Z",
      "monthly amount": "500.00",
      term: "24 months",
      "total commitment": "12000.00",
      currency: "USD",
      // The read model's words, as every surface says them.
      status: "Ordered",
    });
    // Pay as you go has no amount: both amount columns say so, never 0.00.
    expect(rows.find((r) => r.name === "nov-iod")).toMatchObject({
      "monthly amount": "pay as you go",
      "total commitment": "pay as you go",
    });
    expect(rows.find((r) => r.name === "oct-edge-old")).toMatchObject({
      term: "term unknown",
      "total commitment": "",
    });
  });
});

describe("month arguments", () => {
  it("reads YYYY-MM and refuses anything else", () => {
    expect(parseLedgerMonth("2026-11")).toEqual({
      key: "2026-11",
      start: new Date("2026-11-01T00:00:00Z"),
      end: new Date("2026-12-01T00:00:00Z"),
    });
    expect(parseLedgerMonth("2026-12")?.end).toEqual(new Date("2027-01-01T00:00:00Z"));
    for (const bad of ["2026-13", "2026-00", "2026-1", "26-11", "november", "2026-11-01", ""]) {
      expect(parseLedgerMonth(bad), bad).toBeUndefined();
    }
  });
});
