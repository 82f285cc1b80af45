import type { KnownBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { MARKED_FAILED_REASON } from "../../src/domain/markedFailed.js";
import { WITHDRAWN_NOTE } from "../../src/domain/withdrawal.js";
import type { HomeInput } from "../../src/orders/appHome.js";
import { readRequest } from "../../src/orders/readModel.js";
import { committedSpend } from "../../src/orders/spend/committed.js";
import { approvalMessageView } from "../../views/approvals/approvals.js";
import { requestCardView } from "../../views/approvals/requestCard.js";
import { homeView } from "../../views/home/home.js";
import { readable } from "../views/support.js";

/**
 * The read model (src/orders/readModel.ts): one function says what a person sees of a request,
 * and the approval message, the card and App Home render that — so they say the same thing.
 */

const AT = "2026-11-12T13:05:00.000Z";
const base: ApprovalRequest = {
  id: "apr_abcdefghijklmnop",
  kind: "port",
  title: "ams-core-9",
  reconcileKey: "ams-core-9",
  summary: [{ label: "Port name", value: "ams-core-9" }],
  call: { operation: "createPortOrder", pathParams: { companyUsername: "acme" }, body: {} },
  price: { monthly: 100, total: 1200, termMonths: 12, text: "1,200.00 for 12 months" },
  requester: { userId: "U0REQUEST1", channelId: "C0GENERAL1" },
  slack: { approvalChannel: "C0APPROVALS", approvalTs: "1700000000.000100" },
  sandbox: false,
  status: "pending",
  attempts: 0,
  history: [],
  createdAt: AT,
  updatedAt: AT,
};
const placed: ApprovalRequest = {
  ...base,
  status: "placed",
  decision: { by: "U0APPROVE1", at: AT, action: "approve" },
  attempts: 1,
  result: { providerId: "po-1", status: "created", resource: "order", record: {} },
  history: [
    { at: AT, actor: "U0APPROVE1", from: "pending", to: "approved" },
    { at: AT, actor: "worker", from: "approved", to: "executing" },
    { at: AT, actor: "worker", from: "executing", to: "placed" },
  ],
};
const withdrawn: ApprovalRequest = {
  ...base,
  status: "cancelled",
  history: [
    { at: AT, actor: "U0REQUEST1", from: "pending", to: "cancelled", note: WITHDRAWN_NOTE },
  ],
};

/** The requester's Home with these requests as the read model shows them. */
function homeOf(models: ReturnType<typeof readRequest>[]): string {
  const input: HomeInput = {
    userId: "U0REQUEST1",
    sandbox: false,
    now: new Date("2026-11-20T00:00:00.000Z"),
    waiting: [],
    mine: { records: models, page: 0, hasNext: false, total: models.length },
    tracked: [],
    spend: { team: committedSpend(models), mine: committedSpend(models) },
  };
  return readable(homeView(input).blocks as KnownBlock[]);
}

const unknownThen = (actor: string, to: ApprovalRequest["history"][number]) => [
  ...placed.history.slice(0, 2),
  { at: AT, actor, from: "executing" as const, to: "unknown" as const },
  to,
];
/** Sent, no answer, and an approver pressed *Mark as failed*. */
const markedFailed: ApprovalRequest = {
  ...placed,
  status: "failed",
  result: undefined,
  error: { message: MARKED_FAILED_REASON },
  history: unknownThen("worker", {
    at: AT,
    actor: "U0APPROVE2",
    from: "unknown",
    to: "failed",
    note: MARKED_FAILED_REASON,
  }),
};
/** The provider refused it (400): nothing was ordered. */
const refused: ApprovalRequest = {
  ...placed,
  status: "failed",
  result: undefined,
  error: { message: "speed not available", httpStatus: 400 },
  history: [
    ...placed.history.slice(0, 2),
    { at: AT, actor: "worker", from: "executing", to: "failed", note: "speed not available" },
  ],
};

const stateOf = (blocks: unknown) =>
  (blocks as Array<{ block_id?: string }>)
    .map((b) => b.block_id)
    .find((id) => id?.startsWith("state_"));

describe("the read model", () => {
  it("says a placed order's tracked status, when it changed, its id and the money", () => {
    const model = readRequest(placed, {
      progress: { status: "PROVISIONING", changedAt: "2026-11-13T09:00:00.000Z" },
    });
    expect(model).toMatchObject({
      status: "placed",
      state: { phase: "tracked", key: "placed:provisioning", words: "Ordered · now PROVISIONING" },
      order: { id: "po-1", resource: "order", status: "created" },
      tracking: { status: "PROVISIONING", changedAt: "2026-11-13T09:00:00.000Z" },
      money: { billing: "priced", monthly: 100, total: 1200, termMonths: 12 },
      approvers: ["U0APPROVE1"],
      next: [],
    });
    expect(model.placedAt).toBe(AT);
  });

  it("offers the next steps of each state, and who takes them", () => {
    expect(readRequest(base).next).toEqual([
      { action: "approve", by: "approvers" },
      { action: "reject", by: "approvers" },
      { action: "withdraw", by: "requester" },
    ]);
    const unknown = { ...placed, status: "unknown" as const, result: undefined };
    expect(readRequest(unknown).next.map((s) => s.action)).toEqual([
      "look-up-again",
      "mark-failed",
    ]);
    expect(readRequest(unknown, { lastLookUp: "not-found" }).next.map((s) => s.action)).toEqual([
      "look-up-again",
      "place-again",
      "mark-failed",
    ]);
  });

  it("offers no Retry for a request marked as failed (it may exist at the provider); a refused one keeps it", () => {
    expect(readRequest(refused).next).toEqual([{ action: "retry", by: "approvers" }]);
    expect(readRequest(markedFailed).next).toEqual([]);
    // A worker settling an unknown outcome with the provider's own refusal is not a person's mark.
    const settledByRefusal: ApprovalRequest = {
      ...refused,
      history: unknownThen("host:1:ab", {
        at: AT,
        actor: "host:1:ab",
        from: "unknown",
        to: "failed",
        note: "the provider's refusal arrived after a look-up",
      }),
    };
    expect(readRequest(settledByRefusal).next.map((s) => s.action)).toEqual(["retry"]);
    const views = [
      approvalMessageView(readRequest(markedFailed)).blocks,
      requestCardView(readRequest(markedFailed)).blocks,
      homeView({
        userId: "U0REQUEST1",
        sandbox: false,
        now: new Date(AT),
        waiting: [],
        mine: { records: [readRequest(markedFailed)], page: 0, hasNext: false, total: 1 },
        tracked: [],
        spend: { team: committedSpend([]), mine: committedSpend([]) },
      }).blocks,
    ];
    for (const blocks of views) expect(JSON.stringify(blocks)).not.toContain("approval_retry");
    expect(JSON.stringify(approvalMessageView(readRequest(refused)).blocks)).toContain(
      "approval_retry",
    );
  });

  it("words a request marked as failed as it is: outcome unknown, the person named once, a real mention", () => {
    const model = readRequest(markedFailed);
    expect(model.state).toEqual({
      phase: "marked-failed",
      key: "failed",
      words: "Marked as failed — the outcome stayed unknown",
    });
    expect(model.actor).toBe("U0APPROVE2");
    for (const blocks of [approvalMessageView(model).blocks, requestCardView(model).blocks]) {
      const raw = JSON.stringify(blocks);
      expect(raw).not.toContain("nothing ordered");
      expect(raw).not.toContain("&lt;@");
      expect(raw.match(/<@U0APPROVE2>/g)).toHaveLength(1);
      expect(raw.match(/marked/gi)).toHaveLength(2); // "Marked as failed …" and "marked by"
    }
    // A record marked before the actor was kept apart: its mention inside the text is dropped.
    const legacy = readRequest({
      ...markedFailed,
      error: { message: "Marked as failed by <@U0APPROVE2>: checked the portal, no order" },
    });
    expect(legacy.state.detail).toBe("checked the portal, no order");
    expect(JSON.stringify(approvalMessageView(legacy).blocks).match(/<@U0APPROVE2>/g)).toHaveLength(
      1,
    );
    // The provider's refusal keeps its words: nothing was ordered.
    expect(readRequest(refused).state).toMatchObject({
      phase: "not-ordered",
      words: "Failed, nothing ordered",
      detail: "speed not available",
    });
  });

  it("tells the requester of a marked-failed request in Home to submit a new request, never Retry", () => {
    const home = homeOf([readRequest(markedFailed)]);
    expect(home).toContain("submit a new request");
    expect(home).toContain("ams-core-9");
    expect(home).toContain("is free again");
    expect(home).not.toContain("Retry");
    expect(homeOf([readRequest(refused)])).toContain("Retry");
  });

  it("offers no Retry once another request has taken a failed request's name, and says why in Home", () => {
    const taken = readRequest(refused, { nameHeldBy: "apr_newernewernewer1" });
    expect(taken.next).toEqual([]);
    expect(taken.state.phase).toBe("not-ordered");
    for (const blocks of [approvalMessageView(taken).blocks, requestCardView(taken).blocks])
      expect(JSON.stringify(blocks)).not.toContain("approval_retry");
    const home = homeOf([taken]);
    expect(home).toContain("another request has asked for its name since");
    expect(home).not.toContain("Retry");
  });

  // Bug 1 of issue 29: Home kept "Placed · status created" after the card said "Done".
  it("App Home's My requests says Done when the card and the approval message do", () => {
    const model = readRequest(placed, { progress: { status: "ACTIVE", outcome: "done" } });
    const home = homeOf([model]);
    expect(home).toContain("Done (ACTIVE)");
    expect(home).not.toContain("status created");
    expect(readable(requestCardView(model).blocks)).toContain("Done (ACTIVE)");
    expect(readable(approvalMessageView(model).blocks)).toContain("Done (ACTIVE)");
    // A layer 2 or IO-D service: "CREATING" at placement, then done.
    const iod = readRequest(
      { ...placed, kind: "iod", result: { providerId: "s-1", status: "CREATING", record: {} } },
      { progress: { status: "LIVE", outcome: "done" } },
    );
    expect(homeOf([iod])).toContain("Done (LIVE)");
    expect(homeOf([iod])).not.toContain("CREATING");
  });

  // Bug 3: Home said "Cancelled" where the card and the message said "Withdrawn by the requester".
  it("says a withdrawal in the same words on Home, the card and the approval message", () => {
    const model = readRequest(withdrawn);
    expect(model.state).toMatchObject({ phase: "withdrawn", words: "Withdrawn by the requester" });
    expect(homeOf([model])).toContain("Withdrawn by the requester");
    expect(homeOf([model])).not.toMatch(/Cancelled\b/);
    expect(readable(requestCardView(model).blocks)).toContain("Withdrawn by the requester");
    expect(readable(approvalMessageView(model).blocks)).toContain("Withdrawn by the requester");
  });

  // Bug 5: "No longer followed (created): stopped by U0REQUEST1" — a raw id, frozen.
  it("names who stopped following an order as a mention, and shows a later end", () => {
    const stopped = readRequest(placed, {
      progress: { status: "created", outcome: "stopped", stoppedBy: "U0REQUEST1" },
    });
    const card = readable(requestCardView(stopped).blocks);
    expect(card).toContain("No longer followed (created)");
    expect(card).toContain("<@U0REQUEST1> stopped following it");
    expect(card).not.toMatch(/stopped by U0REQUEST1/);
    // Followed again later (the same request's tracker), it ended: the end shows.
    const done = readRequest(placed, { progress: { status: "ACTIVE", outcome: "done" } });
    expect(readable(requestCardView(done).blocks)).toContain("Done (ACTIVE)");
  });

  // Bug 4: IO-D counted 0.00 in committed spend and "term unknown" although a term was given.
  it("reads an IO-D service's term in days and bills it pay as you go, never 0.00", () => {
    const iod: ApprovalRequest = {
      ...placed,
      kind: "iod",
      price: { text: "No fixed price: pay as you go" },
      call: {
        operation: "createGiaService",
        pathParams: { companyId: "1" },
        body: { duration: { quantity: 90, unit: "d" } },
      },
    };
    const model = readRequest(iod);
    expect(model.money).toMatchObject({ billing: "pay-as-you-go", termDays: 90 });
    expect(model.money.monthly).toBeUndefined();
    const home = homeOf([model]);
    expect(home).toContain("pay as you go");
    expect(home).not.toMatch(/\b0\.00 (a month|committed)/);
  });

  it("gives every surface the same state key (the block id the agreement check compares)", () => {
    for (const [record, progress] of [
      [base, undefined],
      [withdrawn, undefined],
      [placed, { status: "PROVISIONING" }],
      [placed, { status: "ACTIVE", outcome: "done" as const }],
    ] as const) {
      const model = readRequest(record, { progress });
      expect(stateOf(requestCardView(model).blocks)).toBe(`state_${model.state.key}`);
      expect(stateOf(approvalMessageView(model).blocks)).toBe(`state_${model.state.key}`);
    }
  });
});
