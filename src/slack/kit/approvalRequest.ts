// Submitting an order for approval, as every order form does: the request stored with its name
// reserved, posted to the approvals channel, its card posted where it was asked, the requester's
// confirmation. The approval listeners (deciding) live in src/slack/features/approvals/.
import type { WebClient } from "@slack/web-api";
import { approvalMessageView, submittedView } from "../../../views/approvals.js";
import type { Reply } from "../../../views/reply.js";
import {
  type ApprovalRequest,
  canRequest,
  NameReservedError,
  persistently,
  requirementFor,
  SLACK_REFS_WRITE_TIMEOUT_MS,
} from "../../approvals/index.js";
import type { OrderSubmission } from "../../orders/index.js";
import type { Services } from "../../services.js";
import { groupMembersVia } from "./approvers.js";
import { postRequestCard } from "./requestCard.js";
import { APPROVALS_NOT_SET_UP } from "./requireApprovals.js";

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
 * can be shown next to the name field (see src/slack/kit/submitForm.ts).
 */
export async function storeForApproval(input: {
  services: Services;
  client: WebClient;
  submission: OrderSubmission;
}): Promise<StoreOutcome> {
  const { services, client, submission } = input;
  const settings = services.approvals;
  if (!settings.channel || settings.approvers.length === 0) {
    return { ok: false, message: APPROVALS_NOT_SET_UP };
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
  const view = approvalMessageView(approval, {
    approveConfirmFrom: settings.approveConfirmFrom,
  });
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
