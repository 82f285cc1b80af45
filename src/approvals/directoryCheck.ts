import { DirectoryUnavailableError } from "../domain/groupLookup.js";
import { isSlackUserGroupId, isSlackUserId } from "../domain/slackIds.js";
import { type ApprovalPolicy, defaultPolicy } from "./spendPolicy.js";

/**
 * Every Slack user and user group the configuration names, checked against Slack: a policy
 * naming a group that does not exist would otherwise lock every approval it governs, and each
 * click would only say "try again". Run at start-up (a problem stops it, listed like a YAML
 * mistake) and on a schedule (a group deleted later is logged and shown by `/connect policy`).
 * When Slack cannot be asked, nothing is known: a warning, never a refusal to start.
 *
 * Pure but for the injected `Directory` (src/slack reads Slack's usergroups.list and
 * users.info); src/bot.ts runs it.
 */

/** A user group as Slack lists it. */
export interface DirectoryGroup {
  id: string;
  handle: string;
  /** Disabled in Slack (`date_delete` set): nobody is in it for the bot. */
  disabled: boolean;
  members: readonly string[];
}

export interface Directory {
  /** Every user group of the workspace, disabled ones included. */
  userGroups(): Promise<DirectoryGroup[]>;
  /** A user: undefined when Slack has none by that id. */
  user(id: string): Promise<{ deleted: boolean } | undefined>;
}

export { DirectoryUnavailableError } from "../domain/groupLookup.js";

/** Ids the configuration names, with where (a setting, a place in the policy file). */
export interface NamedIds {
  source: string;
  ids: readonly string[];
}

export interface DirectoryReport {
  checkedAt: Date;
  /** What is wrong: start-up refuses with these; later, the log and `/connect policy` say them. */
  problems: string[];
  /** Set when Slack could not be asked: nothing was checked. */
  warning?: string;
  /** The handle of each user group found (`network-approvers`), by id. */
  handles: Record<string, string>;
}

export interface DirectorySettings {
  approvers: readonly string[];
  policy?: ApprovalPolicy;
  requesters?: readonly string[];
  spendViewers?: readonly string[];
}

/** Where each id is named: the policy's groups and rules (or APPROVERS), REQUESTERS, SPEND_VIEWERS. */
export function namedIds(settings: DirectorySettings): NamedIds[] {
  const named: NamedIds[] = [];
  const { policy } = settings;
  if (policy) {
    for (const [name, ids] of Object.entries(policy.groups)) {
      named.push({ source: `APPROVAL_POLICY groups.${name}`, ids });
    }
    policy.rules.forEach((rule, index) => {
      const refs = [...rule.from, ...(rule.atLeastOneFrom ? [rule.atLeastOneFrom] : [])];
      const ids = refs.filter((ref) => isSlackUserGroupId(ref) || isSlackUserId(ref));
      if (ids.length > 0) named.push({ source: `APPROVAL_POLICY rules[${index}]`, ids });
    });
  } else if (settings.approvers.length > 0) {
    named.push({ source: "APPROVERS", ids: settings.approvers });
  }
  if (settings.requesters?.length) named.push({ source: "REQUESTERS", ids: settings.requesters });
  if (settings.spendViewers?.length)
    named.push({ source: "SPEND_VIEWERS", ids: settings.spendViewers });
  return named;
}

/** Checks every named id against Slack, then that each rule can be satisfied by who exists. */
export async function checkDirectory(
  settings: DirectorySettings,
  directory: Directory,
  now: () => Date = () => new Date(),
): Promise<DirectoryReport> {
  const named = namedIds(settings);
  const handles: Record<string, string> = {};
  const groupIds = new Set(named.flatMap((n) => n.ids.filter((id) => isSlackUserGroupId(id))));
  const userIds = new Set(named.flatMap((n) => n.ids.filter((id) => isSlackUserId(id))));
  if (groupIds.size === 0 && userIds.size === 0) return { checkedAt: now(), problems: [], handles };
  let groups: Map<string, DirectoryGroup>;
  const users = new Map<string, { deleted: boolean } | undefined>();
  try {
    groups = new Map(groupIds.size > 0 ? (await directory.userGroups()).map((g) => [g.id, g]) : []);
    for (const id of userIds) users.set(id, await directory.user(id));
  } catch (error) {
    return { checkedAt: now(), problems: [], handles, warning: unavailableWords(error) };
  }
  for (const group of groups.values()) handles[group.id] = group.handle;

  const problems: string[] = [];
  for (const { source, ids } of named) {
    for (const id of ids) {
      const problem = isSlackUserGroupId(id) ? groupProblem(id, groups) : userProblem(id, users);
      if (problem) problems.push(`${source} ${problem}`);
    }
  }
  // Who could approve each rule's requests, of the people who exist now.
  const people = (ids: readonly string[]) =>
    new Set(
      ids.flatMap((id) => {
        if (isSlackUserId(id)) return users.get(id) && !users.get(id)?.deleted ? [id] : [];
        const group = groups.get(id);
        return group && !group.disabled ? [...group.members] : [];
      }),
    );
  const policy =
    settings.policy ??
    (settings.approvers.length > 0 ? defaultPolicy(settings.approvers) : undefined);
  policy?.rules.forEach((rule, index) => {
    const where = settings.policy
      ? `APPROVAL_POLICY rules[${index}] ("${rule.name}")`
      : "APPROVERS";
    const resolved = (refs: readonly string[]) =>
      refs.flatMap((ref) =>
        isSlackUserGroupId(ref) || isSlackUserId(ref) ? [ref] : (policy.groups[ref] ?? []),
      );
    const oneFrom = rule.atLeastOneFrom;
    const able = people(resolved([...rule.from, ...(oneFrom ? [oneFrom] : [])]));
    if (able.size < rule.approvals) {
      problems.push(
        `${where} can never be satisfied: it needs ${rule.approvals} distinct approver${rule.approvals === 1 ? "" : "s"}, and ${able.size === 0 ? "nobody" : `only ${able.size} ${able.size === 1 ? "person" : "people"}`} in Slack can approve under it`,
      );
    } else if (oneFrom && people(resolved([oneFrom])).size === 0) {
      problems.push(
        `${where} can never be satisfied: one approval must come from ${oneFrom}, which has nobody in Slack`,
      );
    }
  });
  return { checkedAt: now(), problems: [...new Set(problems)], handles };
}

function groupProblem(id: string, groups: Map<string, DirectoryGroup>): string | undefined {
  const group = groups.get(id);
  if (!group) return `names the user group ${id}, which does not exist in this Slack workspace`;
  if (group.disabled) return `names the user group ${id} (@${group.handle}), which is disabled`;
  return undefined;
}

function userProblem(
  id: string,
  users: Map<string, { deleted: boolean } | undefined>,
): string | undefined {
  const user = users.get(id);
  if (!user) return `names the user ${id}, who does not exist in this Slack workspace`;
  if (user.deleted) return `names the user ${id}, whose account is deactivated`;
  return undefined;
}

function unavailableWords(error: unknown): string {
  const failure = error instanceof DirectoryUnavailableError ? error.failure : undefined;
  const detail = failure?.detail ?? (error instanceof Error ? error.message : String(error));
  const why =
    failure?.kind === "not-allowed"
      ? `the bot may not read it (${failure.method}: ${detail}; it needs the usergroups:read and users:read scopes)`
      : `Slack did not answer (${failure ? `${failure.method}: ` : ""}${detail})`;
  return `The users and user groups the approval configuration names could not be checked: ${why}. Approvals naming a missing group would be refused; the check runs again every few minutes.`;
}

/** The latest report, kept for `/connect policy` (one per process; each replica checks). */
export class DirectoryStatus {
  private report: DirectoryReport | undefined;

  constructor(private readonly check: () => Promise<DirectoryReport>) {}

  latest(): DirectoryReport | undefined {
    return this.report;
  }

  async refresh(): Promise<DirectoryReport> {
    this.report = await this.check();
    return this.report;
  }
}
