import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { homeAudience } from "../../src/orders/homeAudience.js";

// Who is told about a request's change in App Home (the lifecycle queues their refreshes): the
// requester always, the approvers (user groups expanded) while it is or just stopped being
// pending, and nobody for a group Slack cannot read.

function request(status: string, history: Array<{ from: string }>): ApprovalRequest {
  return { id: "r1", status, requester: { userId: "U0REQ" }, history } as never;
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
});
