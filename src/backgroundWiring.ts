// What src/bot.ts wires for the background work beyond building its parts: the lifecycle's
// placement job and tracker (built on src/jobs' queues by the lifecycle; src/workers runs them
// where workers run), with the settings tests shorten; the Edge quote polls' and draft
// reminders' callbacks; what the notifier's drain sends with. Apart from bot.ts so the
// composition root stays a list of parts.
import type { WebClient } from "@slack/web-api";
import type { ApprovalStore } from "./approvals/index.js";
import type { Clock } from "./clock.js";
import { type Config, DEFAULT_PARTNER_REMINDER_AFTER_DAYS } from "./config.js";
import { withRequestId } from "./context.js";
import type {
  DraftReminderCallbacks,
  Jobs,
  QuoteCallbacks,
  StartJobsOptions,
} from "./jobs/index.js";
import type { Logger } from "./log.js";
import type { AppHomePublisher } from "./orders/appHome.js";
import { ApprovalMessages, type ApprovalMessagesOptions } from "./orders/approvalMessages.js";
import { edgeDraftReminderCallbacks, edgeQuoteCallbacks } from "./orders/edge/callbacks.js";
import type { MessageRenderer, OrderLifecycle, OrderLifecycleOptions } from "./orders/index.js";
import {
  buildPlacement,
  type PlacementSettings,
  type StoreForPlacement,
} from "./orders/placement/index.js";
import { RequestCards } from "./orders/requestCards.js";
import type { RequestReads } from "./orders/requestReads.js";
import {
  buildTracker,
  DEFAULT_ACCEPTANCE_REMINDERS,
  type ReadTarget,
  type TrackerSettings,
} from "./orders/tracking/index.js";
import type { ProviderApi } from "./provider/api.js";
import { sandboxLabelledChat } from "./slack/kit/index.js";

export interface LifecycleJobSettings {
  store: StoreForPlacement;
  /** Reads a tracked target from the provider (src/usecases/trackingReads.ts). */
  readTarget: ReadTarget;
  /** PARTNER_REMINDER_AFTER_DAYS: a layer 2 waiting on a partner reminds its requester. */
  partnerReminderAfterDays?: number;
  now?: () => Date;
  placementSettings?: PlacementSettings;
  trackerSettings?: TrackerSettings;
}

/** The lifecycle's builders of its placement job and tracker, on `jobs`' queues. */
export function lifecycleJobBuilders(
  jobs: Pick<Jobs, "partOptions" | "notifier">,
  settings: LifecycleJobSettings,
): Pick<OrderLifecycleOptions, "placement" | "tracker"> {
  const { store, readTarget, partnerReminderAfterDays, now } = settings;
  return {
    placement: (steps) =>
      buildPlacement(jobs, { store, callbacks: steps, ...settings.placementSettings }),
    tracker: (observer) =>
      buildTracker(jobs, {
        observer,
        refreshHomes: true,
        // Background work logs under a request id of its own record (approval id, order id),
        // so one grep follows an order from the approval click to placement and tracking.
        readTarget: (target, companyName) =>
          withRequestId(`${target.kind}-${target.id}`, () => readTarget(target, companyName)),
        // A layer 2 waiting on a partner: the requester is reminded after N days, then weekly.
        acceptanceReminders: {
          ...DEFAULT_ACCEPTANCE_REMINDERS,
          firstAfterMs:
            (partnerReminderAfterDays ?? DEFAULT_PARTNER_REMINDER_AFTER_DAYS) * 86_400_000,
        },
        ...(now ? { now } : {}),
        ...settings.trackerSettings,
      }),
  };
}

/**
 * Edge quote polling and draft expiry reminders: the callbacks the workers call
 * (src/orders/edge/callbacks.ts), and the provider's clock the reminders are timed on (the
 * sandbox's in sandbox mode, which the playground moves forward), for startJobs.
 */
export function edgeJobParts(parts: {
  provider: ProviderApi;
  logger: Logger;
  sandbox: boolean;
  providerClock: Clock;
  config: Pick<Config, "currency">;
}): {
  callbacks: { quotes: QuoteCallbacks<unknown>; draftReminders: DraftReminderCallbacks };
  jobOptions: Pick<StartJobsOptions, "draftReminders">;
} {
  const { provider, logger, sandbox, providerClock } = parts;
  const { currency } = parts.config;
  return {
    callbacks: {
      quotes: edgeQuoteCallbacks({ provider, logger, sandbox, currency }),
      draftReminders: edgeDraftReminderCallbacks({ provider, sandbox }),
    },
    jobOptions: { draftReminders: { now: () => providerClock.now() } },
  };
}

/**
 * What the notifier's drain sends with (src/workers/notifier): the background WebClient's chat
 * (a 429 comes back to the queue) — labelled in sandbox mode, so every background message says
 * so (its thread lines and DMs too) —, its `functions` (Workflow Builder steps end through the
 * same outbox, with each step's own token), App Home, and the kept messages' renderer (the
 * approval message and the card, rendered from the read model when their update is sent).
 */
export function notifierDrainParts(
  client: WebClient,
  parts: { sandbox: boolean; home: AppHomePublisher; render: MessageRenderer },
) {
  const slack = parts.sandbox ? sandboxLabelledChat(client.chat) : client.chat;
  return { slack, functions: client.functions, home: parts.home, render: parts.render };
}

/**
 * The maintenance reconciler of requests a crash left without their approval message or card
 * (src/orders/approvalMessages.ts, and requestCards.ts for the cards, on the same candidates),
 * each step taken through the lifecycle.
 */
export function approvalMessagesReconciler(
  deps: Pick<ApprovalMessagesOptions, "channel" | "approveConfirmFrom" | "graceMs" | "logger"> & {
    store: ApprovalMessagesOptions["store"] & Pick<ApprovalStore, "keepCard">;
    reads: RequestReads;
    notifier: Jobs["notifier"];
    orders: Pick<
      OrderLifecycle,
      | "refreshMessage"
      | "trackPlaced"
      | "approvalMessageSuperseded"
      | "cardSuperseded"
      | "firstCardNotice"
    >;
    orderUpdates: Config["orderUpdates"];
  },
): ApprovalMessages {
  const { store, reads, notifier, orders, orderUpdates, ...rest } = deps;
  const refresh = (id: string) => orders.refreshMessage(id);
  return new ApprovalMessages({
    ...rest,
    store,
    reads,
    notifier,
    refresh,
    trackPlaced: (record) => orders.trackPlaced(record),
    superseded: (record, at) => orders.approvalMessageSuperseded(record, at),
    cards: new RequestCards({
      reads,
      notifier,
      keep: (id, at) => store.keepCard(id, at),
      refresh,
      superseded: (record, at) => orders.cardSuperseded(record, at),
      firstCardNotice: (userId, where) => orders.firstCardNotice(userId, where),
      approvalsChannel: deps.channel,
      setting: orderUpdates,
      logger: deps.logger,
    }),
  });
}
