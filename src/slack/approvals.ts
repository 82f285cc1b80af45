import type { App } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import {
  ACTION_APPROVE,
  ACTION_REJECT,
  ACTION_RETRY,
  approvalMessageView,
  approvalStatusLine,
  approvalsListView,
  BLOCK_REJECT_REASON,
  escalationText,
  INPUT_REJECT_REASON,
  orderedRequesterText,
  placementFailedText,
  rejectedRequesterText,
  rejectedThreadText,
  rejectReasonModal,
  submittedText as submittedTextView,
  VIEW_REJECT_REASON,
} from "../../views/approvals.js";
import {
  type ApprovalRequest,
  canApprove,
  canRequest,
  describeRefusal,
  type GroupMembers,
  NameReservedError,
  type PlacementError,
  type PlacementResult,
} from "../approvals/index.js";
import type { OrderSubmission } from "../flows/ordering.js";
import type { EscalationCause, PlacementContext } from "../jobs/placement.js";
import type { Services } from "../services.js";
import { type CommandHandler, failureText, isStorageUnavailable } from "./connect.js";
import type { ListenerRegistry } from "./listenerTable.js";

/**
 * Approvals in Slack: a submitted order becomes a request in the approvals channel; approvers
 * decide with buttons; the decision moves the durable record (src/approvals) atomically and
 * queues the placement job, which places the order exactly once.
 */

export type SubmitOutcome = { ok: true; approval: ApprovalRequest; link?: string } | SubmitRefusal;

/** Why a submission became no request; `field: "name"` when its name is taken (show it there). */
export type SubmitRefusal = { ok: false; message: string; field?: "name" };

export type StoreOutcome = { ok: true; approval: ApprovalRequest } | SubmitRefusal;

/** Members of a Slack user group, for approvers/requesters given as S… ids. */
export function groupMembersVia(client: WebClient): GroupMembers {
  return async (groupId) => {
    const result = await client.usergroups.users.list({ usergroup: groupId });
    return result.users ?? [];
  };
}

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
    const approval = await settings.store.create({ ...submission, sandbox: services.sandbox });
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
  const posted = await client.chat.postMessage({
    channel,
    text: view.text,
    blocks: view.blocks,
  });
  if (posted.ts) {
    await settings.store.mergeSlackRefs(approval.id, {
      approvalChannel: channel,
      approvalTs: posted.ts,
    });
  }
  const link = posted.ts
    ? await client.chat
        .getPermalink({ channel, message_ts: posted.ts })
        .then((r) => r.permalink)
        .catch(() => undefined)
    : undefined;
  services.logger.info(
    {
      audit: "approval",
      approvalId: approval.id,
      kind: approval.kind,
      requester: approval.requester.userId,
    },
    "approval requested",
  );
  return { ok: true, approval, link };
}

/** Sentence for the requester after submitting. */
export function submittedText(outcome: Extract<SubmitOutcome, { ok: true }>): string {
  return submittedTextView(outcome.approval.title, outcome.link);
}

async function refreshApprovalMessage(client: WebClient, record: ApprovalRequest): Promise<void> {
  if (!record.slack.approvalChannel || !record.slack.approvalTs) return;
  const view = approvalMessageView(record);
  await client.chat.update({
    channel: record.slack.approvalChannel,
    ts: record.slack.approvalTs,
    text: view.text,
    blocks: view.blocks,
  });
}

async function threadReply(
  client: WebClient,
  record: ApprovalRequest,
  text: string,
): Promise<void> {
  if (!record.slack.approvalChannel || !record.slack.approvalTs) return;
  await client.chat.postMessage({
    channel: record.slack.approvalChannel,
    thread_ts: record.slack.approvalTs,
    text,
  });
}

/** Tells a person privately why their click changed nothing. */
async function tellPrivately(
  client: WebClient,
  channel: string | undefined,
  user: string,
  text: string,
) {
  if (!channel) return;
  await client.chat.postEphemeral({ channel, user, text });
}

export function registerApprovalListeners(app: ListenerRegistry, services: Services): void {
  const settings = services.approvals;

  async function authorize(client: WebClient, userId: string, record: ApprovalRequest) {
    return canApprove({
      userId,
      requesterId: record.requester.userId,
      approvers: settings.approvers,
      groupMembers: groupMembersVia(client),
      allowSelfApproval: settings.allowSelfApproval,
    });
  }

  type ActionArgs = Parameters<Parameters<App["action"]>[1]>[0];
  interface ApproverClick {
    record: ApprovalRequest;
    userId: string;
    channel: string | undefined;
    triggerId: string;
    client: WebClient;
  }

  /**
   * The part every approver button shares: ack, read the request named by the button, check the
   * clicker may decide (deny by default, recorded in the audit log), answer privately on any
   * refusal or failure.
   */
  function approverAction(name: string, run: (click: ApproverClick) => Promise<void>) {
    return async ({ ack, body, action, client }: ActionArgs) => {
      await ack();
      if (body.type !== "block_actions" || !("value" in action) || typeof action.value !== "string")
        return;
      const userId = body.user.id;
      const channel = body.channel?.id;
      try {
        // A storage outage is not "this request is gone": it goes on to failureText below.
        const record = await settings.store.get(action.value).catch((error: unknown) => {
          if (isStorageUnavailable(error)) throw error;
          return null;
        });
        if (!record)
          return tellPrivately(client, channel, userId, "I can't find this request any more.");
        const allowed = await authorize(client, userId, record);
        if (!allowed.allowed) {
          services.logger.info(
            {
              audit: "approval",
              approvalId: record.id,
              by: userId,
              action: name,
              outcome: "blocked",
            },
            "refused",
          );
          return tellPrivately(client, channel, userId, allowed.message);
        }
        await run({ record, userId, channel, triggerId: body.trigger_id, client });
      } catch (error) {
        services.logger.error({ err: error, action: name }, "approval action failed");
        await tellPrivately(client, channel, userId, failureText(error)).catch(() => undefined);
      }
    };
  }

  app.action(
    ACTION_APPROVE,
    approverAction("approve", async ({ record, userId, channel, client }) => {
      const decided = await settings.store.decide(record.id, { by: userId, action: "approve" });
      if (!decided.ok) return tellPrivately(client, channel, userId, describeRefusal(decided));
      services.logger.info(
        { audit: "approval", approvalId: record.id, by: userId, outcome: "approved" },
        "approved",
      );
      await services.jobs.placement.enqueue(record.id);
      await refreshApprovalMessage(client, decided.record);
      await threadReply(
        client,
        decided.record,
        `:white_check_mark: Approved by <@${userId}>. Placing the order now.`,
      );
    }),
  );

  app.action(
    ACTION_REJECT,
    approverAction("reject", async ({ record, userId, channel, triggerId, client }) => {
      if (record.status !== "pending") {
        return tellPrivately(
          client,
          channel,
          userId,
          describeRefusal({ ok: false, reason: "not-pending", id: record.id, record }),
        );
      }
      await client.views.open({ trigger_id: triggerId, view: rejectReasonModal(record) });
    }),
  );

  app.view(VIEW_REJECT_REASON, async ({ ack, body, view, client }) => {
    const reason =
      view.state.values[BLOCK_REJECT_REASON]?.[INPUT_REJECT_REASON]?.value?.trim() ?? "";
    if (reason === "") {
      await ack({
        response_action: "errors",
        errors: { [BLOCK_REJECT_REASON]: "Please say why, so the requester can fix it." },
      });
      return;
    }
    const record = await settings.store
      .get(view.private_metadata)
      .catch((error: unknown) => (isStorageUnavailable(error) ? "unavailable" : null));
    if (record === "unavailable") {
      await ack({
        response_action: "errors",
        errors: { [BLOCK_REJECT_REASON]: failureText(new Error("Connection is closed.")) },
      });
      return;
    }
    if (!record) {
      await ack({
        response_action: "errors",
        errors: { [BLOCK_REJECT_REASON]: "This request no longer exists." },
      });
      return;
    }
    // Authorised again on submit: the modal could be submitted by anyone holding its view id.
    const allowed = await authorize(client, body.user.id, record);
    if (!allowed.allowed) {
      await ack({ response_action: "errors", errors: { [BLOCK_REJECT_REASON]: allowed.message } });
      return;
    }
    const decided = await settings.store.decide(record.id, {
      by: body.user.id,
      action: "reject",
      reason,
    });
    if (!decided.ok) {
      await ack({
        response_action: "errors",
        errors: { [BLOCK_REJECT_REASON]: describeRefusal(decided) },
      });
      return;
    }
    await ack();
    services.logger.info(
      { audit: "approval", approvalId: record.id, by: body.user.id, outcome: "rejected" },
      "rejected",
    );
    await refreshApprovalMessage(client, decided.record);
    await threadReply(client, decided.record, rejectedThreadText(body.user.id, reason));
    await client.chat.postMessage({
      channel: record.requester.userId,
      text: rejectedRequesterText(record.title, body.user.id, reason),
    });
  });

  app.action(
    ACTION_RETRY,
    approverAction("retry", async ({ record, userId, channel, client }) => {
      const retried = await settings.store.retry(record.id, userId);
      if (!retried.ok) return tellPrivately(client, channel, userId, describeRefusal(retried));
      await services.jobs.placement.enqueue(record.id);
      await refreshApprovalMessage(client, retried.record);
      await threadReply(
        client,
        retried.record,
        `:repeat: <@${userId}> asked to place the order again.`,
      );
    }),
  );
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
  await ctx.reply(approvalsListView(pending, links, scope));
};

/** What happened, in the escalation's words (the placement journal's cause). */
function escalationCauseText(cause: EscalationCause): string {
  switch (cause.kind) {
    case "not-found":
      return "I sent the order but got no answer; a look-up by name found nothing yet.";
    case "lookup-failed":
      return `I sent the order but got no answer, and the look-up failed: ${cause.detail}`;
    case "not-lookable":
      return `I sent the order but got no answer, and I cannot look it up yet: ${cause.detail}.`;
  }
}

/** What the placement job reports back, posted through the notifier (rate limits, dedupe). */
export function placementCallbacks(
  services: Services,
  nextSteps: (request: ApprovalRequest, result: PlacementResult) => string,
) {
  async function post(request: ApprovalRequest, ctx: PlacementContext, text: string) {
    const channel = request.slack.approvalChannel;
    const ts = request.slack.approvalTs;
    if (!channel || !ts) return;
    await ctx.notifier.post({
      scope: ctx.notifyScope,
      key: `${ctx.notifyKey}:thread`,
      channel,
      threadTs: ts,
      text,
    });
  }
  async function refresh(request: ApprovalRequest, ctx: PlacementContext) {
    const current = (await services.approvals.store.get(request.id)) ?? request;
    const channel = current.slack.approvalChannel;
    const ts = current.slack.approvalTs;
    if (!channel || !ts) return;
    const view = approvalMessageView(current);
    await ctx.notifier.update({
      scope: ctx.notifyScope,
      key: `${ctx.notifyKey}:message`,
      channel,
      ts,
      text: view.text,
      blocks: view.blocks,
    });
  }
  return {
    async onPlaced(request: ApprovalRequest, result: PlacementResult, ctx: PlacementContext) {
      const placed = { ...request, status: "placed" as const, result };
      await post(request, ctx, `${approvalStatusLine(placed)}\n${nextSteps(request, result)}`);
      await refresh(request, ctx);
      await ctx.notifier.post({
        scope: ctx.notifyScope,
        key: `${ctx.notifyKey}:requester`,
        channel: request.requester.userId,
        text: orderedRequesterText(request.title, result.providerId),
      });
    },
    async onFailed(request: ApprovalRequest, error: PlacementError, ctx: PlacementContext) {
      await post(request, ctx, placementFailedText(error.message));
      await refresh(request, ctx);
    },
    async onEscalate(request: ApprovalRequest, cause: EscalationCause, ctx: PlacementContext) {
      await post(
        request,
        ctx,
        escalationText(escalationCauseText(cause), request.reconcileKey ?? request.title),
      );
      await refresh(request, ctx);
    },
  };
}
