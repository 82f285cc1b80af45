import { type GroupLookupFailure, type GroupMembers, listing } from "./policy.js";
import type { ApprovalPolicy } from "./spendPolicy.js";

/**
 * Who may see the money: the one rule behind `/connect spend`, its Export CSV, the full audit
 * trail (`/connect approvals all`), the pending list and App Home's team spend. Deny by
 * default: the team's spend, every requester's requests and amounts are for
 *
 * - the approvers of any rule (APPROVERS, or everyone the policy's rules name),
 * - the policy's `finance` group, when it defines one (it may approve nothing, yet pays),
 * - SPEND_VIEWERS (user and user group ids);
 *
 * everyone else sees their own requests and amounts only. Pure: the caller resolves user
 * groups (Slack's usergroups.users.list), as for approvers.
 */

/** The policy group whose members see the money even when no rule names them. */
export const FINANCE_GROUP = "finance";

export interface MoneyAudience {
  /** Everyone who may approve something (with a policy file: every id its rules name). */
  approvers: readonly string[];
  policy?: ApprovalPolicy;
  spendViewers?: readonly string[];
}

/** What a person sees: everyone's requests and the team's sums, or their own only. */
export type MoneySight =
  | { sees: "all" }
  /** `failure`: a user group could not be read, so they may be a viewer who is shown less. */
  | { sees: "own"; failure?: GroupLookupFailure };

/** Every user and user group id who sees the team's money. */
export function moneyViewers(audience: MoneyAudience): string[] {
  return [
    ...new Set([
      ...audience.approvers,
      ...(audience.policy?.groups[FINANCE_GROUP] ?? []),
      ...(audience.spendViewers ?? []),
    ]),
  ];
}

/** Whether `userId` sees the team's money, or only their own. */
export async function moneySight(
  userId: string,
  audience: MoneyAudience,
  groupMembers: GroupMembers,
): Promise<MoneySight> {
  const { membership, failure } = await listing(userId, moneyViewers(audience), groupMembers);
  if (membership === "yes") return { sees: "all" };
  return failure ? { sees: "own", failure } : { sees: "own" };
}
