import type { WebClient } from "@slack/web-api";
import { cardInDmText } from "../../../views/approvals/requestCard.js";
import { sandboxLabelledBlocks } from "../../../views/blocks.js";
import type { ApprovalSettings } from "../../approvals/index.js";
import type { ApprovalRequest } from "../../approvals/types.js";
import { slackErrorCode } from "../../domain/errors.js";
import {
  CARD_NOT_HERE_ERRORS,
  type CardInDmReason,
  requestCardPlace,
} from "../../domain/requestCardPlace.js";
import type { Logger } from "../../log.js";
import type { OrderLifecycle } from "../../orders/lifecycle.js";
import type { OrderRequests } from "../../orders/requests.js";

/**
 * The request card's first post (issue 24). Like the approval message it is posted directly at
 * submission, so its ts is known and recorded before anyone can act; every later update and
 * thread reply goes through the notifier (src/orders/lifecycle.ts), in order with the approvals
 * thread. Where it goes is src/domain/requestCardPlace.ts's rule (`ORDER_UPDATES`): the channel
 * asked in, or the requester's DM, with one sentence saying why when the channel refused it or
 * the setting says so (once per person and place, 30 days); none with `off`. A card this post
 * never made (a crash, Slack or Redis failing here) is posted by the maintenance reconciler
 * (src/orders/requestCards.ts).
 */

/** What posting a request card uses. */
export interface RequestCardDeps {
  approvals: Pick<ApprovalSettings, "orderUpdates" | "channel">;
  orders: Pick<OrderLifecycle, "cardView" | "firstCardNotice">;
  requests: Pick<OrderRequests, "cardPosted">;
  sandbox: boolean;
  logger: Logger;
}

/** Posts the card of a request just posted for approval; never fails the submission. */
export async function postRequestCard(input: {
  services: RequestCardDeps;
  client: WebClient;
  approval: ApprovalRequest;
  /** The approval message's permalink, for *View in approvals*. */
  approvalLink?: string;
}): Promise<void> {
  const { services, client, approval } = input;
  const place = requestCardPlace({
    asked: approval.requester.channelId,
    approvalsChannel: services.approvals.channel,
    setting: services.approvals.orderUpdates,
  });
  if (!place) return;
  const asked = approval.requester.channelId;
  const requester = approval.requester.userId;
  // Slack's permalinks are short; one that is not would not fit the record's field.
  const approvalLink =
    input.approvalLink && input.approvalLink.length <= 200 ? input.approvalLink : undefined;
  const record: ApprovalRequest = {
    ...approval,
    slack: { ...approval.slack, ...(approvalLink ? { approvalLink } : {}) },
  };
  const view = services.orders.cardView(record);
  try {
    let reason: CardInDmReason | undefined = place.to === "dm" ? place.reason : undefined;
    let posted: { channel?: string; ts?: string } | undefined;
    if (place.to === "channel") {
      posted = await client.chat
        .postMessage({ channel: place.channel, text: view.text, blocks: view.blocks })
        .catch((error: unknown) => {
          const code = slackErrorCode(error);
          if (!code || !CARD_NOT_HERE_ERRORS.has(code)) throw error;
          reason = "not-in-channel";
          return undefined;
        });
    }
    if (!posted?.ts) {
      const where = reason === "setting" ? "setting" : (asked ?? "");
      if (reason && (await services.orders.firstCardNotice(requester, where))) {
        const text = cardInDmText(reason, asked);
        const blocks = sandboxLabelledBlocks({ text }, services.sandbox);
        await client.chat.postMessage({ channel: requester, text, ...(blocks ? { blocks } : {}) });
      }
      posted = await client.chat.postMessage({
        channel: requester,
        text: view.text,
        blocks: view.blocks,
      });
    }
    if (!posted?.ts || !posted.channel) return;
    const refs = {
      cardChannel: posted.channel,
      cardTs: posted.ts,
      ...(approvalLink ? { approvalLink } : {}),
    };
    // Where the card is exists nowhere else: lost to a Redis blip, the card would say "waiting
    // for approval" for ever. Kept like the approval message's place; a request decided
    // meanwhile (a quick approver) has its card catch up through the notifier.
    await services.requests.cardPosted(approval, refs);
  } catch (error) {
    services.logger.warn(
      { err: error, approvalId: approval.id },
      "could not post the request card; the approvals channel has everything",
    );
  }
}
