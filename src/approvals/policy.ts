import {
  type GroupLookupFailure,
  groupLookupFailure,
  groupLookupMessage,
} from "../domain/groupLookup.js";

/**
 * Who may approve and who may request orders. Deny by default: an empty approvers list means
 * nobody can approve. Pure functions; user group membership is resolved by the caller (e.g.
 * Slack's usergroups.users.list, cached), so this module does no I/O of its own.
 */

// Why a group look-up failed is shared with the Slack adapter, which classifies Slack's errors.
export {
  GroupLookupError,
  type GroupLookupFailure,
  groupLookupFailure,
  groupLookupMessage,
} from "../domain/groupLookup.js";

import { isSlackUserGroupId, isSlackUserId } from "../domain/slackIds.js";

/** Members (user ids) of a Slack user group (S…). */
export type GroupMembers = (groupId: string) => Promise<readonly string[]> | readonly string[];

export type ApproveDecision =
  | { allowed: true }
  | {
      allowed: false;
      reason: "not-an-approver" | "self-approval";
      message: string;
      /** For the log: why the check could not be made (a user group Slack would not read). */
      detail?: string;
    };

export type RequestDecision =
  | { allowed: true }
  | { allowed: false; reason: "not-a-requester"; message: string; detail?: string };

export interface CanApproveInput {
  userId: string;
  /** The user who requested the order. */
  requesterId: string;
  /** Slack user ids (U…/W…) and user group ids (S…), from APPROVERS. */
  approvers: readonly string[];
  groupMembers: GroupMembers;
  allowSelfApproval: boolean;
}

export interface CanRequestInput {
  userId: string;
  /** Slack user and user group ids, from REQUESTERS; empty means everyone may request. */
  requesters: readonly string[];
  groupMembers: GroupMembers;
}

/** Mentions are listed up to this many; the rest are counted. */
const MAX_MENTIONS = 10;

export async function canApprove(input: CanApproveInput): Promise<ApproveDecision> {
  const approvers = input.approvers.filter((id) => isSlackUserId(id) || isSlackUserGroupId(id));
  if (approvers.length === 0) {
    return {
      allowed: false,
      reason: "not-an-approver",
      message:
        "Nobody can approve orders yet: APPROVERS must be configured (Slack user or user group IDs).",
    };
  }
  const { membership, failure } = await listing(input.userId, approvers, input.groupMembers);
  if (membership === "lookup-failed") {
    const cause = failure ?? { groupId: "?", kind: "unreachable" as const, detail: "unknown" };
    return {
      allowed: false,
      reason: "not-an-approver",
      message: groupLookupMessage(cause, "accept your decision"),
      detail: `approver check failed: user group ${cause.groupId} ${cause.kind} (${cause.detail})`,
    };
  }
  if (membership === "no") {
    return {
      allowed: false,
      reason: "not-an-approver",
      message: `You are not an approver for orders. Approvers: ${mentions(approvers)}.`,
    };
  }
  if (input.userId === input.requesterId && !input.allowSelfApproval) {
    return {
      allowed: false,
      reason: "self-approval",
      message: "You requested this order, so someone else must approve it.",
    };
  }
  return { allowed: true };
}

export async function canRequest(input: CanRequestInput): Promise<RequestDecision> {
  if (input.requesters.length === 0) return { allowed: true };
  const requesters = input.requesters.filter((id) => isSlackUserId(id) || isSlackUserGroupId(id));
  const { membership, failure } = await listing(input.userId, requesters, input.groupMembers);
  if (membership === "yes") return { allowed: true };
  if (membership === "lookup-failed" && failure) {
    return {
      allowed: false,
      reason: "not-a-requester",
      message: groupLookupMessage(failure, "take your order"),
      detail: `requester check failed: user group ${failure.groupId} ${failure.kind} (${failure.detail})`,
    };
  }
  return {
    allowed: false,
    reason: "not-a-requester",
    message:
      membership === "lookup-failed"
        ? "I couldn't check the requester user groups just now, so I can't take your order. Please try again."
        : requesters.length === 0
          ? "Ordering is restricted, but REQUESTERS lists no valid Slack user or user group IDs."
          : `You are not allowed to request orders. Requesters: ${mentions(requesters)}.`,
  };
}

/** How a list of user and group ids reads in Slack: `<@U…>` and `<!subteam^S…>`. */
export function mentions(ids: readonly string[]): string {
  const shown = ids
    .slice(0, MAX_MENTIONS)
    .map((id) => (isSlackUserGroupId(id) ? `<!subteam^${id}>` : `<@${id}>`));
  const more = ids.length - shown.length;
  return more > 0 ? `${shown.join(", ")} and ${more} more` : shown.join(", ");
}

/**
 * Whether a user is among `ids` (Slack user ids, or user group ids whose members the caller
 * resolves); "lookup-failed" when a group could not be read and no other listing matched.
 */
export async function isListed(
  userId: string,
  ids: readonly string[],
  groupMembers: GroupMembers,
): Promise<"yes" | "no" | "lookup-failed"> {
  return (await listing(userId, ids, groupMembers)).membership;
}

/** `isListed`, with the first group that could not be read and why. */
export async function listing(
  userId: string,
  ids: readonly string[],
  groupMembers: GroupMembers,
): Promise<{ membership: "yes" | "no" | "lookup-failed"; failure?: GroupLookupFailure }> {
  if (!isSlackUserId(userId)) return { membership: "no" };
  if (ids.includes(userId)) return { membership: "yes" };
  let failure: GroupLookupFailure | undefined;
  for (const groupId of ids.filter((id) => isSlackUserGroupId(id))) {
    try {
      const members = await groupMembers(groupId);
      if (members.includes(userId)) return { membership: "yes" };
    } catch (error) {
      // Deny by default, but say why: "you are not an approver" would be wrong.
      failure ??= groupLookupFailure(groupId, error);
    }
  }
  return failure ? { membership: "lookup-failed", failure } : { membership: "no" };
}
