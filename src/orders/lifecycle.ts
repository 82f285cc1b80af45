import type { Redis } from "ioredis";
import {
  approvalMessageView,
  escalationText,
  failedThreadText,
  type LookUpOutcome,
  personStepText,
  placedRequesterText,
  placedThreadText,
  rejectedRequesterText,
} from "../../views/approvals.js";
import type { OrderProgress } from "../../views/orderProgress.js";
import {
  orderEndedRequesterText,
  orderFailedRequesterText,
  requestCardReplyText,
  requestCardView,
} from "../../views/requestCard.js";
import {
  type ApprovalRequest,
  type ApprovalStore,
  type ApproveInput,
  type PlacementError,
  type PlacementResult,
  type TransitionResult,
  WITHDRAWN_NOTE,
} from "../approvals/index.js";
import type { Notifier } from "../jobs/notifier.js";
import type { Placement } from "../jobs/placement.js";
import type {
  EscalationCause,
  LookUpAgainOutcome,
  PlacementCallbacks,
  PlacementContext,
} from "../jobs/placementContract.js";
import type { Tracker } from "../jobs/tracker.js";
import type { TrackingEvent } from "../jobs/trackerReports.js";
import type { ProviderApi } from "../provider/api.js";
import { lookUpOrder, orderKind, placeOrder } from "./kinds.js";
import { ProgressStore } from "./progress.js";

/**
 * The order lifecycle's one owner: submit → approve → place → track → end. See README.md.
 *
 * - A person's step (approve, reject, retry, place again, mark as failed) is recorded in the
 *   store by the Slack layer *before* it acks the click; `followUp(record)` then tells the
 *   thread, updates the approval message and, for an approved request, queues its placement —
 *   in that order, so "Approved by …" is always above what the placement says.
 * - The placement job (src/jobs/placement.ts) calls `placementCallbacks()`: place and look up
 *   through the per-kind table, and on placed → start tracking and tell the thread; failed /
 *   unknown → tell and offer the way forward (buttons on the approval message).
 * - Every message about a request goes through the notifier (scope `approval:<id>`): one
 *   ordered writer per channel, so the approval message's last update shows the latest state.
 */

/** The store steps the lifecycle uses; `placeAgain`/`markFailed` come with the names work. */
export type LifecycleStore = Pick<
  ApprovalStore,
  "get" | "decide" | "approve" | "cancel" | "retry"
> & {
  /** unknown → approved: a person's deliberate act after a look-up found nothing. */
  placeAgain(id: string, by: string): Promise<TransitionResult>;
  /** unknown → failed, noting who; releases the name. */
  markFailed(id: string, by: string, note: string): Promise<TransitionResult>;
};

/** What the lifecycle needs of the jobs (they exist only after startJobs). */
export interface LifecycleJobs {
  notifier: Pick<Notifier, "post" | "update">;
  placement: Pick<Placement, "enqueue" | "lookUpAgain">;
  tracker: Pick<Tracker, "track">;
}

export interface OrderLifecycleOptions {
  store: LifecycleStore;
  provider: ProviderApi;
  /** The provider company the bot acts for (look-ups and tracking are per company). */
  companyUsername: () => Promise<string>;
  /** For the last look-up's outcome per request (whether *Place again* is offered). */
  redis: Redis;
  /** Key prefix, e.g. `connect:orders`. */
  prefix: string;
}

/** Look-up outcomes are kept as long as approval records (at least 90 days). */
const LOOK_UP_TTL_SECONDS = 100 * 24 * 3600;
/** How long a requester, once told why their cards go to their DM, is not told again. */
const CARD_NOTICE_SECONDS = 30 * 24 * 3600;
/** A stale message update is followed by a fresh one at most this many times per call. */
const MAX_REFRESH_ROUNDS = 3;

export class OrderLifecycle {
  private readonly store: LifecycleStore;
  private readonly provider: ProviderApi;
  private readonly companyUsername: () => Promise<string>;
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly progress: ProgressStore;
  private connected: (jobs: LifecycleJobs) => void = () => {};
  private readonly changeListeners: Array<(record: ApprovalRequest) => Promise<void>> = [];
  /** Resolves once the jobs exist: a callback the workers run before that waits for them. */
  private readonly jobsReady: Promise<LifecycleJobs>;

  constructor(options: OrderLifecycleOptions) {
    this.store = options.store;
    this.provider = options.provider;
    this.companyUsername = options.companyUsername;
    this.redis = options.redis;
    this.prefix = options.prefix;
    this.progress = new ProgressStore(options.redis, `${options.prefix}:progress`);
    this.jobsReady = new Promise((resolve) => {
      this.connected = resolve;
    });
  }

  /**
   * Hands the lifecycle the jobs. The jobs' workers call `placementCallbacks()` and may start
   * (the start-up reconcile) before startJobs returns; those calls wait for this.
   */
  connect(jobs: LifecycleJobs): void {
    this.connected(jobs);
  }

  /**
   * Tells `listener` of every change of a request (created, decided, placed, failed, unknown,
   * cancelled…), with the request as it is now: App Home refreshes the people who see it. A
   * listener must not throw (it is awaited, after the approval message's update).
   */
  onChange(listener: (record: ApprovalRequest) => Promise<void>): void {
    this.changeListeners.push(listener);
  }

  /** A request changed (or was created): the listeners are told. */
  async changed(record: ApprovalRequest): Promise<void> {
    for (const listener of this.changeListeners) await listener(record);
  }

  // ── a person's steps, recorded before the click is acked ────────────────────────────────

  /**
   * One approval: the request is approved (and then placed) by the one that completes its
   * requirement; before that it is recorded and the request stays pending (see the store).
   */
  approve(
    id: string,
    by: string,
    options: Pick<ApproveInput, "inGroup" | "fallback"> = {},
  ): Promise<TransitionResult> {
    return this.store.approve(id, { by, ...options });
  }

  /** pending → cancelled by the requester (withdrawn): releases the name; nothing is placed. */
  withdraw(id: string, by: string): Promise<TransitionResult> {
    return this.store.cancel(id, by, WITHDRAWN_NOTE);
  }

  reject(id: string, by: string, reason: string): Promise<TransitionResult> {
    return this.store.decide(id, { by, action: "reject", reason });
  }

  /** failed → approved: the provider refused before; the cause was fixed. */
  retry(id: string, by: string): Promise<TransitionResult> {
    return this.store.retry(id, by);
  }

  /**
   * unknown → approved, only after a look-up found nothing (the button says what could
   * happen: a second order if the first did reach the provider).
   */
  async placeAgain(
    id: string,
    by: string,
  ): Promise<TransitionResult | { ok: false; reason: "look-up-first"; record: ApprovalRequest }> {
    const record = await this.store.get(id);
    if (record?.status === "unknown" && (await this.lastLookUp(record))?.kind !== "not-found") {
      return { ok: false, reason: "look-up-first", record };
    }
    return this.store.placeAgain(id, by);
  }

  /** unknown → failed by a person: nothing more is done, the name is free again. */
  markFailed(id: string, by: string): Promise<TransitionResult> {
    return this.store.markFailed(id, by, "the order was sent but its outcome stayed unknown");
  }

  /**
   * After a person's step was recorded (and acked): the thread line, the approval message, and
   * the placement for an approved request. Safe to repeat: every message has a stable key.
   */
  async followUp(record: ApprovalRequest): Promise<void> {
    const jobs = await this.jobsReady;
    await this.tellStep(record, record.history.length - 1);
    await this.refreshMessage(record.id);
    if (record.status === "rejected") {
      await jobs.notifier.post({
        scope: scopeOf(record),
        key: `h${record.history.length - 1}:requester`,
        channel: record.requester.userId,
        text: rejectedRequesterText(record),
      });
    }
    // Queued last: whatever the placement says comes after the step that started it.
    if (record.status === "approved") await jobs.placement.enqueue(record.id);
  }

  /**
   * *Look up again* on an unknown request: the placement journal looks it up now and settles it
   * (found → placed, through `onPlaced`) or escalates again (a new thread line per press).
   */
  async lookUpAgain(id: string): Promise<LookUpAgainOutcome> {
    const jobs = await this.jobsReady;
    return jobs.placement.lookUpAgain(id);
  }

  // ── the placement job's collaborators ────────────────────────────────────────────────

  placementCallbacks(): PlacementCallbacks {
    return {
      place: (request) => placeOrder(this.provider, request),
      reconcile: async (request) =>
        lookUpOrder(this.provider, request, await this.companyUsername()),
      onPlaced: (request, result, ctx) => this.onPlaced(request, result, ctx),
      onFailed: (request, error, ctx) => this.onFailed(request, error, ctx),
      onEscalate: (request, cause, ctx) => this.escalate(request, cause, ctx),
    };
  }

  private async onPlaced(
    request: ApprovalRequest,
    result: PlacementResult,
    ctx: PlacementContext,
  ): Promise<void> {
    const jobs = await this.jobsReady;
    await this.tellLastApproval(request);
    await this.postInThread(
      ctx.notifier,
      request,
      `${ctx.notifyKey}:thread`,
      placedThreadText(
        { ...request, status: "placed", result },
        orderKind(request.kind).nextSteps(request, result),
      ),
    );
    await this.refreshMessage(request.id);
    await ctx.notifier.post({
      scope: ctx.notifyScope,
      key: `${ctx.notifyKey}:requester`,
      channel: request.requester.userId,
      text: placedRequesterText({ ...request, result }),
    });
    await this.startTracking(jobs, request, result);
  }

  private async onFailed(
    request: ApprovalRequest,
    error: PlacementError,
    ctx: PlacementContext,
  ): Promise<void> {
    await this.tellLastApproval(request);
    await this.postInThread(
      ctx.notifier,
      request,
      `${ctx.notifyKey}:thread`,
      failedThreadText(error),
    );
    await this.refreshMessage(request.id);
    await ctx.notifier.post({
      scope: ctx.notifyScope,
      key: `${ctx.notifyKey}:requester`,
      channel: request.requester.userId,
      text: orderFailedRequesterText({ ...request, error }),
    });
  }

  /** Says what happened and offers the way forward (the buttons follow the look-up). */
  private async escalate(
    request: ApprovalRequest,
    cause: EscalationCause,
    ctx: PlacementContext,
  ): Promise<void> {
    await this.tellLastApproval(request);
    await this.recordLookUp(request, cause);
    await this.postInThread(
      ctx.notifier,
      request,
      `${ctx.notifyKey}:thread`,
      // The journal names a person's *Look up again* `…:again:…`.
      escalationText(request, cause, { again: ctx.notifyKey.includes(":again:") }),
    );
    await this.refreshMessage(request.id);
  }

  /** Hands what was placed to the tracker, by the kind's track target. */
  private async startTracking(
    jobs: LifecycleJobs,
    request: ApprovalRequest,
    result: PlacementResult,
  ): Promise<void> {
    const spec = orderKind(request.kind);
    const target = spec.trackTarget(request, result);
    const { approvalChannel: channel, approvalTs: threadTs } = request.slack;
    if (!target || !channel || !threadTs) return;
    const counterparty = spec.counterparty(request);
    await jobs.tracker.track({
      target,
      companyName: await this.companyUsername(),
      channel,
      threadTs,
      requestedBy: request.requester.userId,
      ...(counterparty ? { counterparty } : {}),
      ref: request.id,
    });
  }

  // ── the approvals thread and message ──────────────────────────────────────────────────

  /** Posts the thread line of the person's step at `index` of the history (once per step). */
  private async tellStep(record: ApprovalRequest, index: number): Promise<void> {
    const entry = record.history[index];
    const text = entry ? personStepText(record, entry) : undefined;
    if (!entry || !text) return;
    const jobs = await this.jobsReady;
    await this.postInThread(jobs.notifier, record, `h${index}:${entry.to}`, text);
  }

  /**
   * The step that approved this placement, said before its outcome. Usually the click's own
   * follow-up said it already (same key: not again); after a crash between the ack and that
   * follow-up, this keeps "Approved by …" above "Ordered".
   */
  private async tellLastApproval(record: ApprovalRequest): Promise<void> {
    const index = record.history.findLastIndex((entry) => entry.to === "approved");
    if (index >= 0) await this.tellStep(record, index);
  }

  /**
   * Updates the approval message and the request card to the request as it is now (its record,
   * and for a placed order what tracking said), and says a new state in the card's thread. Two
   * writers (a click, a placement or tracking job) may render concurrently and enqueue out of
   * order; the notifier sends in enqueue order, so after enqueueing, the record is read again:
   * if it moved on meanwhile, the newer state is enqueued after ours. The last update queued
   * therefore shows the latest state, on both messages, from the same read.
   */
  async refreshMessage(id: string): Promise<void> {
    const jobs = await this.jobsReady;
    let state = await this.readState(id);
    // Every change of a request comes through here (each step updates its message).
    if (state) await this.changed(state.record);
    let previous: string | undefined;
    for (let round = 0; state && round < MAX_REFRESH_ROUNDS; round += 1) {
      const { record, lookUp, progress, version } = state;
      const key = previous ? `${version}:after:${previous}` : version;
      const { approvalChannel: channel, approvalTs: ts } = record.slack;
      if (channel && ts) {
        const view = approvalMessageView(record, { lastLookUp: lookUp?.kind, progress });
        await jobs.notifier.update({
          scope: scopeOf(record),
          key: `message:${key}`,
          channel,
          ts,
          text: view.text,
          blocks: view.blocks,
        });
      }
      await this.updateCard(jobs, record, progress, key);
      const latest = await this.readState(id);
      if (!latest || latest.version === version) return;
      previous = version;
      state = latest;
    }
  }

  /**
   * Whether the requester should be told why their card is in their DM rather than in `where`:
   * once per person and place for 30 days, not on every request (they know after the first).
   */
  async firstCardNotice(userId: string, where: string): Promise<boolean> {
    const key = `${this.prefix}:card-notice:${userId}:${where}`;
    return (await this.redis.set(key, "1", "EX", CARD_NOTICE_SECONDS, "NX")) === "OK";
  }

  /** The request card as it is rendered everywhere (its first post included). */
  cardView(record: ApprovalRequest, progress?: OrderProgress) {
    const { approvalLink } = record.slack;
    return requestCardView(record, {
      ...(progress ? { progress } : {}),
      ...(approvalLink ? { approvalLink } : {}),
    });
  }

  /** The request as it is now and its version (what changes it: steps, look-ups, tracking). */
  private async readState(id: string) {
    const record = await this.store.get(id);
    if (!record) return undefined;
    const lookUp = record.status === "unknown" ? await this.lastLookUp(record) : undefined;
    const tracked = record.status === "placed" ? await this.progress.get(id) : undefined;
    const version = `r${record.history.length}${lookUp ? `l${lookUp.count}` : ""}${tracked ? `p${tracked.n}` : ""}`;
    return { record, lookUp, progress: tracked?.progress, version };
  }

  /**
   * The request card (where the request was asked, or the requester's DM; posted by the Slack
   * layer at submission): updated in place, and each step of the record said in its thread.
   */
  private async updateCard(
    jobs: LifecycleJobs,
    record: ApprovalRequest,
    progress: OrderProgress | undefined,
    key: string,
  ): Promise<void> {
    const { cardChannel: channel, cardTs: ts } = record.slack;
    if (!channel || !ts) return;
    const view = this.cardView(record, progress);
    // The step's reply first, then the card: a reader who opens the thread sees the card's
    // state as its last word. Keyed by the step, so a repeated refresh says it once.
    if (record.status !== "pending") {
      await jobs.notifier.post({
        scope: scopeOf(record),
        key: `card:step:${record.history.length}`,
        channel,
        threadTs: ts,
        text: requestCardReplyText(record, undefined),
      });
    }
    await jobs.notifier.update({
      scope: scopeOf(record),
      key: `card:${key}`,
      channel,
      ts,
      text: view.text,
      blocks: view.blocks,
    });
  }

  // ── tracking: what the tracker says of a placed order ──────────────────────────────────

  /** The tracker's observer (startJobs' `trackingObserver`). */
  trackingObserver(): (event: TrackingEvent) => Promise<void> {
    return (event) => this.onTracked(event);
  }

  /**
   * A status or the end of a placed order's tracking: kept (once per event), said in the card's
   * thread, shown on the card and the approval message, and at the end told to the requester.
   */
  private async onTracked(event: TrackingEvent): Promise<void> {
    const jobs = await this.jobsReady;
    const record = await this.store.get(event.ref);
    if (!record) return;
    const progress: OrderProgress = {
      ...(event.status ? { status: event.status } : {}),
      ...(event.ended ? { outcome: event.ended.outcome } : {}),
      ...(event.ended?.detail ? { detail: event.ended.detail } : {}),
    };
    const n = await this.progress.record(record.id, event.eventKey, progress);
    const { cardChannel, cardTs } = record.slack;
    if (cardChannel && cardTs) {
      await jobs.notifier.post({
        scope: scopeOf(record),
        key: `card:p${n}`,
        channel: cardChannel,
        threadTs: cardTs,
        text: requestCardReplyText({ ...record, status: "placed" }, progress),
      });
    }
    await this.refreshMessage(record.id);
    const outcome = event.ended?.outcome;
    if (outcome === "done" || outcome === "failed" || outcome === "cancelled") {
      await jobs.notifier.post({
        scope: scopeOf(record),
        key: "end:requester",
        channel: record.requester.userId,
        text: orderEndedRequesterText(record, progress),
      });
    }
  }

  /** What tracking said of placed orders, by request id (for `/connect approvals all`). */
  async progressOf(ids: readonly string[]): Promise<Map<string, OrderProgress>> {
    return this.progress.many(ids);
  }

  /** Posts in the request's thread; a request whose message was never posted has none. */
  private async postInThread(
    notifier: LifecycleJobs["notifier"],
    record: ApprovalRequest,
    key: string,
    text: string,
  ): Promise<void> {
    const { approvalChannel: channel, approvalTs: threadTs } = record.slack;
    if (!channel || !threadTs) return;
    await notifier.post({ scope: scopeOf(record), key, channel, threadTs, text });
  }

  // ── what the last look-up found (decides whether *Place again* is offered) ───────────

  /** Kept per attempt: a look-up of an earlier attempt says nothing about this one. */
  private async recordLookUp(request: ApprovalRequest, cause: EscalationCause): Promise<void> {
    const key = this.lookUpKey(request.id);
    await this.redis
      .multi()
      .hset(key, "kind", cause.kind, "attempt", String(request.attempts))
      .hincrby(key, "count", 1)
      .expire(key, LOOK_UP_TTL_SECONDS)
      .exec();
  }

  private async lastLookUp(
    record: ApprovalRequest,
  ): Promise<{ kind: LookUpOutcome; count: number } | undefined> {
    const fields = await this.redis.hgetall(this.lookUpKey(record.id));
    const kind = fields.kind;
    if (kind !== "not-found" && kind !== "lookup-failed" && kind !== "not-lookable")
      return undefined;
    if (fields.attempt !== String(record.attempts)) return undefined;
    return { kind, count: Number(fields.count ?? 0) };
  }

  private lookUpKey(id: string): string {
    return `${this.prefix}:lookup:${id}`;
  }
}

/** The notifier scope of everything said about one request. */
export function scopeOf(record: Pick<ApprovalRequest, "id">): string {
  return `approval:${record.id}`;
}
