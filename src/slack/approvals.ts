import type { App } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import {
  ACTION_APPROVE,
  ACTION_LOOK_UP_AGAIN,
  ACTION_MARK_FAILED,
  ACTION_PLACE_AGAIN,
  ACTION_REJECT,
  ACTION_RETRY,
} from "../../views/approvals.js";
import { approvalsListView } from "../../views/approvalsList.js";
import { describeFailure } from "../../views/failures.js";
import { describeRefusal, describeState } from "../../views/refusals.js";
import {
  BLOCK_REJECT_REASON,
  INPUT_REJECT_REASON,
  type RejectOrigin,
  readRejectOrigin,
  rejectReasonModal,
  VIEW_REJECT_REASON,
} from "../../views/rejectModal.js";
import { ACTION_VIEW_IN_APPROVALS } from "../../views/requestCard.js";
import type { ApprovalRequest, TransitionResult } from "../approvals/index.js";
import { isStorageUnavailable } from "../domain/errors.js";
import type { Services } from "../services.js";
import { approveAs, authorizeApprover } from "./approvers.js";
import type { CommandHandler } from "./connect.js";
import { tellPrivately } from "./kit/index.js";
import type { ListenerRegistry } from "./listenerTable.js";

export { approveAs, authorizeApprover, groupMembersVia, requirementOf } from "./approvers.js";

/**
 * Approvals in Slack: a submitted order becomes a request in the approvals channel; approvers
 * decide with buttons; the decision moves the durable record (src/approvals) atomically and
 * queues the placement job, which places the order exactly once.
 */

/**
 * Time allowed for reading the request and checking the approver (a user group's members come
 * from Slack) before the step is recorded and the click acked: Slack wants the ack within 3 s,
 * and the receiver answers on its own at 2.9 s (src/slack/app.ts).
 */
export const CHECK_BUDGET_MS = 2_000;

class CheckTooSlowError extends Error {
  constructor() {
    super("the checks before recording the click took too long");
    this.name = "CheckTooSlowError";
  }
}

/** `work`, or CheckTooSlowError once `deadline` (epoch ms) has passed. */
function byDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTooSlowError()), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Issue 20: a button is honoured only on the request's own approval message. Another channel,
 * or another request's message carrying this request's id, changes nothing.
 */
export function isOwnApprovalMessage(
  where: { channel?: string; messageTs?: string },
  record: ApprovalRequest,
): boolean {
  const { approvalChannel, approvalTs } = record.slack;
  return (
    approvalChannel !== undefined &&
    approvalTs !== undefined &&
    where.channel === approvalChannel &&
    where.messageTs === approvalTs
  );
}

/**
 * App Home: a click in the person's own Home tab (Slack shows each person only their own, and
 * the view is ours: `views.publish`). Its buttons are the approval message's, so the click runs
 * the same checks and the same exactly-once step.
 */
export function isHomeClick(body: {
  container?: { type?: string };
  view?: { type?: string };
}): boolean {
  return body.container?.type === "view" && body.view?.type === "home";
}

const NOT_ITS_MESSAGE =
  "This button only works on the request's own message in the approvals channel; nothing was changed.";

type ActionArgs = Parameters<Parameters<App["action"]>[1]>[0];

interface ApproverClick {
  record: ApprovalRequest;
  userId: string;
  channel: string | undefined;
  messageTs: string | undefined;
  /** Clicked in the person's App Home (no channel, no message). */
  fromHome: boolean;
  triggerId: string;
  client: WebClient;
}

/** A step on the request; `recorded` acks the click and must be called once it is stored. */
type ApproverStep = (click: ApproverClick, recorded: () => Promise<void>) => Promise<void>;

export function registerApprovalListeners(app: ListenerRegistry, services: Services): void {
  const settings = services.approvals;
  const orders = services.orders;

  function authorize(client: WebClient, userId: string, record: ApprovalRequest) {
    return authorizeApprover(client, settings, userId, record);
  }

  function audit(record: ApprovalRequest, by: string, action: string, outcome: string) {
    services.logger.info(
      { audit: "approval", approvalId: record.id, by, action, outcome },
      outcome,
    );
  }

  /**
   * The part every approver button shares: read the request named by the button, check it was
   * clicked on the request's own message and by someone who may decide (deny by default,
   * audited), then run the step. Acked means kept: a step that changes the request acks only
   * once the change is stored; if storage is down the click is not acked with 200 (Slack shows
   * the person it failed) and nothing changed. Refusals are acked and told privately.
   */
  function approverAction(name: string, step: ApproverStep) {
    return async ({ ack, body, action, client }: ActionArgs) => {
      let acked = false;
      const ackOnce = async () => {
        if (acked) return;
        acked = true;
        await ack();
      };
      if (body.type !== "block_actions" || !("value" in action) || typeof action.value !== "string")
        return ackOnce();
      const userId = body.user.id;
      const channel = body.channel?.id;
      const refuse = async (text: string) => {
        await ackOnce();
        await tellPrivately(client, services, { userId: userId, channelId: channel }, text);
      };
      // One budget for every check before the step, so together they stay within it.
      const deadline = Date.now() + CHECK_BUDGET_MS;
      try {
        const record = await byDeadline(
          // A storage outage is not "this request is gone": it goes on to the catch below.
          settings.store.get(action.value).catch((error: unknown) => {
            if (isStorageUnavailable(error)) throw error;
            return null;
          }),
          deadline,
        );
        if (!record) return refuse("I can't find this request any more.");
        const allowed = await byDeadline(authorize(client, userId, record), deadline);
        if (!allowed.allowed) {
          audit(record, userId, name, "blocked");
          return refuse(allowed.message);
        }
        const messageTs = body.message?.ts;
        const fromHome = isHomeClick(body);
        if (!fromHome && !isOwnApprovalMessage({ channel, messageTs }, record)) {
          audit(record, userId, name, "blocked: not its approval message");
          return refuse(NOT_ITS_MESSAGE);
        }
        await step(
          { record, userId, channel, messageTs, fromHome, triggerId: body.trigger_id, client },
          ackOnce,
        );
        await ackOnce();
      } catch (error) {
        if (!acked && isStorageUnavailable(error)) {
          // Not stored, so not acked: Bolt answers 500 and Slack shows the click failed.
          services.logger.warn({ action: name, by: userId }, "approval click not recorded");
          tellPrivately(
            client,
            services,
            { userId: userId, channelId: channel },
            describeFailure(error),
          ).catch(() => undefined);
          throw error;
        }
        if (error instanceof CheckTooSlowError) {
          return refuse(
            ":hourglass: I couldn't check this click in time (Slack or my storage was slow); nothing was changed. Please click again.",
          );
        }
        await ackOnce();
        services.logger.error({ err: error, action: name }, "approval action failed");
        await tellPrivately(
          client,
          services,
          { userId: userId, channelId: channel },
          describeFailure(error),
        ).catch(() => undefined);
      }
    };
  }

  /** A step that moves the request: stored, acked, then followed up (thread, message, jobs). */
  function recordedStep(
    name: string,
    outcome: string,
    move: (
      click: ApproverClick,
    ) => Promise<
      TransitionResult | { ok: false; reason: "look-up-first"; record: ApprovalRequest }
    >,
  ): ApproverStep {
    return async (click, recorded) => {
      const moved = await move(click);
      await recorded();
      if (!moved.ok) {
        const text =
          moved.reason === "look-up-first"
            ? "*Place again* is offered only after a look-up found nothing: press *Look up again* first."
            : describeRefusal(moved);
        return tellPrivately(
          click.client,
          services,
          { userId: click.userId, channelId: click.channel },
          text,
        );
      }
      audit(moved.record, click.userId, name, outcome);
      await orders.followUp(moved.record).catch(async (error: unknown) => {
        // Recorded all the same: the placement reconciler queues an approved request whose job
        // is missing, and the placement's own messages say the step first.
        services.logger.error({ err: error, approvalId: moved.record.id }, "follow-up failed");
        await tellPrivately(
          click.client,
          services,
          { userId: click.userId, channelId: click.channel },
          ":white_check_mark: Recorded. I couldn't post about it just now; the thread will catch up.",
        );
      });
    };
  }

  // The card's *View in approvals* is a link; Slack still sends the click, which wants an ack.
  app.action(ACTION_VIEW_IN_APPROVALS, async ({ ack }) => {
    await ack();
  });

  app.action(
    ACTION_APPROVE,
    approverAction(
      "approve",
      recordedStep("approve", "approved", (click) =>
        approveAs(services, click.client, click.record, click.userId),
      ),
    ),
  );

  app.action(
    ACTION_RETRY,
    approverAction(
      "retry",
      recordedStep("retry", "retried", (click) => orders.retry(click.record.id, click.userId)),
    ),
  );

  app.action(
    ACTION_PLACE_AGAIN,
    approverAction(
      "place-again",
      recordedStep("place-again", "placing again", (click) =>
        orders.placeAgain(click.record.id, click.userId),
      ),
    ),
  );

  app.action(
    ACTION_MARK_FAILED,
    approverAction(
      "mark-failed",
      recordedStep("mark-failed", "marked failed", (click) =>
        orders.markFailed(click.record.id, click.userId),
      ),
    ),
  );

  app.action(
    ACTION_LOOK_UP_AGAIN,
    approverAction("look-up-again", async (click, recorded) => {
      // Nothing to store: ack now, look up after (a provider call can take longer than 3 s).
      await recorded();
      const looked = await orders.lookUpAgain(click.record.id);
      audit(click.record, click.userId, "look-up-again", looked);
      const current = looked === "not-unknown" ? await settings.store.get(click.record.id) : null;
      await tellPrivately(
        click.client,
        services,
        { userId: click.userId, channelId: click.channel },
        looked === "reconciled"
          ? ":white_check_mark: Settled: the order was found at the provider (see the thread)."
          : looked === "escalated"
            ? ":mag: Still not found: I said what the look-up found in the thread."
            : current
              ? describeState(current)
              : "I can't find this request any more.",
      );
    }),
  );

  app.action(
    ACTION_REJECT,
    approverAction(
      "reject",
      async ({ record, userId, channel, messageTs, fromHome, triggerId, client }, recorded) => {
        await recorded();
        if (record.status !== "pending") {
          return tellPrivately(
            client,
            services,
            { userId: userId, channelId: channel },
            describeRefusal({ ok: false, reason: "not-pending", id: record.id, record }),
          );
        }
        await client.views.open({
          trigger_id: triggerId,
          view: rejectReasonModal(record, {
            id: record.id,
            channel: channel ?? "",
            ts: messageTs ?? "",
            ...(fromHome ? { home: userId } : {}),
          }),
        });
      },
    ),
  );

  app.view(VIEW_REJECT_REASON, async ({ ack, body, view, client }) => {
    const fieldError = (text: string) =>
      ack({ response_action: "errors", errors: { [BLOCK_REJECT_REASON]: text } });
    const reason =
      view.state.values[BLOCK_REJECT_REASON]?.[INPUT_REJECT_REASON]?.value?.trim() ?? "";
    if (reason === "") return fieldError("Please say why, so the requester can fix it.");
    // A modal opened before the origin was carried holds the bare id: its origin is unknown,
    // so it is refused below like any other place.
    const origin: Partial<RejectOrigin> & { id: string } = readRejectOrigin(
      view.private_metadata,
    ) ?? { id: view.private_metadata };
    try {
      const record = await settings.store.get(origin.id).catch((error: unknown) => {
        if (isStorageUnavailable(error)) throw error;
        return null;
      });
      if (!record) return fieldError("This request no longer exists.");
      // Checked again on submit: the modal could be submitted by anyone holding its view id,
      // with any metadata.
      const allowed = await authorize(client, body.user.id, record);
      if (!allowed.allowed) return fieldError(allowed.message);
      // Opened from the person's own Home (the modal says whose), or from the request's message.
      const fromHome = origin.home !== undefined && origin.home === body.user.id;
      if (
        !fromHome &&
        !isOwnApprovalMessage({ channel: origin.channel, messageTs: origin.ts }, record)
      ) {
        audit(record, body.user.id, "reject", "blocked: not its approval message");
        return fieldError(NOT_ITS_MESSAGE);
      }
      const decided = await orders.reject(record.id, body.user.id, reason);
      if (!decided.ok) return fieldError(describeRefusal(decided));
      // Recorded: now the modal may close.
      await ack();
      audit(record, body.user.id, "reject", "rejected");
      await orders
        .followUp(decided.record)
        .catch((error: unknown) =>
          services.logger.error({ err: error, approvalId: record.id }, "reject follow-up failed"),
        );
    } catch (error) {
      // Before the ack: nothing was recorded; the modal stays open and says why.
      if (isStorageUnavailable(error)) return fieldError(describeFailure(error));
      throw error;
    }
  });
}

/** `/connect approvals`: what is waiting for a decision. */
export const listApprovals: CommandHandler = async (ctx) => {
  const settings = ctx.services.approvals;
  const scope = ctx.args[0]?.toLowerCase() === "all" ? "all" : "pending";
  if (ctx.args.length > (scope === "all" ? 1 : 0)) {
    await ctx.reply({ text: "Usage: `/connect approvals [all]`", blocks: [], problem: true });
    return;
  }
  const pending =
    scope === "all"
      ? await settings.store.list({ since: new Date(Date.now() - 90 * 24 * 3600_000), limit: 41 })
      : await settings.store.listPending();
  const links = new Map<string, string>();
  await Promise.all(
    pending.slice(0, 40).map(async (record) => {
      if (!record.slack.approvalChannel || !record.slack.approvalTs) return;
      const link = await ctx.client.chat
        .getPermalink({
          channel: record.slack.approvalChannel,
          message_ts: record.slack.approvalTs,
        })
        .then((r) => r.permalink)
        .catch(() => undefined);
      if (link) links.set(record.id, link);
    }),
  );
  // The audit trail shows how each placed order ended (done, failed, cancelled), not "Ordered".
  const progress =
    scope === "all"
      ? await ctx.services.orders.progressOf(
          pending.filter((r) => r.status === "placed").map((r) => r.id),
        )
      : new Map();
  await ctx.reply(approvalsListView(pending, links, scope, progress));
};
