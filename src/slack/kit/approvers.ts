import type { WebClient } from "@slack/web-api";
import type { GroupMembers } from "../../approvals/policy.js";
import { groupLookupError } from "../directory.js";

/**
 * Slack's part in deciding who may ask and who may decide: the members of a user group (S…)
 * named in APPROVERS, REQUESTERS or a policy rule. The decisions themselves are the lifecycle
 * API's (src/orders/requests.ts, src/orders/deciders.ts).
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
