import type { App } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import {
  ACTION_APPROVE,
  ACTION_LOOK_UP_AGAIN,
  ACTION_MARK_FAILED,
  ACTION_PLACE_AGAIN,
  ACTION_REJECT,
  ACTION_RETRY,
  approvalMessageView,
  approvalsListView,
  BLOCK_REJECT_REASON,
  INPUT_REJECT_REASON,
  type RejectOrigin,
  readRejectOrigin,
  rejectReasonModal,
  submittedView,
  VIEW_REJECT_REASON,
} from "../../views/approvals.js";
import { sandboxLabelledBlocks } from "../../views/blocks.js";
import { describeRefusal, describeState } from "../../views/refusals.js";
import type { Reply } from "../../views/reply.js";
import { ACTION_VIEW_IN_APPROVALS } from "../../views/requestCard.js";
import {
  type ApprovalRequest,
  canRequest,
  NameReservedError,
  persistently,
  requirementFor,
  SLACK_REFS_WRITE_TIMEOUT_MS,
  type TransitionResult,
} from "../approvals/index.js";
import type { OrderSubmission } from "../orders/index.js";
import type { Services } from "../services.js";
import { approveAs, authorizeApprover, groupMembersVia } from "./approvers.js";
import { type CommandHandler, failureText, isStorageUnavailable } from "./connect.js";
import type { ListenerRegistry } from "./listenerTable.js";
import { postRequestCard } from "./requestCard.js";

export { approveAs, authorizeApprover, groupMembersVia, requirementOf } from "./approvers.js";

/**
 * Approvals in Slack: a submitted order becomes a request in the approvals channel; approvers
 * decide with buttons; the decision moves the durable record (src/approvals) atomically and
 * queues the placement job, which places the order exactly once.
 */

export type SubmitOutcome = { ok: true; approval: ApprovalRequest; link?: string } | SubmitRefusal;

/** Why a submission became no request; `field: "name"` when its name is taken (show it there). */
export type SubmitRefusal = { ok: false; message: string; field?: "name" };

export type StoreOutcome = { ok: true; approval: ApprovalRequest } | SubmitRefusal;

/**
 * Turns a validated order into an approval request: checks who may request, stores it (its
 * name reserved), posts it to the approvals channel and tells the requester where it is.
 */
export async function submitForApproval(input: {
  services: Services;
  client: WebClient;
  submission: OrderSubmission;
}): Promise<SubmitOutcome> {
  const stored = await storeForApproval(input);
  if (!stored.ok) return stored;
  return postForApproval({ ...input, approval: stored.approval });
}

/**
 * The first half of submitting: who may request, then the request stored with its name
 * reserved in one Redis step. Quick enough to run before a form is answered, so a taken name
 * can be shown next to the name field (see src/slack/commands/submitForm.ts).
 */
export async function storeForApproval(input: {
  services: Services;
  client: WebClient;
  submission: OrderSubmission;
}): Promise<StoreOutcome> {
  const { services, client, submission } = input;
  const settings = services.approvals;
  if (!settings.channel || settings.approvers.length === 0) {
    return {
      ok: false,
      message:
        "Orders need an approvals channel and approvers: an admin must set APPROVALS_CHANNEL and APPROVERS.",
    };
  }
  const allowed = await canRequest({
    userId: submission.requester.userId,
    requesters: settings.requesters,
    groupMembers: groupMembersVia(client),
  });
  if (!allowed.allowed) return { ok: false, message: allowed.message };

  try {
    // With a policy file, the rule for this kind and amount is fixed on the request now.
    const requirement = settings.policy
      ? requirementFor(settings.policy, {
          kind: submission.kind,
          monthly: submission.price?.monthly,
        })
      : undefined;
    // The currency is recorded with the amounts, so the spend ledger never relabels them.
    const price = submission.price && { ...submission.price, currency: services.currency };
    const approval = await settings.store.create({
      ...submission,
      ...(price ? { price } : {}),
      sandbox: services.sandbox,
      ...(requirement ? { requirement } : {}),
    });
    return { ok: true, approval };
  } catch (error) {
    if (!(error instanceof NameReservedError)) throw error;
    services.logger.info(
      { audit: "approval", requester: submission.requester.userId, heldBy: error.heldBy },
      "approval refused: name taken",
    );
    return {
      ok: false,
      field: "name",
      message: `A request named "${error.name}" is already waiting or being ordered; choose another name`,
    };
  }
}

/** The second half of submitting: posts a stored request to the approvals channel. */
export async function postForApproval(input: {
  services: Services;
  client: WebClient;
  approval: ApprovalRequest;
}): Promise<Extract<SubmitOutcome, { ok: true }>> {
  const { services, client, approval } = input;
  const settings = services.approvals;
  const channel = settings.channel;
  if (!channel) throw new Error("no approvals channel to post the request to");
  const view = approvalMessageView(approval);
  const posted = await client.chat
    .postMessage({ channel, text: view.text, blocks: view.blocks })
    .catch(async (error: unknown) => {
      // Never posted, so no approver can ever decide it: it must not stay pending holding its
      // name, or the requester's "try again" would be refused as a name already waiting.
      await settings.store
        .cancel(approval.id, approval.requester.userId)
        .catch((cancelError: unknown) =>
          services.logger.error(
            { err: cancelError, approvalId: approval.id },
            "could not cancel a request whose approval message failed",
          ),
        );
      throw error;
    });
  if (posted.ts) {
    const refs = { approvalChannel: channel, approvalTs: posted.ts };
    // The message's place exists nowhere else: its buttons are honoured only where the record
    // says the message is (isOwnApprovalMessage), so losing it to a Redis outage would leave a
    // request nobody can decide. Waited out like a placement's answer; the form is answered.
    await persistently(() => settings.store.mergeSlackRefs(approval.id, refs), {
      what: "record where the approval message was posted",
      timeoutMs: SLACK_REFS_WRITE_TIMEOUT_MS,
      warn: (failures, error) =>
        services.logger.warn(
          { approvalId: approval.id, ...refs, failures, err: (error as Error).message },
          "could not record where the approval message was posted; retrying until Redis answers",
        ),
    }).catch((error: unknown) => {
      services.logger.error(
        { approvalId: approval.id, ...refs, err: (error as Error).message },
        "gave up recording where the approval message was posted: its buttons will be refused",
      );
      throw error;
    });
  }
  const link = posted.ts
    ? await client.chat
        .getPermalink({ channel, message_ts: posted.ts })
        .then((r) => r.permalink)
        .catch(() => undefined)
    : undefined;
  await postRequestCard({ services, client, approval, ...(link ? { approvalLink: link } : {}) });
  services.logger.info(
    {
      audit: "approval",
      approvalId: approval.id,
      kind: approval.kind,
      requester: approval.requester.userId,
    },
    "approval requested",
  );
  // The requester's and the approvers' App Home show it now.
  await services.orders.changed(approval);
  return { ok: true, approval, link };
}

/** The requester's confirmation after submitting, with its Withdraw button. */
export function submittedReply(outcome: Extract<SubmitOutcome, { ok: true }>): Reply {
  return submittedView(outcome.approval, outcome.link);
}

/**
 * Tells a person privately (why their click changed nothing, or what it did): in the channel
 * they clicked in, or (a click in App Home has no channel) in their DM with the bot; labelled in
 * sandbox mode. The one way the approval and withdraw listeners answer a click.
 */
export async function tellPrivately(
  sandbox: boolean,
  client: WebClient,
  channel: string | undefined,
  user: string,
  said: string | Pick<Reply, "text" | "blocks">,
) {
  const answer = typeof said === "string" ? { text: said } : said;
  const blocks = sandboxLabelledBlocks(answer, sandbox);
  const message = { text: answer.text, ...(blocks ? { blocks } : {}) };
  if (!channel) {
    await client.chat.postMessage({ channel: user, ...message });
    return;
  }
  await client.chat.postEphemeral({ channel, user, ...message });
}

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
        await tellPrivately(services.sandbox, client, channel, userId, text);
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
          tellPrivately(services.sandbox, client, channel, userId, failureText(error)).catch(
            () => undefined,
          );
          throw error;
        }
        if (error instanceof CheckTooSlowError) {
          return refuse(
            ":hourglass: I couldn't check this click in time (Slack or my storage was slow); nothing was changed. Please click again.",
          );
        }
        await ackOnce();
        services.logger.error({ err: error, action: name }, "approval action failed");
        await tellPrivately(services.sandbox, client, channel, userId, failureText(error)).catch(
          () => undefined,
        );
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
        return tellPrivately(services.sandbox, click.client, click.channel, click.userId, text);
      }
      audit(moved.record, click.userId, name, outcome);
      await orders.followUp(moved.record).catch(async (error: unknown) => {
        // Recorded all the same: the placement reconciler queues an approved request whose job
        // is missing, and the placement's own messages say the step first.
        services.logger.error({ err: error, approvalId: moved.record.id }, "follow-up failed");
        await tellPrivately(
          services.sandbox,
          click.client,
          click.channel,
          click.userId,
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
        services.sandbox,
        click.client,
        click.channel,
        click.userId,
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
            services.sandbox,
            client,
            channel,
            userId,
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
      if (isStorageUnavailable(error)) return fieldError(failureText(error));
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
