// Submitting an order for approval, as every order form does: one call of the lifecycle API
// (src/orders/requests.ts: who may request, the policy rule, the name reserved, stored), then
// what only Slack can do — the approval message posted to the approvals channel, the card where
// it was asked, the requester's confirmation. The approval listeners (deciding) live in
// src/slack/features/approvals/.
import type { WebClient } from "@slack/web-api";
import { approvalMessageView, submittedView } from "../../../views/approvals/approvals.js";
import type { Reply } from "../../../views/reply.js";
import type { ApprovalSettings } from "../../approvals/index.js";
import type { ApprovalRequest } from "../../approvals/types.js";
import type { OrderSubmission } from "../../orders/index.js";
import type { OrderLifecycle } from "../../orders/lifecycle.js";
import { readRequest } from "../../orders/readModel.js";
import type { OrderRequests } from "../../orders/requests.js";
import { groupMembersVia } from "./approvers.js";
import { postRequestCard, type RequestCardDeps } from "./requestCard.js";

export type SubmitOutcome = { ok: true; approval: ApprovalRequest; link?: string } | SubmitRefusal;

/** Why a submission became no request; `field: "name"` when its name is taken (show it there). */
export type SubmitRefusal = { ok: false; message: string; field?: "name" };

/** What storing a request uses: the lifecycle API's `submit`. */
export interface StoreDeps {
  requests: Pick<OrderRequests, "submit">;
}

/** What posting a stored request uses: the approvals channel, the lifecycle API, its card. */
export type PostDeps = RequestCardDeps & {
  approvals: Pick<ApprovalSettings, "channel" | "approveConfirmFrom">;
  requests: Pick<OrderRequests, "approvalPosted" | "approvalNotPosted">;
  orders: Pick<OrderLifecycle, "changed">;
};

export type SubmitDeps = StoreDeps & PostDeps;

export type StoreOutcome = { ok: true; approval: ApprovalRequest } | SubmitRefusal;

/**
 * Turns a validated order into an approval request: stored (its name reserved) through the
 * lifecycle API, posted to the approvals channel, the requester told where it is. `origin`
 * (opaque, e.g. a Workflow Builder step's execution id) is carried on the record.
 */
export async function submitForApproval(input: {
  services: SubmitDeps;
  client: WebClient;
  submission: OrderSubmission;
  origin?: string;
}): Promise<SubmitOutcome> {
  const stored = await storeForApproval(input);
  if (!stored.ok) return stored;
  return postForApproval({ ...input, approval: stored.approval });
}

/**
 * The first half of submitting: the lifecycle API's `submit` (who may request, then the request
 * stored with its name reserved in one Redis step). Quick enough to run before a form is
 * answered, so a taken name can be shown next to the name field (src/slack/kit/submitForm.ts).
 * A Redis outage is thrown (StorageUnavailableError), as before.
 */
export async function storeForApproval(input: {
  services: StoreDeps;
  client: WebClient;
  submission: OrderSubmission;
  origin?: string;
}): Promise<StoreOutcome> {
  const { services, client, submission, origin } = input;
  const submitted = await services.requests.submit({
    submission,
    groups: groupMembersVia(client),
    ...(origin !== undefined ? { origin } : {}),
  });
  if (submitted.ok) return { ok: true, approval: submitted.record };
  switch (submitted.reason) {
    case "storage_unavailable":
      throw submitted.error;
    case "name_taken":
      return { ok: false, field: "name", message: submitted.message };
    default:
      return { ok: false, message: "message" in submitted ? submitted.message : submitted.reason };
  }
}

/** The second half of submitting: posts a stored request to the approvals channel. */
export async function postForApproval(input: {
  services: PostDeps;
  client: WebClient;
  approval: ApprovalRequest;
}): Promise<Extract<SubmitOutcome, { ok: true }>> {
  const { services, client, approval } = input;
  const channel = services.approvals.channel;
  if (!channel) throw new Error("no approvals channel to post the request to");
  const view = approvalMessageView(readRequest(approval), {
    approveConfirmFrom: services.approvals.approveConfirmFrom,
  });
  const posted = await client.chat
    .postMessage({ channel, text: view.text, blocks: view.blocks })
    .catch(async (error: unknown) => {
      // Never posted, so no approver can ever decide it: it must not stay pending holding its
      // name, or the requester's "try again" would be refused as a name already waiting.
      await services.requests.approvalNotPosted(approval);
      throw error;
    });
  // The message's place exists nowhere else: its buttons are honoured only where the record
  // says the message is, so it is kept through a Redis outage (the form is answered by now).
  if (posted.ts) {
    await services.requests.approvalPosted(approval, {
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
