import { describe, expect, it } from "vitest";
import { canApprove, canRequest, GroupLookupError, mentions } from "../../src/approvals/policy.js";

const groups: Record<string, string[]> = {
  SNETOPS01: ["UALICE001", "UBOB00001"],
  SFINANCE1: ["UCAROL001"],
};
const groupMembers = (groupId: string) => groups[groupId] ?? [];
const asyncGroupMembers = async (groupId: string) => groups[groupId] ?? [];

describe("canApprove", () => {
  const base = {
    requesterId: "UREQ00001",
    approvers: ["UMANAGER1", "SNETOPS01"],
    groupMembers,
    allowSelfApproval: false,
  };

  it("allows a user listed by id", async () => {
    expect(await canApprove({ ...base, userId: "UMANAGER1" })).toEqual({ allowed: true });
  });

  it("allows a member of a listed user group (sync or async lookup)", async () => {
    expect(await canApprove({ ...base, userId: "UBOB00001" })).toEqual({ allowed: true });
    expect(
      await canApprove({ ...base, userId: "UALICE001", groupMembers: asyncGroupMembers }),
    ).toEqual({ allowed: true });
  });

  it("refuses someone who is neither listed nor in a listed group, naming the approvers", async () => {
    expect(await canApprove({ ...base, userId: "UCAROL001" })).toEqual({
      allowed: false,
      reason: "not-an-approver",
      message: "You are not an approver for orders. Approvers: <@UMANAGER1>, <!subteam^SNETOPS01>.",
    });
  });

  it("refuses the requester unless self-approval is allowed", async () => {
    const self = { ...base, userId: "UALICE001", requesterId: "UALICE001" };
    expect(await canApprove(self)).toEqual({
      allowed: false,
      reason: "self-approval",
      message: "You requested this order, so someone else must approve it.",
    });
    expect(await canApprove({ ...self, allowSelfApproval: true })).toEqual({ allowed: true });
  });

  it("refuses a requester who is not an approver as not-an-approver, even with self-approval", async () => {
    const result = await canApprove({
      ...base,
      userId: "UREQ00001",
      allowSelfApproval: true,
    });
    expect(result).toMatchObject({ allowed: false, reason: "not-an-approver" });
  });

  it("lets nobody approve when no approvers are configured", async () => {
    const result = await canApprove({
      ...base,
      approvers: [],
      userId: "UMANAGER1",
      allowSelfApproval: true,
    });
    expect(result).toMatchObject({ allowed: false, reason: "not-an-approver" });
    expect(!result.allowed && result.message).toContain("APPROVERS must be configured");
    // Malformed entries count as none: they cannot name anybody.
    expect(
      await canApprove({ ...base, approvers: ["", "<!here>"], userId: "UMANAGER1" }),
    ).toMatchObject({ allowed: false, reason: "not-an-approver" });
  });

  it("denies, and says why, when a user group cannot be looked up", async () => {
    const result = await canApprove({
      ...base,
      userId: "UBOB00001",
      groupMembers: () => {
        throw new Error("ratelimited");
      },
    });
    expect(result).toMatchObject({ allowed: false, reason: "not-an-approver" });
    // An error without a known cause reads as Slack not answering: trying again may help.
    expect(!result.allowed && result.message).toMatch(/couldn't reach Slack .*try again/);
    expect(!result.allowed && result.detail).toMatch(
      /approver check failed: user group S\w+ unreachable \(ratelimited\)/,
    );
  });

  it("names the real cause of a failed group look-up, and says when trying again cannot help", async () => {
    const failing = (kind: "missing" | "not-allowed", detail: string) =>
      canApprove({
        ...base,
        userId: "UBOB00001",
        groupMembers: (groupId) => {
          throw new GroupLookupError({ groupId, kind, detail });
        },
      });
    const missing = await failing("missing", "no_such_subteam");
    expect(!missing.allowed && missing.message).toMatch(
      /user group `S\w+`, which does not exist in this Slack workspace \(Slack answered `no_such_subteam`\).* Trying again will not help/,
    );
    const scope = await failing("not-allowed", "missing_scope");
    expect(!scope.allowed && scope.message).toMatch(/usergroups:read scope/);
    expect(!scope.allowed && scope.message).not.toMatch(/try again in a minute/);
  });

  it("does not look groups up for a user listed by id", async () => {
    let lookups = 0;
    await canApprove({
      ...base,
      userId: "UMANAGER1",
      groupMembers: () => {
        lookups += 1;
        return [];
      },
    });
    expect(lookups).toBe(0);
  });
});

describe("canRequest", () => {
  it("lets everyone request when no requesters are configured", async () => {
    expect(await canRequest({ userId: "UANYONE01", requesters: [], groupMembers })).toEqual({
      allowed: true,
    });
  });

  it("allows listed users and group members and refuses others", async () => {
    const requesters = ["UREQ00001", "SFINANCE1"];
    expect(await canRequest({ userId: "UREQ00001", requesters, groupMembers })).toEqual({
      allowed: true,
    });
    expect(await canRequest({ userId: "UCAROL001", requesters, groupMembers })).toEqual({
      allowed: true,
    });
    expect(await canRequest({ userId: "UALICE001", requesters, groupMembers })).toEqual({
      allowed: false,
      reason: "not-a-requester",
      message:
        "You are not allowed to request orders. Requesters: <@UREQ00001>, <!subteam^SFINANCE1>.",
    });
  });
});

describe("mentions", () => {
  it("lists at most ten and counts the rest", () => {
    const ids = Array.from({ length: 12 }, (_, i) => `U${String(i).padStart(8, "0")}`);
    expect(mentions(ids)).toMatch(/^<@U00000000>, .*<@U00000009> and 2 more$/);
  });
});
