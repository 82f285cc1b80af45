import {
  type ApprovalPolicy,
  type ApprovalRequest,
  type ApprovalRequirement,
  type ApproveDecision,
  canApprove,
  canRequest,
  type GroupMembers,
  isListed,
  type MoneySight,
  moneySight,
  type RequestDecision,
  requirementFor,
} from "../approvals/index.js";

/**
 * Who may ask for orders and who may decide a request: the configured approvers and requesters
 * (APPROVERS, REQUESTERS), the policy file's rules (APPROVAL_POLICY), ALLOW_SELF_APPROVAL.
 * Pure given `groups` (Slack user group members, resolved by the front door that asks).
 */
export interface DecisionSettings {
  /** The approvals channel; without it (or without approvers) no request can be decided. */
  channel?: string;
  /** Everyone who may approve something (with a policy file: every id its rules name). */
  approvers: string[];
  /** The spend-aware policy file's rules; absent: one approval from `approvers`. */
  policy?: ApprovalPolicy;
  requesters: string[];
  allowSelfApproval: boolean;
  /** SPEND_VIEWERS: who sees the team's money besides the approvers and the `finance` group. */
  spendViewers?: readonly string[];
}

/** What an order form says when approvals are not set up (nobody could ever decide it). */
export const APPROVALS_NOT_SET_UP =
  "Orders need an approvals channel and approvers: an admin must set APPROVALS_CHANNEL and APPROVERS.";

/** Approvals need a channel and approvers; the sentence when they are missing. */
export function approvalsUnavailable(settings: DecisionSettings): string | undefined {
  return !settings.channel || settings.approvers.length === 0 ? APPROVALS_NOT_SET_UP : undefined;
}

/**
 * What a request needs: the requirement fixed on it when it was created under a policy file;
 * otherwise (no file, or a request from before one) one approval from the approvers configured
 * now — a policy's rule for it when there is a policy.
 */
export function requirementOf(
  record: Pick<ApprovalRequest, "requirement" | "kind" | "price">,
  settings: DecisionSettings,
): ApprovalRequirement {
  if (record.requirement) return record.requirement;
  if (settings.policy) {
    return requirementFor(settings.policy, { kind: record.kind, monthly: record.price?.monthly });
  }
  return { rule: "", approvals: 1, from: settings.approvers, approvers: settings.approvers };
}

/** The requirement a new request is created with: its policy rule, when there is a file. */
export function requirementAtSubmission(
  submission: Pick<ApprovalRequest, "kind" | "price">,
  settings: DecisionSettings,
): ApprovalRequirement | undefined {
  return settings.policy
    ? requirementFor(settings.policy, { kind: submission.kind, monthly: submission.price?.monthly })
    : undefined;
}

/** Whether `userId` may approve or reject `record` under `requirement` (deny by default). */
export function mayDecideUnder(
  requirement: ApprovalRequirement,
  settings: DecisionSettings,
  userId: string,
  record: Pick<ApprovalRequest, "requester">,
  groups: GroupMembers,
): Promise<ApproveDecision> {
  return canApprove({
    userId,
    requesterId: record.requester.userId,
    approvers: requirement.approvers,
    groupMembers: groups,
    allowSelfApproval: settings.allowSelfApproval,
  });
}

/**
 * Whether `userId` may take the approvers' next step on `record` now (approve or reject it;
 * after its placement went wrong, retry, look it up, place it again or mark it as failed): its
 * requirement's approvers, as every approver step checks (deciderChecks.ts), and, while it waits
 * for a decision, not someone whose approval is already counted. The approvers' lists use it
 * (App Home's *Waiting on me*, `/connect approvals`: approverWork.ts).
 */
export async function mayDecideNow(
  record: ApprovalRequest,
  settings: DecisionSettings,
  userId: string,
  groups: GroupMembers,
): Promise<boolean> {
  const counted = record.approvals?.some((approval) => approval.by === userId);
  // The approvals counted are those of the decision; once decided, they ask nothing more of them.
  if (record.status === "pending" && counted) return false;
  const requirement = requirementOf(record, settings);
  return (await mayDecideUnder(requirement, settings, userId, record, groups)).allowed;
}

/** Whether `userId` may ask for orders (REQUESTERS; empty: everyone). */
export function mayRequestOrders(
  settings: DecisionSettings,
  userId: string,
  groups: GroupMembers,
): Promise<RequestDecision> {
  return canRequest({ userId, requesters: settings.requesters, groupMembers: groups });
}

/**
 * Whether an approval by `userId` counts for the requirement's "at least one from <group>". A
 * failed group look-up counts as not in the group: the last approval is then refused, never
 * wrongly completed.
 */
export async function countsForGroup(
  requirement: ApprovalRequirement,
  userId: string,
  groups: GroupMembers,
): Promise<boolean> {
  if (!requirement.atLeastOneFrom) return false;
  return (await isListed(userId, requirement.atLeastOneFrom.ids, groups)) === "yes";
}

/** Whether `userId` is among the approvers at all (stopping someone else's tracking). */
export async function isAnyApprover(
  settings: DecisionSettings,
  userId: string,
  groups: GroupMembers,
): Promise<boolean> {
  return (
    await canApprove({
      userId,
      requesterId: "",
      approvers: settings.approvers,
      groupMembers: groups,
      allowSelfApproval: true,
    })
  ).allowed;
}

/**
 * What `userId` may see of the money (the rule: src/approvals/moneyAccess.ts): everyone's
 * requests and the team's sums, or their own only. Deny by default: a group that could not be
 * read shows them their own, with why.
 */
export function moneySightUnder(
  settings: DecisionSettings,
  userId: string,
  groups: GroupMembers,
): Promise<MoneySight> {
  return moneySight(userId, settings, groups);
}

/**
 * `lookUp` asked once per user group: for one answer that checks many requests (App Home's
 * render, `/connect approvals`), not one Slack call per request. A failed look-up stays failed
 * for that answer (each check counts it as "not in the group").
 */
export function cachedGroups(lookUp: GroupMembers): GroupMembers {
  const cache = new Map<string, Promise<readonly string[]>>();
  return (groupId) => {
    let members = cache.get(groupId);
    if (!members) {
      members = Promise.resolve(lookUp(groupId));
      cache.set(groupId, members);
    }
    return members;
  };
}
