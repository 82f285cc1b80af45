import type { WebClient } from "@slack/web-api";
import {
  type ApprovalRequest,
  type ApprovalRequirement,
  canApprove,
  type GroupMembers,
  isListed,
  requirementFor,
  type TransitionResult,
} from "../../approvals/index.js";
import type { Services } from "../../services.js";
import { groupLookupError } from "../directory.js";

/**
 * Who may decide a request and how an approval is counted, for every place with Approve and
 * Reject buttons (the approvals channel, App Home): the request's requirement (its policy rule,
 * or one approval from APPROVERS), Slack user groups resolved through Slack.
 */

/** Members of a Slack user group, for approvers/requesters given as S… ids. */
export function groupMembersVia(client: WebClient): GroupMembers {
  return async (groupId) => {
    // A failure carries why (a missing group, a missing scope, Slack down): the person is told.
    const result = await client.usergroups.users
      .list({ usergroup: groupId })
      .catch((error: unknown) => {
        throw groupLookupError(groupId, error);
      });
    return result.users ?? [];
  };
}

/**
 * What a request needs: the requirement fixed on it when it was created under a policy file;
 * otherwise (no file, or a request from before one) one approval from the approvers configured
 * now — a policy's rule for it when there is a policy.
 */
export function requirementOf(
  record: ApprovalRequest,
  settings: Services["approvals"],
): ApprovalRequirement {
  if (record.requirement) return record.requirement;
  if (settings.policy) {
    return requirementFor(settings.policy, { kind: record.kind, monthly: record.price?.monthly });
  }
  return { rule: "", approvals: 1, from: settings.approvers, approvers: settings.approvers };
}

/**
 * Records `userId`'s approval of a request (after `authorizeApprover` allowed it): whether they
 * count for the rule's "at least one from <group>" is resolved here, so every place with an
 * Approve button (the approvals channel, App Home) counts alike. A failed group look-up counts
 * as not in the group: the last approval is then refused, never wrongly completed.
 */
export async function approveAs(
  services: Services,
  client: WebClient,
  record: ApprovalRequest,
  userId: string,
): Promise<TransitionResult> {
  const requirement = requirementOf(record, services.approvals);
  const inGroup = requirement.atLeastOneFrom
    ? (await isListed(userId, requirement.atLeastOneFrom.ids, groupMembersVia(client))) === "yes"
    : false;
  return services.orders.approve(record.id, userId, {
    inGroup,
    ...(record.requirement ? {} : { fallback: requirement }),
  });
}

/** Whether a user may approve or reject this request (its requirement's approvers). */
export function authorizeApprover(
  client: WebClient,
  settings: Services["approvals"],
  userId: string,
  record: ApprovalRequest,
) {
  return canApprove({
    userId,
    requesterId: record.requester.userId,
    approvers: requirementOf(record, settings).approvers,
    groupMembers: groupMembersVia(client),
    allowSelfApproval: settings.allowSelfApproval,
  });
}
