import type { HomeView } from "@slack/types";
import type { Redis } from "ioredis";
import { homeView } from "../../views/home/home.js";
import type { ApprovalRequest, ApprovalStore, GroupMembers } from "../approvals/index.js";
import { seesTracked } from "../domain/audience.js";
import { HOME_PAGE_SIZE } from "../domain/paging.js";
import { type ApproverWorkSources, approverWork } from "./approverWork.js";
import { cachedGroups, type DecisionSettings, mayDecideNow, moneySightUnder } from "./deciders.js";
import type { RequestReadModel } from "./readModel.js";
import { type CommittedSpend, committedSpend } from "./spend/committed.js";
import type { TrackedOrder } from "./tracking/records.js";
import type { Tracker } from "./tracking/tracker.js";

/**
 * A person's App Home: what it shows, read from the state (`readHome`, below), rendered (views/home/home.ts) and published
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
  // Members of user groups are looked up once per Home render, not once per request.
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

/**
 * What a person's App Home shows, read from the approval records as the read model shows them
 * (src/orders/readModel.ts: the same state, order id, tracked status and money as the approval
 * message and the card) and the tracker; `appHomePublisher` renders it with views/home/home.ts.
 */

/** What the tracker follows, as Home shows it (a plain copy of the tracker's record). */
export interface HomeTracked {
  kind: "port-order" | "port" | "layer2" | "iod" | "edge-order";
  id: string;
  /** The name it was requested under (the request's title), when it went through the bot. */
  name?: string;
  status?: string;
  /** When the status last changed (or tracking started, before the first change). */
  changedAt?: Date;
  startedAt: Date;
}

/** Everything a person's Home shows (views/home/home.ts renders it). */
export interface HomeInput {
  userId: string;
  sandbox: boolean;
  /** The currency amounts are in; undefined: the account's (the provider names none). */
  currency?: string;
  now: Date;
  /** Pending requests this person may decide, oldest first. */
  waiting: readonly RequestReadModel[];
  /** One page of this person's requests, newest first. */
  mine: {
    records: readonly RequestReadModel[];
    page: number;
    hasNext: boolean;
    total: number;
  };
  /** What is being tracked for this person. */
  tracked: readonly HomeTracked[];
  /** APPROVE_CONFIRM_FROM: Approve asks first from this monthly amount (default 1,000). */
  approveConfirmFrom?: number;
  /** `team` only for those who may see the money (src/approvals/moneyAccess.ts). */
  spend: { team?: CommittedSpend; mine: CommittedSpend };
}

export interface HomeSources extends ApproverWorkSources {
  tracker: Pick<Tracker, "list">;
  /**
   * Whether `userId` may take the approvers' next step on `record` (the approvers' policy, user
   * groups resolved: deciders.ts `mayDecideNow`).
   */
  mayDecide(userId: string, record: ApprovalRequest): Promise<boolean>;
  /** Whether `userId` may see the team's money (src/approvals/moneyAccess.ts); else their own. */
  seesTeamSpend(userId: string): Promise<boolean>;
  now(): Date;
  sandbox: boolean;
  currency?: string;
  /** APPROVE_CONFIRM_FROM: Approve asks first from this monthly amount. */
  approveConfirmFrom?: number;
}

/**
 * Requests read for *My requests* and *Committed spend*: the newest this many (the store's
 * most per list). A team past it sees the newest ones; the sums say so by their order count.
 */
const RECORDS_READ = 1000;

export async function readHome(
  sources: HomeSources,
  userId: string,
  page: number,
): Promise<HomeInput> {
  const [work, stored, trackers, seesTeam] = await Promise.all([
    // *Waiting on me*: what this person may decide, and the placements that went wrong on
    // which they may take the next step (approverWork.ts: the read model's rule).
    approverWork(sources, (record) => sources.mayDecide(userId, record)),
    sources.store.list({ limit: RECORDS_READ }),
    sources.tracker.list(),
    sources.seesTeamSpend(userId),
  ]);
  // The read model: the same state, order id and tracked status as every other surface (a done
  // order is "Done" here too, however long ago its tracker ended).
  const records = await sources.read(stored);
  const waiting = work.map((item) => item.model);
  const mine = records.filter((record) => record.requester === userId);
  const lastPage = Math.max(0, Math.ceil(mine.length / HOME_PAGE_SIZE) - 1);
  const shownPage = Math.min(Math.max(0, Math.trunc(page) || 0), lastPage);
  const names = requestNames(records);
  return {
    userId,
    sandbox: sources.sandbox,
    currency: sources.currency,
    ...(sources.approveConfirmFrom !== undefined
      ? { approveConfirmFrom: sources.approveConfirmFrom }
      : {}),
    now: sources.now(),
    waiting,
    mine: {
      records: mine.slice(shownPage * HOME_PAGE_SIZE, (shownPage + 1) * HOME_PAGE_SIZE),
      page: shownPage,
      hasNext: shownPage < lastPage,
      total: mine.length,
    },
    tracked: trackers.filter((t) => seesTracked(userId, t)).map((t) => homeTracked(t, names)),
    spend: {
      // The team's sums only for those who may see the money; everyone sees their own.
      ...(seesTeam ? { team: committedSpend(records, { at: sources.now() }) } : {}),
      mine: committedSpend(records, { requester: userId, at: sources.now() }),
    },
  };
}

/**
 * The page of *My requests* each person last chose, so a refresh (a change elsewhere) keeps them
 * where they were. One small key per person, kept a day after their last paging.
 */
export interface HomePages {
  get(userId: string): Promise<number>;
  set(userId: string, page: number): Promise<void>;
}

const PAGE_KEPT_SECONDS = 24 * 3600;

export function redisHomePages(redis: Redis, prefix: string): HomePages {
  const key = (userId: string) => `${prefix}:page:${userId}`;
  return {
    async get(userId) {
      const page = Number(await redis.get(key(userId)));
      return Number.isInteger(page) && page > 0 ? page : 0;
    },
    async set(userId, page) {
      await redis.set(
        key(userId),
        String(Math.max(0, Math.trunc(page) || 0)),
        "EX",
        PAGE_KEPT_SECONDS,
      );
    },
  };
}

/** The name each placed order was requested under, by the provider's id (*Being tracked*). */
function requestNames(records: readonly RequestReadModel[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const record of records) {
    const id = record.order?.id;
    if (id && !names.has(id)) names.set(id, record.title);
  }
  return names;
}

function homeTracked(tracked: TrackedOrder, names: ReadonlyMap<string, string>): HomeTracked {
  const name = names.get(tracked.target.id);
  return {
    kind: tracked.target.kind,
    id: tracked.target.id,
    ...(name ? { name } : {}),
    ...(tracked.status ? { status: tracked.status } : {}),
    ...(tracked.lastChangeAt ? { changedAt: tracked.lastChangeAt } : {}),
    startedAt: tracked.startedAt,
  };
}
