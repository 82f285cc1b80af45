import type { GroupMembers, MoneySight } from "../../approvals/index.js";
import type { Logger } from "../../log.js";
import type { OrderRequests } from "../../orders/requests.js";

/**
 * Who may see the money (src/approvals/moneyAccess.ts, through the lifecycle API), asked the same way by every command and
 * button that shows it — `/connect spend`, its Export CSV, `/connect approvals`, `/connect help`
 * — with user groups resolved through Slack (App Home asks the same `moneySight` with the group
 * look-ups it caches for its render). A group that could not be read shows the person
 * their own only (deny by default), and the log says which group and why.
 */
export async function moneySightOf(
  services: { requests: Pick<OrderRequests, "moneySight">; logger: Logger },
  /** Members of a Slack user group, for policies that name groups (`groupMembersVia`). */
  groups: GroupMembers,
  userId: string,
): Promise<MoneySight> {
  const sight = await services.requests.moneySight({ by: userId, groups });
  if (sight.sees === "own" && sight.failure) {
    services.logger.warn(
      { userId, group: sight.failure.groupId, cause: sight.failure.detail },
      "money access: a user group could not be read, so only the person's own is shown",
    );
  }
  return sight;
}
