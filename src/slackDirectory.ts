import type { WebClient } from "@slack/web-api";
import type { Directory, GroupMembers } from "./approvals/index.js";
import {
  DirectoryUnavailableError,
  GroupLookupError,
  type GroupLookupFailure,
} from "./domain/groupLookup.js";
import { isRecord } from "./domain/records.js";

/**
 * Slack's directory of users and user groups as the approval checks read it: the start-up and
 * scheduled check of every id the configuration names (`slackDirectory`, usergroups.list and
 * users.info), a user group's members (`groupMembersVia`: the approval checks, App Home and who
 * is told of a change), and why a user group could not be read (`groupLookupError`), so a
 * person is told the real cause instead of "try again". Beside src/bot.ts, not in src/slack:
 * the composition root hands these readers to the layers as plain functions (as
 * src/stepWiring.ts's), and the adapter's listeners use them too.
 */

/** Slack errors meaning the group or user is not there: trying again never helps. */
const MISSING = new Set(["no_such_subteam", "subteam_not_found", "user_not_found"]);
/** Slack errors meaning the bot may not read it: an admin fixes a scope or the token. */
const NOT_ALLOWED = new Set([
  "missing_scope",
  "not_allowed_token_type",
  "invalid_auth",
  "not_authed",
  "account_inactive",
  "token_revoked",
  "token_expired",
  "no_permission",
  "access_denied",
  "team_access_not_granted",
  "plan_upgrade_required",
  "paid_teams_only",
]);

/** What a failed Web API call means for a look-up: missing, not allowed, or unreachable. */
export function lookupFailureOf(error: unknown): Omit<GroupLookupFailure, "groupId"> {
  if (isRecord(error) && error.code === "slack_webapi_platform_error" && isRecord(error.data)) {
    const code = typeof error.data.error === "string" ? error.data.error : "unknown_error";
    const kind = MISSING.has(code)
      ? "missing"
      : NOT_ALLOWED.has(code)
        ? "not-allowed"
        : "unreachable";
    return { kind, detail: code };
  }
  if (isRecord(error) && error.code === "slack_webapi_rate_limited_error") {
    return { kind: "unreachable", detail: "ratelimited" };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "unreachable", detail: message.slice(0, 200) };
}

/** The error a group look-up throws: `GroupLookupError`, carrying why. */
export function groupLookupError(groupId: string, error: unknown): GroupLookupError {
  return new GroupLookupError({ groupId, ...lookupFailureOf(error) });
}

/** Slack's users and user groups, for `checkDirectory` (src/approvals/directoryCheck.ts). */
export function slackDirectory(client: WebClient): Directory {
  return {
    async userGroups() {
      const listed = await client.usergroups
        .list({ include_users: true, include_disabled: true })
        .catch((error: unknown) => {
          throw new DirectoryUnavailableError({
            method: "usergroups.list",
            ...lookupFailureOf(error),
          });
        });
      return (listed.usergroups ?? []).flatMap((group) =>
        group.id
          ? [
              {
                id: group.id,
                handle: group.handle ?? group.id,
                disabled: typeof group.date_delete === "number" && group.date_delete > 0,
                members: group.users ?? [],
              },
            ]
          : [],
      );
    },
    async user(id) {
      try {
        const answer = await client.users.info({ user: id });
        return { deleted: answer.user?.deleted === true };
      } catch (error) {
        const failure = lookupFailureOf(error);
        if (failure.kind === "missing") return undefined;
        throw new DirectoryUnavailableError({ method: "users.info", ...failure });
      }
    },
  };
}

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
