import type { ActionArgs } from "./approverClick.js";

/** The request card's *View in approvals* is a link; Slack still sends the click, which wants an ack. */
export function viewInApprovalsLink() {
  return async ({ ack }: Pick<ActionArgs, "ack">) => {
    await ack();
  };
}
