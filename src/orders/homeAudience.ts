import type { ApprovalRequest, GroupMembers } from "../approvals/index.js";
import { requestAudience } from "../domain/audience.js";
import { isSlackUserGroupId, isSlackUserId } from "../domain/slackIds.js";
import { offersApprovers, readRequest, STATUSES_WITH_NEXT_STEPS } from "./readModel.js";

/**
 * Who is told about a request's change in App Home: the one audience rule
 * (src/domain/audience.ts) with the approvers' user groups read. The lifecycle
 * (`OrderLifecycle.changed`) queues `notifier.refreshHome` for each of them.
 */

/**
 * The approvers everyone's Home is refreshed for, and how a user group's members are read
 * (Slack's usergroups.users.list, src/slackDirectory.ts `groupMembersVia`, built by src/bot.ts).
 */
export interface HomeAudienceOptions {
  /** APPROVERS (with a policy file: every id its rules name): user ids and user groups (S…). */
  approvers: readonly string[];
  groupMembers: GroupMembers;
}

/**
 * Who sees a change of a request in their Home: its requester, and while it is or has just
 * stopped being the approvers' work (*Waiting on me*: approverWork.ts), the approvers (user
 * groups expanded; a group that cannot be read adds nobody). It is their work while the read
 * model offers them a step (waiting for a decision, an unknown outcome, a refused placement);
 * it has just stopped being when its last step left a status with next steps (decided, placed
 * again, retried, marked as failed, settled by a look-up).
 */
export function homeAudience(
  options: HomeAudienceOptions,
): (record: ApprovalRequest) => Promise<string[]> {
  return async (record) => {
    const last = record.history.at(-1);
    const approversSee =
      !last || offersApprovers(readRequest(record)) || STATUSES_WITH_NEXT_STEPS.includes(last.from);
    return requestAudience(record, approversSee ? await approverIds(options) : []);
  };
}

async function approverIds(options: HomeAudienceOptions): Promise<string[]> {
  const ids = new Set<string>();
  for (const id of options.approvers) {
    if (isSlackUserId(id)) ids.add(id);
    else if (isSlackUserGroupId(id)) {
      const members = await Promise.resolve(options.groupMembers(id)).catch(() => []);
      for (const member of members) ids.add(member);
    }
  }
  return [...ids];
}
