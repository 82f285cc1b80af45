import type { Refused } from "../../src/orders/requestResults.js";
import { escapeMrkdwn } from "../blocks.js";
import { describeFailure } from "../failures.js";
import { describeRefusal } from "./refusals.js";

/**
 * The words of every refusal the lifecycle API (src/orders/requests.ts) answers, for a person
 * who acted in Slack: one short sentence, told privately. A store refusal travels along with
 * its code and is worded by `describeRefusal` as before.
 */

/** Said when a click on an approver button came from another message or channel. */
export const NOT_ITS_MESSAGE =
  "This button only works on the request's own message in the approvals channel; nothing was changed.";

export const CHECKS_TOO_SLOW =
  ":hourglass: I couldn't check this click in time (Slack or my storage was slow); nothing was changed. Please click again.";

export function refusedText(refused: Refused): string {
  switch (refused.reason) {
    case "storage_unavailable":
      return describeFailure(refused.error);
    case "too_slow":
      return CHECKS_TOO_SLOW;
    case "not_found":
      return "I can't find this request any more.";
    case "not_a_request_id":
      return "That is not a request id: it looks like `apr_…` (the id is on your confirmation and on the request).";
    case "not_an_approver":
    case "self_approval":
    case "not_a_requester":
    case "approvals_not_set_up":
    case "invalid_origin":
      return refused.message;
    case "name_taken":
      // The name is the person's own text: escaped wherever it is not worded by the store's.
      return refused.refusal ? describeRefusal(refused.refusal) : escapeMrkdwn(refused.message);
    case "not_its_message":
      return NOT_ITS_MESSAGE;
    case "look_up_first":
      return "*Place again* is offered only after a look-up found nothing: press *Look up again* first.";
    default:
      return describeRefusal(refused.refusal);
  }
}
