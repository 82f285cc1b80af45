import type { Redis } from "ioredis";
import type { HomeInput, HomeTracked } from "../../views/home.js";
import type { ApprovalRequest, ApprovalStore } from "../approvals/index.js";
import { HOME_PAGE_SIZE } from "../domain/paging.js";
import type { Tracker } from "../jobs/tracker.js";
import type { TrackedOrder } from "../jobs/trackerRecords.js";
import { committedSpend } from "../orders/spend.js";

/**
 * What a person's App Home shows, read from the approval records and the tracker (plain
 * inputs; the Slack layer renders it with views/home.ts and publishes it).
 */

export interface HomeSources {
  store: Pick<ApprovalStore, "listPending" | "list">;
  tracker: Pick<Tracker, "list">;
  /** Whether `userId` may decide `record` (the approvers' policy, user groups resolved). */
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
  const [pending, records, trackers, seesTeam] = await Promise.all([
    sources.store.listPending(),
    sources.store.list({ limit: RECORDS_READ }),
    sources.tracker.list(),
    sources.seesTeamSpend(userId),
  ]);
  const decidable = await Promise.all(
    pending.map(async (record) => ((await sources.mayDecide(userId, record)) ? record : null)),
  );
  const mine = records.filter((record) => record.requester.userId === userId);
  const lastPage = Math.max(0, Math.ceil(mine.length / HOME_PAGE_SIZE) - 1);
  const shownPage = Math.min(Math.max(0, Math.trunc(page) || 0), lastPage);
  return {
    userId,
    sandbox: sources.sandbox,
    currency: sources.currency,
    ...(sources.approveConfirmFrom !== undefined
      ? { approveConfirmFrom: sources.approveConfirmFrom }
      : {}),
    now: sources.now(),
    waiting: decidable.filter((record): record is ApprovalRequest => record !== null),
    mine: {
      records: mine.slice(shownPage * HOME_PAGE_SIZE, (shownPage + 1) * HOME_PAGE_SIZE),
      page: shownPage,
      hasNext: shownPage < lastPage,
      total: mine.length,
    },
    tracked: trackers.filter((t) => seesTracker(userId, t)).map(homeTracked),
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

/** Who sees a tracked target: whoever asked to track it, or joined. */
export function seesTracker(userId: string, tracked: TrackedOrder): boolean {
  return tracked.requestedBy === userId || tracked.watchers.includes(userId);
}

function homeTracked(tracked: TrackedOrder): HomeTracked {
  return {
    kind: tracked.target.kind,
    id: tracked.target.id,
    ...(tracked.status ? { status: tracked.status } : {}),
    ...(tracked.lastChangeAt ? { changedAt: tracked.lastChangeAt } : {}),
    startedAt: tracked.startedAt,
  };
}

/**
 * Who sees a change of `record` in their Home: its requester (*My requests*), and while it is
 * or has just stopped being pending, everyone who may decide it (*Waiting on me*). The team's
 * committed spend is read when a Home is opened, not pushed to everyone on every placement.
 */
export async function audienceOf(
  record: ApprovalRequest,
  approvers: () => Promise<string[]>,
): Promise<string[]> {
  const people = new Set([record.requester.userId]);
  const wasPending = record.history.at(-1)?.from === "pending" || record.history.length === 0;
  if (record.status === "pending" || wasPending) {
    for (const approver of await approvers()) people.add(approver);
  }
  return [...people];
}
