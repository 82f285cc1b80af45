import type { Redis } from "ioredis";
import {
  escalationText,
  failedThreadText,
  placedRequesterText,
  placedThreadText,
  rejectedRequesterText,
} from "../../views/approvals/approvalThread.js";
import {
  markedFailedRequesterText,
  orderEndedRequesterText,
  orderFailedRequesterText,
  requestCardReplyText,
  retriedOutcomeUnknownRequesterText,
} from "../../views/approvals/requestCard.js";
import type {
  ApprovalRequest,
  ApprovalStore,
  PlacementError,
  PlacementResult,
  TransitionResult,
} from "../approvals/index.js";
import { withRequestId } from "../context.js";
import { MARKED_FAILED_REASON } from "../domain/markedFailed.js";
import type { Notifier } from "../jobs/notifier/notifier.js";
import type { Logger } from "../log.js";
import type { ProviderApi } from "../provider/api.js";
import { type HomeAudienceOptions, homeAudience } from "./homeAudience.js";
import { lookUpOrder, orderKind, placeOrder } from "./kinds.js";
import { LifecycleNotes } from "./lifecycleNotes.js";
import type {
  EscalationCause,
  LookUpAgainOutcome,
  PlacementCallbacks,
  PlacementContext,
} from "./placement/contract.js";
import type { Placement } from "./placement/placement.js";
import type { OrderProgress } from "./progress.js";
import { ProgressStore } from "./progress.js";
import { type RequestReadModel, readRequest } from "./readModel.js";
import {
  type ApprovalMessageAt,
  type CardAt,
  type MessageRenderer,
  RequestMessages,
  renderRequestMessage,
  requesterDm,
  scopeOf,
} from "./requestMessages.js";
import { RequestReads } from "./requestReads.js";
import type { DecidedAt } from "./requestResults.js";
import type { TrackingEvent, TrackingObserver } from "./tracking/reports.js";
import type { Tracker } from "./tracking/tracker.js";

/**
 * The order lifecycle's one owner: submit → approve → place → track → end. See README.md.
 *
 * - A person's step (approve, reject, retry, place again, mark as failed) is recorded in the
 *   store by the Slack layer *before* it acks the click; `followUp(record)` then tells the
 *   thread, updates the approval message and, for an approved request, queues its placement —
 *   in that order, so "Approved by …" is always above what the placement says.
 * - The lifecycle builds its own jobs at construction, on the queues src/jobs gives it (src/workers
 *   runs them where workers run): the placement job (placement/) runs `placementCallbacks()` —
 *   place and look up through the per-kind table, and on placed → start tracking and tell the thread; failed / unknown → tell
 *   and offer the way forward (buttons on the approval message) —, and the tracker (tracking/)
 *   tells it each status and end of a placed order. Nothing waits for the jobs to exist.
 * - Every message about a request goes through the notifier (scope `approval:<id>`): one
 *   ordered writer per channel, so the approval message's last update shows the latest state.
 *   How the approval message and the request card follow the record: requestMessages.ts; what
 *   the lifecycle keeps in Redis of its own (look-ups, card notices): lifecycleNotes.ts.
 */

/** The store steps the lifecycle uses; `placeAgain`/`markFailed` come with the names work. */
export type LifecycleStore = Pick<ApprovalStore, "get" | "nameHeldElsewhere"> & {
  /** unknown → approved: a person's deliberate act after a look-up found nothing. */
  placeAgain(id: string, by: string): Promise<TransitionResult>;
  /** unknown → failed, noting who; releases the name. */
  markFailed(id: string, by: string, note: string): Promise<TransitionResult>;
};

/** What the lifecycle uses of its jobs: the notifier, its placement and its tracker. */
export interface LifecycleJobs {
  notifier: Pick<Notifier, "post" | "update" | "updateRendered" | "refreshHome">;
  placement: Pick<Placement, "enqueue" | "lookUpAgain">;
  tracker: Pick<Tracker, "track" | "get">;
}

export interface OrderLifecycleOptions<
  P extends LifecycleJobs["placement"] = Placement,
  T extends LifecycleJobs["tracker"] = Tracker,
> {
  store: LifecycleStore;
  provider: ProviderApi;
  /** The provider company the bot acts for (look-ups and tracking are per company). */
  companyUsername: () => Promise<string>;
  /** For the last look-up's outcome per request (whether *Place again* is offered). */
  redis: Redis;
  /** Key prefix, e.g. `connect:orders`. */
  prefix: string;
  /** APPROVE_CONFIRM_FROM: the approval message's Approve asks first from this monthly amount. */
  approveConfirmFrom?: number;
  /**
   * App Home: each change refreshes the Home of the people who see it (homeAudience.ts). Without
   * it, no Home is refreshed for a request's change.
   */
  homes?: HomeAudienceOptions & { logger: Pick<Logger, "warn"> };
  /** Every message about a request goes out through the notifier's per-channel outbox. */
  notifier: LifecycleJobs["notifier"];
  /**
   * Builds the placement job on the lifecycle's own steps (`placementCallbacks()`): src/bot.ts
   * `buildPlacement` (placement/) on the jobs' placement queue.
   */
  placement: (steps: PlacementCallbacks) => P;
  /**
   * Builds the tracker that tells the lifecycle each status and end of a placed order: src/bot.ts
   * `buildTracker` (tracking/) on the jobs' tracking queue.
   */
  tracker: (observer: TrackingObserver) => T;
}

/** The lifecycle's own keys and the reads of the read model, on the store and `redis`. */
export function requestReadsOf({
  store,
  redis,
  prefix,
}: Pick<OrderLifecycleOptions, "store" | "redis" | "prefix">): {
  notes: LifecycleNotes;
  progress: ProgressStore;
  reads: RequestReads;
} {
  const notes = new LifecycleNotes(redis, prefix);
  const progress = new ProgressStore(redis, `${prefix}:progress`);
  return {
    notes,
    progress,
    reads: new RequestReads({
      get: (id) => store.get(id),
      nameHeldElsewhere: (record) => store.nameHeldElsewhere(record),
      notes,
      progress,
    }),
  };
}

/**
 * The kept messages' renderer (the notifier's drain calls it, src/workers: the approval message
 * and the card, from the read model when their update is sent), on the read model's reads alone
 * (`requestReadsOf`), the ones App Home reads too. It renders as
 * `OrderLifecycle.messageRenderer()` does.
 */
export function requestMessageRenderer(
  reads: RequestReads,
  approveConfirmFrom?: number,
): MessageRenderer {
  return (ref) => renderRequestMessage(reads, ref, approveConfirmFrom);
}

export class OrderLifecycle<
  P extends LifecycleJobs["placement"] = Placement,
  T extends LifecycleJobs["tracker"] = Tracker,
> {
  private readonly store: LifecycleStore;
  private readonly provider: ProviderApi;
  private readonly companyUsername: () => Promise<string>;
  private readonly notes: LifecycleNotes;
  private readonly progress: ProgressStore;
  private readonly messages: RequestMessages;
  private readonly notifier: LifecycleJobs["notifier"];
  /** The read model's reads: what every surface shows of a request (readModel.ts). */
  readonly reads: RequestReads;
  private readonly changeListeners: Array<(record: ApprovalRequest) => Promise<void>> = [];
  private readonly homes?: {
    audience: (record: ApprovalRequest) => Promise<string[]>;
    logger: Pick<Logger, "warn">;
  };
  /** The placement job on the lifecycle's steps (src/workers runs its worker and reconciler). */
  readonly placement: P;
  /** The tracker of placed orders (and of whatever `/connect track` follows). */
  readonly tracker: T;

  constructor(options: OrderLifecycleOptions<P, T>) {
    this.store = options.store;
    this.provider = options.provider;
    this.companyUsername = options.companyUsername;
    this.notifier = options.notifier;
    if (options.homes) {
      this.homes = { audience: homeAudience(options.homes), logger: options.homes.logger };
    }
    ({ notes: this.notes, progress: this.progress, reads: this.reads } = requestReadsOf(options));
    this.messages = new RequestMessages({
      reads: this.reads,
      notifier: this.notifier,
      changed: (record) => this.changed(record),
      ...(options.approveConfirmFrom !== undefined
        ? { approveConfirmFrom: options.approveConfirmFrom }
        : {}),
    });
    // Built last: they run the lifecycle's steps, which use everything above.
    this.tracker = options.tracker((event) => this.onTracked(event));
    this.placement = options.placement(this.placementCallbacks());
  }

  /**
   * Tells `listener` of every change of a request (created, decided, placed, failed, unknown,
   * cancelled…), with the request as it is now (Workflow Builder steps end with it). A listener
   * must not throw (it is awaited, after the approval message's update).
   */
  onChange(listener: (record: ApprovalRequest) => Promise<void>): void {
    this.changeListeners.push(listener);
  }

  /**
   * A request changed (or was created): the Home of everyone who sees it is refreshed (through
   * the notifier: one waiting refresh per person, rendered when sent), then the listeners told.
   */
  async changed(record: ApprovalRequest): Promise<void> {
    await this.refreshHomes(record);
    for (const listener of this.changeListeners) await listener(record);
  }

  /** Never throws: a Home is a view of the state, and the next change or opening shows it. */
  private async refreshHomes(record: ApprovalRequest): Promise<void> {
    if (!this.homes) return;
    try {
      const people = await this.homes.audience(record);
      for (const userId of people) await this.notifier.refreshHome(userId);
    } catch (error) {
      this.homes.logger.warn({ err: error, approvalId: record.id }, "App Home refresh not queued");
    }
  }

  // ── a person's steps, recorded before the click is acked ────────────────────────────────

  /**
   * unknown → approved, only after a look-up found nothing (the button says what could
   * happen: a second order if the first did reach the provider).
   */
  async placeAgain(
    id: string,
    by: string,
  ): Promise<TransitionResult | { ok: false; reason: "look-up-first"; record: ApprovalRequest }> {
    const record = await this.store.get(id);
    if (
      record?.status === "unknown" &&
      (await this.notes.lastLookUp(record))?.kind !== "not-found"
    ) {
      return { ok: false, reason: "look-up-first", record };
    }
    return this.store.placeAgain(id, by);
  }

  /**
   * unknown → failed by a person: nothing more is done, the name is free again, and it is never
   * retried (it may exist at the provider: src/domain/markedFailed.ts).
   */
  markFailed(id: string, by: string): Promise<TransitionResult> {
    return this.store.markFailed(id, by, MARKED_FAILED_REASON);
  }

  /**
   * After a person's step was recorded (and acked): the thread line, the approval message, and
   * the placement for an approved request. Safe to repeat: every message has a stable key.
   */
  async followUp(record: ApprovalRequest): Promise<void> {
    await this.messages.tellStep(record, record.history.length - 1);
    await this.refreshMessage(record.id);
    const step = record.history.at(-1);
    if (record.status === "rejected") {
      await this.tellRequesterOfStep(record, rejectedRequesterText(record));
    } else if (record.status === "failed" && step?.from === "unknown") {
      // Mark as failed: the requester's last word about the order must not stay "unknown".
      await this.tellRequesterOfStep(record, markedFailedRequesterText(record, step.actor));
    }
    // Queued last: whatever the placement says comes after the step that started it.
    if (record.status === "approved") await this.placement.enqueue(record.id);
  }

  /** The requester's DM about the step that made `record`, marked with the state it tells. */
  private async tellRequesterOfStep(record: ApprovalRequest, text: string): Promise<void> {
    const key = `h${record.history.length - 1}:requester`;
    await this.notifier.post(requesterDm(record, key, readRequest(record), text));
  }

  /**
   * *Look up again* on an unknown request: the placement journal looks it up now and settles it
   * (found → placed, through `onPlaced`) or escalates again (a new thread line per press).
   */
  lookUpAgain(id: string): Promise<LookUpAgainOutcome> {
    return this.placement.lookUpAgain(id);
  }

  // ── the placement job's steps ──────────────────────────────────────────────────────

  /** What the placement job (placement/placement.ts) does at each point, the lifecycle's way. */
  placementCallbacks(): PlacementCallbacks {
    return {
      // The provider call of a placement logs under the approval's id.
      place: (request) => withRequestId(request.id, () => placeOrder(this.provider, request)),
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
    const placed = readRequest({ ...request, status: "placed", result });
    await this.tellOutcome(
      request,
      ctx,
      placedThreadText(placed, orderKind(request.kind).nextSteps(request, result), result),
      { model: placed, text: placedRequesterText({ ...request, result }) },
    );
    await this.startTracking(request, result);
  }

  private async onFailed(
    request: ApprovalRequest,
    error: PlacementError,
    ctx: PlacementContext,
  ): Promise<void> {
    await this.tellOutcome(request, ctx, failedThreadText(error), {
      model: readRequest({ ...request, status: "failed", error }),
      text: orderFailedRequesterText({ ...request, error }),
    });
  }

  /**
   * A placement's outcome, said in order: the approval that started it, the outcome in the
   * thread, the approval message as it is now, then the requester (`requesterDm`).
   */
  private async tellOutcome(
    request: ApprovalRequest,
    ctx: PlacementContext,
    threadText: string,
    requester: { model: RequestReadModel; text: string },
  ): Promise<void> {
    await this.messages.tellLastApproval(request);
    await this.messages.postInThread(ctx.notifier, request, `${ctx.notifyKey}:thread`, threadText);
    await this.refreshMessage(request.id);
    const key = `${ctx.notifyKey}:requester`;
    await ctx.notifier.post(requesterDm(request, key, requester.model, requester.text));
  }

  /** Says what happened and offers the way forward (the buttons follow the look-up). */
  private async escalate(
    request: ApprovalRequest,
    cause: EscalationCause,
    ctx: PlacementContext,
  ): Promise<void> {
    await this.messages.tellLastApproval(request);
    await this.notes.recordLookUp(request, cause);
    await this.messages.postInThread(
      ctx.notifier,
      request,
      `${ctx.notifyKey}:thread`,
      // The journal names a person's *Look up again* `…:again:…`.
      escalationText(request, cause, { again: ctx.notifyKey.includes(":again:") }),
    );
    await this.refreshMessage(request.id);
    // A retried request's requester was last told "failed": their DM must not go on saying so.
    // Once per attempt (a person's *Look up again* escalates again, and says nothing new).
    if (
      request.history.some((step) => step.from === "failed") &&
      !ctx.notifyKey.includes(":again:")
    ) {
      const model = readRequest({ ...request, status: "unknown" });
      const text = retriedOutcomeUnknownRequesterText(model);
      await ctx.notifier.post(requesterDm(request, `${ctx.notifyKey}:requester`, model, text));
    }
  }

  /**
   * Tracks a placed request that never was: decided in App Home before its approval message was
   * posted, its placement found no thread to track in (`startTracking`). The approval messages'
   * reconciler (approvalMessages.ts) calls it once it has posted that message and kept its
   * place. Nothing for a target already tracked (open or ended); whether tracking started.
   */
  async trackPlaced(request: ApprovalRequest): Promise<boolean> {
    if (request.status !== "placed" || !request.result || !request.slack.approvalTs) return false;
    const target = orderKind(request.kind).trackTarget(request, request.result);
    if (!target || (await this.tracker.get(target))) return false;
    await this.startTracking(request, request.result);
    return true;
  }

  /** Hands what was placed to the tracker, by the kind's track target. */
  private async startTracking(request: ApprovalRequest, result: PlacementResult): Promise<void> {
    const spec = orderKind(request.kind);
    const target = spec.trackTarget(request, result);
    const { approvalChannel: channel, approvalTs: threadTs } = request.slack;
    if (!target || !channel || !threadTs) return;
    const counterparty = spec.counterparty(request);
    await this.tracker.track({
      target,
      companyName: await this.companyUsername(),
      channel,
      threadTs,
      requestedBy: request.requester.userId,
      ...(counterparty ? { counterparty } : {}),
      ref: request.id,
    });
  }

  // ── the approvals thread, message and request card (requestMessages.ts) ─────────────

  /** Updates the approval message and the request card to the request as it is now. */
  async refreshMessage(id: string): Promise<void> {
    await this.messages.refresh(id);
  }

  /** A post of the approval message that lost to the one kept (requestMessages.ts `superseded`). */
  approvalMessageSuperseded(record: ApprovalRequest, at: ApprovalMessageAt): Promise<boolean> {
    return this.messages.superseded(record, at);
  }

  /** A card of this request that lost to the one kept (requestMessages.ts `cardSuperseded`). */
  cardSuperseded(record: ApprovalRequest, at: CardAt): Promise<boolean> {
    return this.messages.cardSuperseded(record, at);
  }

  /** A click on another message of this request (requestMessages.ts `strayClicked`). */
  strayApprovalMessage(record: ApprovalRequest, at: DecidedAt): Promise<boolean> {
    return this.messages.strayClicked(record, at);
  }

  /** Whether the requester should be told why their card is in their DM (lifecycleNotes.ts). */
  firstCardNotice(userId: string, where: string): Promise<boolean> {
    return this.notes.firstCardNotice(userId, where);
  }

  /** The request card as it is rendered everywhere (its first post included). */
  cardView(record: ApprovalRequest) {
    return this.messages.cardView(record);
  }

  /**
   * Renders a kept message from the request as it is now, when the notifier's drain sends its
   * update (src/workers): `message:<id>` is the approval message, `card:<id>` the card.
   */
  messageRenderer(): MessageRenderer {
    return (ref) => this.messages.render(ref);
  }

  // ── tracking: what the tracker says of a placed order ──────────────────────────────────

  /**
   * A status or the end of a placed order's tracking: kept (once per event), said in the card's
   * thread, shown on the card and the approval message, and at the end (however it ended) told
   * to the requester.
   */
  private async onTracked(event: TrackingEvent): Promise<void> {
    const record = await this.store.get(event.ref);
    if (!record) return;
    const progress: OrderProgress = {
      ...(event.status ? { status: event.status } : {}),
      ...(event.ended ? { outcome: event.ended.outcome } : {}),
      ...(event.ended?.detail ? { detail: event.ended.detail } : {}),
      ...(event.ended?.by ? { stoppedBy: event.ended.by } : {}),
      changedAt: new Date().toISOString(),
    };
    const n = await this.progress.record(record.id, event.eventKey, progress);
    const model = readRequest({ ...record, status: "placed" }, { progress });
    const { cardChannel, cardTs } = record.slack;
    if (cardChannel && cardTs) {
      await this.notifier.post({
        scope: scopeOf(record),
        key: `card:p${n}`,
        channel: cardChannel,
        threadTs: cardTs,
        text: requestCardReplyText(model),
      });
    }
    await this.refreshMessage(record.id);
    // Every end is told, a stop included (by whom, or the deadline): the requester's last DM
    // about the order must not go on saying "ordered" once nobody follows it. Keyed by the
    // event, as an order tracked again after a stop can end again.
    if (event.ended) {
      const text = orderEndedRequesterText(model);
      await this.notifier.post(requesterDm(record, `end:p${n}:requester`, model, text));
    }
  }

  /** What tracking said of placed orders, by request id. */
  async progressOf(ids: readonly string[]): Promise<Map<string, OrderProgress>> {
    return this.progress.many(ids);
  }

  /** The read models of many records (App Home, `/connect approvals all`, `/connect spend`). */
  readMany(records: readonly ApprovalRequest[]): Promise<RequestReadModel[]> {
    return this.reads.many(records);
  }
}
