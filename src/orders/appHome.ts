import type { HomeView } from "@slack/types";
import { homeView } from "../../views/home/home.js";
import type { ApprovalRequest, ApprovalStore, GroupMembers } from "../approvals/index.js";
import { type HomePages, type HomeSources, readHome } from "../usecases/home.js";
import { type DecisionSettings, mayDecideNow, moneySightUnder } from "./deciders.js";
import type { RequestReadModel } from "./readModel.js";
import type { Tracker } from "./tracking/tracker.js";

/**
 * A person's App Home read (src/usecases/home.ts), rendered (views/home/home.ts) and published
 * (Slack's `views.publish`, handed in). src/bot.ts builds it before the jobs and hands it to
 * them: the notifier publishes a waiting refresh with it when it sends it
 * (src/jobs/notifier/homeRefresh.ts); who is refreshed for a request's change is homeAudience.ts'.
 * Opening the tab and paging publish with it too (src/slack/features/home/).
 */

/** What a person's Home is read from and where it is published. */
export interface AppHomeParts {
  store: Pick<ApprovalStore, "listPending" | "list">;
  /** The read model of records (`OrderLifecycle.readMany`). */
  read(records: readonly ApprovalRequest[]): Promise<RequestReadModel[]>;
  /** What is being tracked (the tracker's records: src/jobs `trackedReader`). */
  tracked: Pick<Tracker, "list">;
  /** Who may decide and who sees the team's money (the lifecycle API's rules). */
  settings: DecisionSettings & { approveConfirmFrom?: number };
  groupMembers: GroupMembers;
  /** The page of *My requests* each person chose last; without it, the first. */
  pages?: HomePages;
  sandbox: boolean;
  currency?: string;
  /** Slack's `views.publish` for one person. */
  publish(userId: string, view: HomeView): Promise<unknown>;
}

/** A person's Home published from the current state; `page` of *My requests*, else their last. */
export type AppHomePublisher = (userId: string, page?: number) => Promise<unknown>;

/** Renders a person's Home from the current state and publishes it; Slack's result. */
export function appHomePublisher(parts: AppHomeParts): AppHomePublisher {
  return async (userId, page) => {
    // A refresh keeps the person on the page of *My requests* they chose last.
    const shown = page ?? (await parts.pages?.get(userId).catch(() => 0)) ?? 0;
    const input = await readHome(homeSources(parts), userId, shown);
    return parts.publish(userId, homeView(input));
  };
}

function homeSources(parts: AppHomeParts): HomeSources {
  const { settings } = parts;
  const groups = cachedGroups(parts.groupMembers);
  return {
    store: parts.store,
    read: (records) => parts.read(records),
    tracker: parts.tracked,
    // Who the request's own rule names (a policy file's rule, else APPROVERS), as the buttons'
    // handler checks; someone whose approval is already counted has nothing left to decide.
    mayDecide: (userId, record) => mayDecideNow(record, settings, userId, groups),
    // The same rule as /connect spend, with this render's cached group look-ups.
    seesTeamSpend: async (userId) =>
      (await moneySightUnder(settings, userId, groups)).sees === "all",
    now: () => new Date(),
    sandbox: parts.sandbox,
    currency: parts.currency,
    ...(settings.approveConfirmFrom !== undefined
      ? { approveConfirmFrom: settings.approveConfirmFrom }
      : {}),
  };
}

/** Members of user groups are looked up once per Home render, not once per request. */
function cachedGroups(lookUp: GroupMembers): GroupMembers {
  const cache = new Map<string, Promise<readonly string[]>>();
  return (groupId) => {
    let members = cache.get(groupId);
    if (!members) {
      members = Promise.resolve(lookUp(groupId));
      cache.set(groupId, members);
    }
    return members;
  };
}
