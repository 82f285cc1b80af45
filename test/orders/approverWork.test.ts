import type { KnownBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest, ListOptions } from "../../src/approvals/index.js";
import { MARKED_FAILED_REASON } from "../../src/domain/markedFailed.js";
import { readHome } from "../../src/orders/appHome.js";
import { AFTER_PLACEMENT_READ, approverWork } from "../../src/orders/approverWork.js";
import { cachedGroups, type DecisionSettings, mayDecideNow } from "../../src/orders/deciders.js";
import { readRequest } from "../../src/orders/readModel.js";
import { approvalsListView } from "../../views/approvals/approvalsList.js";
import { homeView } from "../../views/home/home.js";
import { readable } from "../views/support.js";

/**
 * What waits on an approver (src/orders/approverWork.ts): `/connect approvals` and App Home's
 * *Waiting on me* list every request on which the read model offers approvers a step — waiting
 * for a decision, an unknown outcome, a placement the provider refused — and say what is needed.
 */

const REQUESTER = "U0REQUEST1";
const APPROVER = "U0APPROVE1";
const OUTSIDER = "U0OUTSIDE1";
const day = (n: number) => `2026-11-${String(n).padStart(2, "0")}T09:00:00.000Z`;

function request(
  id: string,
  createdDay: number,
  status: ApprovalRequest["status"],
  more: Partial<ApprovalRequest> = {},
): ApprovalRequest {
  return {
    id,
    kind: "port",
    title: id,
    reconcileKey: id,
    summary: [{ label: "Port name", value: id }],
    call: { operation: "createPortOrder", pathParams: { companyUsername: "acme" }, body: {} },
    price: { monthly: 100, total: 1200, termMonths: 12, text: "1,200.00 for 12 months" },
    requester: { userId: REQUESTER, channelId: "C0GENERAL1" },
    slack: { approvalChannel: "C0APPROVALS", approvalTs: `17000000${createdDay}.000100` },
    sandbox: false,
    status,
    attempts: status === "pending" ? 0 : 1,
    history: [],
    createdAt: day(createdDay),
    updatedAt: day(createdDay),
    ...more,
  };
}

const approvedBy = (by: string, at: string) => [
  { at, actor: by, from: "pending" as const, to: "approved" as const },
  { at, actor: "worker", from: "approved" as const, to: "executing" as const },
];
const decided = (createdDay: number) => ({
  decision: { by: APPROVER, at: day(createdDay), action: "approve" as const },
  approvals: [{ by: APPROVER, at: day(createdDay) }],
});

/** One request in each state, created on a different day. */
const records: ApprovalRequest[] = [
  request("pending-new", 9, "pending"),
  request("pending-old", 2, "pending"),
  request("unknown-1", 3, "unknown", {
    ...decided(3),
    error: { message: "the provider did not answer" },
    history: [
      ...approvedBy(APPROVER, day(3)),
      { at: day(3), actor: "worker", from: "executing", to: "unknown" },
    ],
  }),
  request("refused-new", 8, "failed", {
    ...decided(8),
    error: { message: "speed not available", httpStatus: 400 },
    history: [
      ...approvedBy(APPROVER, day(8)),
      { at: day(8), actor: "worker", from: "executing", to: "failed" },
    ],
  }),
  request("refused-old", 4, "failed", {
    ...decided(4),
    error: { message: "port name taken", httpStatus: 400 },
    history: [
      ...approvedBy(APPROVER, day(4)),
      { at: day(4), actor: "worker", from: "executing", to: "failed" },
    ],
  }),
  request("marked-failed", 5, "failed", {
    ...decided(5),
    error: { message: MARKED_FAILED_REASON },
    history: [
      ...approvedBy(APPROVER, day(5)),
      { at: day(5), actor: "worker", from: "executing", to: "unknown" },
      { at: day(5), actor: APPROVER, from: "unknown", to: "failed", note: MARKED_FAILED_REASON },
    ],
  }),
  request("placed-1", 6, "placed", {
    ...decided(6),
    result: { providerId: "po-1", status: "created", resource: "order", record: {} },
    history: [
      ...approvedBy(APPROVER, day(6)),
      { at: day(6), actor: "worker", from: "executing", to: "placed" },
    ],
  }),
  request("rejected-1", 7, "rejected", {
    decision: { by: APPROVER, at: day(7), action: "reject", reason: "no" },
  }),
];

/** The store's reads, as src/approvals/store.ts gives them (indexes scored by creation). */
function storeOf(all: readonly ApprovalRequest[]) {
  const listCalls: ListOptions[] = [];
  const byAge = [...all].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return {
    listCalls,
    store: {
      async listPending() {
        return byAge.filter((r) => r.status === "pending");
      },
      async list(options: ListOptions = {}) {
        listCalls.push(options);
        return byAge
          .filter((r) => !options.status || r.status === options.status)
          .reverse()
          .slice(0, options.limit ?? 50);
      },
    },
  };
}

const read = async (rs: readonly ApprovalRequest[]) => rs.map((r) => readRequest(r));

const settings: DecisionSettings = {
  channel: "C0APPROVALS",
  approvers: [APPROVER],
  requesters: [],
  allowSelfApproval: false,
};
const noGroups = async () => [];

async function homeOf(userId: string) {
  const { store } = storeOf(records);
  const input = await readHome(
    {
      store,
      read,
      tracker: { list: async () => [] },
      mayDecide: (who, record) => mayDecideNow(record, settings, who, noGroups),
      seesTeamSpend: async () => true,
      now: () => new Date(day(10)),
      sandbox: false,
    },
    userId,
    0,
  );
  return { input, text: readable(homeView(input).blocks as KnownBlock[]) };
}

/** The text of *Waiting on me* in a Home view (to the next header). */
function waitingSection(blocks: readonly KnownBlock[]): string {
  const start = blocks.findIndex((b) => b.type === "header" && b.text.text === "Waiting on me");
  const end = blocks.findIndex((b, i) => i > start && b.type === "header");
  return JSON.stringify(blocks.slice(start, end));
}

describe("what waits on an approver", () => {
  it("lists pending requests first, then unknown outcomes, then retryable failures, each oldest first", async () => {
    const work = await approverWork({ store: storeOf(records).store, read });
    expect(work.map((item) => item.record.id)).toEqual([
      "pending-old",
      "pending-new",
      "unknown-1",
      "refused-old",
      "refused-new",
    ]);
    // Marked as failed (never retried), placed and rejected ones offer approvers nothing.
    expect(work.map((item) => item.model.state.phase)).not.toContain("marked-failed");
  });

  it("reads only the newest failed and unknown requests, and reads the models of those kept", async () => {
    const { store, listCalls } = storeOf(records);
    const modelsRead: string[] = [];
    const work = await approverWork(
      {
        store,
        read: async (rs) => {
          modelsRead.push(...rs.map((r) => r.id));
          return read(rs);
        },
      },
      (record) => record.id !== "refused-new",
    );
    expect(listCalls).toEqual([
      { status: "unknown", limit: AFTER_PLACEMENT_READ },
      { status: "failed", limit: AFTER_PLACEMENT_READ },
    ]);
    expect(modelsRead).not.toContain("refused-new");
    expect(work.map((item) => item.record.id)).not.toContain("refused-new");
  });

  it("shows the approver each in their Home, with what is needed and the approval message's buttons", async () => {
    const { input, text } = await homeOf(APPROVER);
    // Their approval of the unknown and refused ones is counted: they may still act on them.
    expect(input.waiting.map((m) => m.id)).toEqual([
      "pending-old",
      "pending-new",
      "unknown-1",
      "refused-old",
      "refused-new",
    ]);
    expect(text).toContain("Outcome unknown — sent to the provider without an answer");
    expect(text).toContain("*Needs an approver:* look it up again or mark it as failed");
    expect(text).toContain("Failed, nothing ordered");
    expect(text).toContain("speed not available");
    expect(text).toContain("*Needs an approver:* retry placing it once the cause is fixed");
    expect(text).not.toContain("marked-failed");
    const waiting = waitingSection(homeView(input).blocks as KnownBlock[]);
    for (const action of [
      "approval_approve",
      "approval_reject",
      "approval_look_up_again",
      "approval_mark_failed",
      "approval_retry",
    ]) {
      expect(waiting).toContain(action);
    }
    expect(waiting).toContain('"block_id":"home_decide_unknown-1"');
    expect(waiting).toContain('"block_id":"home_decide_refused-old"');
  });

  it("offers Place again in the Home only after a look-up found nothing, as the approval message does", async () => {
    const unknown = records.find((r) => r.id === "unknown-1")!;
    const found = readRequest(unknown, { lastLookUp: "not-found" });
    const { input } = await homeOf(APPROVER);
    const text = readable(homeView({ ...input, waiting: [found] }).blocks as KnownBlock[]);
    expect(text).toContain(
      "*Needs an approver:* look it up again, place it again or mark it as failed",
    );
    expect(JSON.stringify(homeView({ ...input, waiting: [found] }).blocks)).toContain(
      "approval_place_again",
    );
  });

  it("changes nothing for the requester or someone who is not an approver", async () => {
    const mine = await homeOf(REQUESTER);
    expect(mine.input.waiting).toEqual([]);
    expect(mine.text).toContain("Nothing is waiting for your decision.");
    // Their own requests, as before: every one of them, newest first.
    expect(mine.input.mine.records.map((m) => m.id)).toEqual(
      [...records].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((r) => r.id),
    );
    const outsider = await homeOf(OUTSIDER);
    expect(outsider.input.waiting).toEqual([]);
  });

  it("does not ask an approver whose approval is counted to decide a pending request again", async () => {
    const counted = request("pending-counted", 1, "pending", {
      requirement: {
        rule: "big",
        approvals: 2,
        from: [APPROVER],
        approvers: [APPROVER, "U0APPROVE2"],
      },
      approvals: [{ by: APPROVER, at: day(1) }],
    });
    expect(await mayDecideNow(counted, settings, APPROVER, noGroups)).toBe(false);
    expect(await mayDecideNow(counted, settings, "U0APPROVE2", noGroups)).toBe(true);
  });

  it("asks Slack for a user group's members once per list, however many requests it checks", async () => {
    const asked: string[] = [];
    const groups = cachedGroups(async (groupId) => {
      asked.push(groupId);
      return [APPROVER];
    });
    const byGroup = { ...settings, approvers: ["S0APPROVERS"] };
    const work = await approverWork({ store: storeOf(records).store, read }, (record) =>
      mayDecideNow(record, byGroup, APPROVER, groups),
    );
    expect(work).toHaveLength(5);
    expect(asked).toEqual(["S0APPROVERS"]);
  });

  it("words `/connect approvals`: each placement that went wrong with its state and what is needed", async () => {
    const work = await approverWork({ store: storeOf(records).store, read });
    const reply = approvalsListView(
      work.map((item) => item.model),
      new Map(),
      "pending",
    );
    expect(reply.text).toBe("5 requests waiting on an approver");
    const text = readable(reply.blocks as KnownBlock[]);
    expect(text).toContain("Outcome unknown — sent to the provider without an answer");
    expect(text).toContain("*Needs an approver:* look it up again or mark it as failed");
    expect(text).toContain("*Needs an approver:* retry placing it once the cause is fixed");
    expect(text).not.toContain("marked-failed");
    expect(text).not.toContain("placed-1");
    // Requests waiting for a decision read as before: no state line, the title says it.
    const pendingOnly = approvalsListView(
      work.filter((item) => item.model.state.phase === "waiting").map((item) => item.model),
      new Map(),
      "pending",
    );
    expect(pendingOnly.text).toBe("2 requests waiting for approval");
    expect(readable(pendingOnly.blocks as KnownBlock[])).not.toContain("Needs an approver");
  });
});
