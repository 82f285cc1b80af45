import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { MARKED_FAILED_REASON } from "../../src/domain/markedFailed.js";
import { homeAudience } from "../../src/orders/homeAudience.js";

// Who is told about a request's change in App Home (the lifecycle queues their refreshes): the
// requester always, the approvers (user groups expanded) while it is or just stopped being
// their work (*Waiting on me*: a decision, an unknown outcome, a refused placement), and nobody
// for a group Slack cannot read.

function request(
  status: ApprovalRequest["status"],
  history: Array<{ from: ApprovalRequest["status"]; note?: string; actor?: string }>,
  error?: ApprovalRequest["error"],
): ApprovalRequest {
  return {
    id: "r1",
    kind: "port",
    title: "ams-1",
    summary: [],
    call: { operation: "createPortOrder", pathParams: {}, body: {} },
    requester: { userId: "U0REQ" },
    slack: {},
    sandbox: false,
    status,
    attempts: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    history: history.map((entry, i) => ({
      at: "2026-01-01T00:00:00.000Z",
      actor: "worker",
      to: history[i + 1]?.from ?? status,
      ...entry,
    })),
    ...(error ? { error } : {}),
  };
}

describe("homeAudience", () => {
  const lookedUp: string[] = [];
  const audience = homeAudience({
    approvers: ["U0APP", "S0TEAM", "S0GONE"],
    groupMembers: async (groupId) => {
      lookedUp.push(groupId);
      if (groupId === "S0GONE") throw new Error("no_such_subteam");
      return ["U0MEMBER", "U0APP"];
    },
  });

  it("tells the requester and every approver of a pending request, groups expanded", async () => {
    expect((await audience(request("pending", []))).sort()).toEqual(
      ["U0APP", "U0MEMBER", "U0REQ"].sort(),
    );
  });

  it("tells the approvers once more when the request has just been decided", async () => {
    const decided = await audience(request("approved", [{ from: "pending" }]));
    expect(decided.sort()).toEqual(["U0APP", "U0MEMBER", "U0REQ"].sort());
  });

  it("tells only the requester later on, without reading any group", async () => {
    lookedUp.length = 0;
    const placed = await audience(
      request("placed", [{ from: "pending" }, { from: "approved" }, { from: "executing" }]),
    );
    expect(placed).toEqual(["U0REQ"]);
    expect(lookedUp).toEqual([]);
  });

  const everyone = ["U0APP", "U0MEMBER", "U0REQ"].sort();
  const placing = [{ from: "pending" }, { from: "approved" }] as const;

  it("tells the approvers when a placement becomes theirs to act on: unknown, or refused", async () => {
    const unknown = request("unknown", [...placing, { from: "executing" }]);
    expect((await audience(unknown)).sort()).toEqual(everyone);
    const refused = request("failed", [...placing, { from: "executing" }], {
      message: "speed not available",
    });
    expect((await audience(refused)).sort()).toEqual(everyone);
  });

  it("tells the approvers once more when it stops being theirs: retried, placed again, marked failed, found", async () => {
    const wentWrong = [...placing, { from: "executing" }] as const;
    for (const [status, from] of [
      ["approved", "failed"],
      ["approved", "unknown"],
      ["placed", "unknown"],
    ] as const) {
      expect((await audience(request(status, [...wentWrong, { from }]))).sort()).toEqual(everyone);
    }
    const markedFailed = request(
      "failed",
      [...wentWrong, { from: "unknown", actor: "U0APP", note: MARKED_FAILED_REASON }],
      { message: MARKED_FAILED_REASON },
    );
    expect((await audience(markedFailed)).sort()).toEqual(everyone);
  });
});
