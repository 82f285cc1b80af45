import type { WebClient } from "@slack/web-api";
import { homeView } from "../../../../views/home.js";

import type { ApprovalRequest } from "../../../approvals/types.js";

import type { Services } from "../../../services.js";
import { audienceOf, type HomeSources, readHome } from "../../../usecases/home.js";

import { groupMembersVia } from "../../kit/approvers.js";

/**
 * Publishing a person's App Home (`views.publish`): their own view of what waits on them, what
 * they asked for, what is tracked and what the team has committed to (views/home.ts). Used on
 * opening the tab and paging (this folder), and by the notifier's refresh (src/bot.ts wires
 * `homePublisher` and `refreshHomesOf`): a change of a request or a tracked order refreshes the
 * Home of the people who see it (`audienceOf`), debounced per person, in order, at Slack's pace —
 * never a timer for everyone.
 */

/** Members of user groups are looked up once per Home render, not once per request. */
function cachedGroups(client: WebClient) {
  const lookUp = groupMembersVia(client);
  const cache = new Map<string, Promise<readonly string[]>>();
  return (groupId: string) => {
    let members = cache.get(groupId);
    if (!members) {
      members = Promise.resolve(lookUp(groupId));
      cache.set(groupId, members);
    }
    return members;
  };
}

function homeSources(services: Services, client: WebClient): HomeSources {
  const settings = services.approvals;
  const groupMembers = cachedGroups(client);
  return {
    store: settings.store,
    read: (records) => services.orders.readMany(records),
    tracker: services.jobs.tracker,
    // Who the request's own rule names (a policy file's rule, else APPROVERS), as the buttons'
    // handler checks; someone whose approval is already counted has nothing left to decide.
    mayDecide: (userId, record) =>
      services.requests.mayDecide(record, { by: userId, groups: groupMembers }),
    // The same rule as /connect spend, with this render's cached group look-ups.
    seesTeamSpend: async (userId) =>
      (await services.requests.moneySight({ by: userId, groups: groupMembers })).sees === "all",
    now: () => new Date(),
    sandbox: services.sandbox,
    currency: services.currency,
    ...(settings.approveConfirmFrom !== undefined
      ? { approveConfirmFrom: settings.approveConfirmFrom }
      : {}),
  };
}

/** Renders a person's Home from the current state and publishes it; Slack's result. */
export function homePublisher(services: Services, client: WebClient) {
  return async (userId: string, page?: number): Promise<unknown> => {
    // A refresh keeps the person on the page of *My requests* they chose last.
    const shown = page ?? (await services.homePages?.get(userId).catch(() => 0)) ?? 0;
    const input = await readHome(homeSources(services, client), userId, shown);
    return client.views.publish({ user_id: userId, view: homeView(input) });
  };
}

/**
 * Refreshes the Home of everyone who sees a request (its requester; its approvers while it is
 * or just stopped being pending), through the notifier. Never throws: a Home is a view of the
 * state, and the next change or opening shows it.
 */
export function refreshHomesOf(services: Services, client: WebClient) {
  return async (record: ApprovalRequest): Promise<void> => {
    try {
      const people = await audienceOf(record, () => approverIds(services, client));
      for (const userId of people) await services.jobs.notifier.refreshHome(userId);
    } catch (error) {
      services.logger.warn({ err: error, approvalId: record.id }, "App Home refresh not queued");
    }
  };
}

/** APPROVERS as user ids, user groups expanded (a group that cannot be read adds nobody). */
async function approverIds(services: Services, client: WebClient): Promise<string[]> {
  const groupMembers = groupMembersVia(client);
  const ids = new Set<string>();
  for (const id of services.approvals.approvers) {
    if (/^[UW]/.test(id)) ids.add(id);
    else if (/^S/.test(id)) {
      for (const member of await Promise.resolve(groupMembers(id)).catch(() => [])) ids.add(member);
    }
  }
  return [...ids];
}
