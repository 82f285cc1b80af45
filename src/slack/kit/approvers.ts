import type { WebClient } from "@slack/web-api";
import type { GroupMembers } from "../../approvals/policy.js";

/**
 * Slack's part in deciding who may ask and who may decide: the members of a user group (S…)
 * named in APPROVERS, REQUESTERS or a policy rule. The decisions themselves are the lifecycle
 * API's (src/orders/requests.ts, src/orders/deciders.ts).
 */

/** Members of a Slack user group, for approvers/requesters given as S… ids. */
export function groupMembersVia(client: WebClient): GroupMembers {
  return async (groupId) => {
    const result = await client.usergroups.users.list({ usergroup: groupId });
    return result.users ?? [];
  };
}
