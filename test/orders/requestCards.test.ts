import { beforeEach, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import type { PostInput } from "../../src/jobs/notifier/notifierInput.js";
import type { MessageState } from "../../src/jobs/notifier/outbox.js";
import { ApprovalMessages } from "../../src/orders/approvalMessages.js";
import { readRequest } from "../../src/orders/readModel.js";
import {
  RECONCILED_CARD_DM_KEY,
  RECONCILED_CARD_KEY,
  RequestCards,
  type RequestCardsOptions,
} from "../../src/orders/requestCards.js";
import type { CardAt } from "../../src/orders/requestMessages.js";
import { testLogger } from "../jobs/support.js";

/**
 * The cards a crash never posted (src/orders/requestCards.ts), run by the approval messages'
 * reconciler on its candidates, with the notifier replaced by an in-memory outbox that keeps
 * its markers as the real one does (a key is queued once: HSETNX) and the store by a map that
 * keeps the first card (`keepCard`). What the drain would do is done by hand (`drained`).
 * The real outbox, drain and Slack stand-in: test/e2e/requestCardReconcile.test.ts.
 */
describe("RequestCards", () => {
  const APPROVALS = "C0APPROVALS";
  const GENERAL = "C0GENERAL1";
  const REQUESTER = "U0REQUEST1";
  const OLD = "2026-11-28T07:00:00.000Z";
  const NOW = new Date("2026-11-28T08:00:00.000Z");

  let records: Map<string, ApprovalRequest>;
  let markers: Map<string, string>;
  let posts: PostInput[];
  let refreshed: string[];
  let superseded: CardAt[];
  let noticesTaken: Set<string>;
  let logs: string[];

  function request(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
    const record: ApprovalRequest = {
      id: "apr_aaaaaaaaaaaaaaaa",
      kind: "port",
      title: "ams-web-1",
      summary: [],
      call: { operation: "createPortOrder", pathParams: {}, body: {} },
      price: { text: "1,200.00 USD for 1 year", monthly: 100, total: 1200 },
      requester: { userId: REQUESTER, channelId: GENERAL },
      slack: { approvalChannel: APPROVALS, approvalTs: "1700000000.000100" },
      sandbox: true,
      status: "pending",
      attempts: 0,
      history: [],
      createdAt: OLD,
      updatedAt: OLD,
      ...overrides,
    };
    records.set(record.id, record);
    return record;
  }

  /** The in-memory outbox: its markers, as the notifier reads and writes them. */
  const notifier: RequestCardsOptions["notifier"] = {
    post: async (input) => {
      const key = `${input.scope}/${input.key}`;
      if (markers.has(key)) return { queued: false, reason: "duplicate" };
      markers.set(key, "queued");
      posts.push(input);
      return { queued: true };
    },
    status: async (scope, key): Promise<MessageState | null> => {
      const value = markers.get(`${scope}/${key}`);
      if (value === undefined) return null;
      if (value === "queued") return { state: "queued" };
      const [state, a, b] = value.split("|");
      if (state === "sent") return { state: "sent", ts: a, ...(b ? { channel: b } : {}) };
      return { state: "dropped", reason: a ?? "unknown" };
    },
  };

  /** What the drain would mark once Slack answered the post queued under `key`. */
  function drained(record: ApprovalRequest, key: string, marker: string): void {
    markers.set(`approval:${record.id}/${key}`, marker);
  }

  function cards(overrides: Partial<RequestCardsOptions> = {}): RequestCards {
    return new RequestCards({
      reads: { of: async (record) => readRequest(record) },
      notifier,
      keep: async (id, at) => {
        const record = records.get(id);
        if (!record) return null;
        if (record.slack.cardTs) return record;
        const kept = { ...record, slack: { ...record.slack, ...at } };
        records.set(id, kept);
        return kept;
      },
      refresh: async (id) => {
        refreshed.push(id);
      },
      superseded: async (_record, at) => {
        superseded.push(at);
        return true;
      },
      firstCardNotice: async (userId, where) => {
        const key = `${userId}:${where}`;
        if (noticesTaken.has(key)) return false;
        noticesTaken.add(key);
        return true;
      },
      approvalsChannel: APPROVALS,
      setting: "channel",
      logger: {
        info: () => {},
        warn: () => {},
        error: (_fields: unknown, message: string) => {
          logs.push(message);
        },
      } as unknown as RequestCardsOptions["logger"],
      ...overrides,
    });
  }

  /** The approval messages' reconciler, as src/bot.ts builds it, over the map's records. */
  function reconciler(withCards: RequestCards, graceMs = 3 * 60_000): ApprovalMessages {
    const all = () => [...records.values()];
    return new ApprovalMessages({
      store: {
        findByStatus: async (status) => all().filter((r) => r.status === status),
        list: async (options) => all().filter((r) => r.status === options?.status),
        get: async (id) => records.get(id) ?? null,
        keepApprovalMessage: async (id) => records.get(id) ?? null,
      },
      reads: { of: async (record) => readRequest(record) },
      notifier,
      refresh: async () => {},
      trackPlaced: async () => false,
      superseded: async () => false,
      cards: withCards,
      channel: APPROVALS,
      graceMs,
      now: () => NOW,
      logger: testLogger(),
    });
  }

  beforeEach(() => {
    records = new Map();
    markers = new Map();
    posts = [];
    refreshed = [];
    superseded = [];
    noticesTaken = new Set();
    logs = [];
  });

  it("queues a missing card once however many runs and replicas, keeps it later and refreshes it", async () => {
    const record = request();
    const [first, second] = [reconciler(cards()), reconciler(cards())];
    const reports = await Promise.all([first.reconcile(), second.reconcile(), first.reconcile()]);
    expect(reports.map((r) => r.cardsQueued).reduce((a, b) => a + b)).toBe(1);
    expect(posts).toEqual([
      expect.objectContaining({
        scope: `approval:${record.id}`,
        key: RECONCILED_CARD_KEY,
        channel: GENERAL,
      }),
    ]);
    // The card is the one the form posts: the requester's Withdraw while pending.
    expect(JSON.stringify(posts[0]?.blocks)).toContain("withdraw");
    expect(posts[0]?.keepChannel).toBeUndefined();
    // Still queued: nothing more.
    expect((await first.reconcile()).cardsKept).toBe(0);

    drained(record, RECONCILED_CARD_KEY, "sent|1700000001.000200");
    expect((await second.reconcile()).cardsKept).toBe(1);
    expect(records.get(record.id)?.slack).toMatchObject({
      cardChannel: GENERAL,
      cardTs: "1700000001.000200",
    });
    expect(refreshed).toEqual([record.id]);
    // Kept: later runs leave it alone.
    const again = await first.reconcile();
    expect(again).toMatchObject({ cardsQueued: 0, cardsKept: 0, cardsRefused: 0 });
    expect(posts).toHaveLength(1);
  });

  it("waits for the grace period and for the approval message's place, and posts nothing when cards are off", async () => {
    request({ id: "apr_bbbbbbbbbbbbbbbb", createdAt: "2026-11-28T07:59:00.000Z" });
    request({ id: "apr_cccccccccccccccc", slack: {} });
    await reconciler(cards()).reconcile();
    expect(posts.filter((p) => p.key.startsWith("request-card"))).toEqual([]);

    records.clear();
    posts = [];
    request();
    expect((await reconciler(cards({ setting: "off" })).reconcile()).cardsQueued).toBe(0);
    expect(posts).toEqual([]);
  });

  it("posts the card of a request asked in a DM to the requester, and keeps the D… channel Slack answered with", async () => {
    const record = request({ requester: { userId: REQUESTER, channelId: "D0REQUEST1" } });
    const run = reconciler(cards());
    expect((await run.reconcile()).cardsQueued).toBe(1);
    expect(posts).toEqual([
      expect.objectContaining({
        key: RECONCILED_CARD_DM_KEY,
        channel: REQUESTER,
        keepChannel: true,
      }),
    ]);
    drained(record, RECONCILED_CARD_DM_KEY, "sent|1700000001.000300|D0REQUEST1");
    expect((await run.reconcile()).cardsKept).toBe(1);
    expect(records.get(record.id)?.slack).toMatchObject({
      cardChannel: "D0REQUEST1",
      cardTs: "1700000001.000300",
    });
  });

  it("posts to the DM on the next run when the channel refused the card as not here, saying why once", async () => {
    const record = request();
    const run = reconciler(cards());
    await run.reconcile();
    drained(record, RECONCILED_CARD_KEY, "dropped|not_in_channel");
    expect((await run.reconcile()).cardsQueued).toBe(1);
    expect(posts.map((p) => [p.key, p.channel])).toEqual([
      [RECONCILED_CARD_KEY, GENERAL],
      ["request-card-dm-notice", REQUESTER],
      [RECONCILED_CARD_DM_KEY, REQUESTER],
    ]);
    expect(posts[1]?.text).toContain(`<#${GENERAL}>`);
    drained(record, RECONCILED_CARD_DM_KEY, "sent|1700000001.000400|D0REQUEST1");
    expect((await run.reconcile()).cardsKept).toBe(1);
    expect(records.get(record.id)?.slack.cardChannel).toBe("D0REQUEST1");
  });

  it("counts any other refusal on each run and never posts the card again", async () => {
    const record = request();
    const run = reconciler(cards());
    await run.reconcile();
    drained(record, RECONCILED_CARD_KEY, "dropped|invalid_blocks");
    expect((await run.reconcile()).cardsRefused).toBe(1);
    expect((await run.reconcile()).cardsRefused).toBe(1);
    expect(posts).toHaveLength(1);
    expect(logs).toContain(
      "request card could not be posted for good; the requester has the approvals thread and DMs",
    );
  });

  it("a card kept first (the form's, late) wins: the reconciler's loses its Withdraw", async () => {
    const record = request();
    const run = reconciler(cards());
    await run.reconcile();
    drained(record, RECONCILED_CARD_KEY, "sent|1700000001.000500");
    // The form's post outlived the grace period and kept its card between the read and the keep.
    const card = cards({
      keep: async (id) => {
        const now = records.get(id);
        return now ? { ...now, slack: { ...now.slack, cardTs: "1700000000.000999" } } : null;
      },
    });
    expect(await card.reconcile(record)).toBe("cardsSuperseded");
    expect(superseded).toEqual([{ cardChannel: GENERAL, cardTs: "1700000001.000500" }]);
    expect(refreshed).toEqual([]);
  });
});
