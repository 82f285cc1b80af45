import { describeState } from "../../../../views/refusals.js";
import type { Services } from "../../../services.js";
import { tellPrivately } from "../../kit/index.js";
import { approverAction, auditApproval } from "./approverClick.js";

/**
 * Look up again (a placement whose outcome is unknown): asks the provider whether the order
 * exists. Nothing to store, so the click is acked before the look-up, which can take longer
 * than Slack's 3 s.
 */
export function lookUpAgainButton(services: Services) {
  return approverAction(services, "look-up-again", async (click, recorded) => {
    await recorded();
    const looked = await services.orders.lookUpAgain(click.record.id);
    auditApproval(services, click.record, click.userId, "look-up-again", looked);
    const current =
      looked === "not-unknown" ? await services.approvals.store.get(click.record.id) : null;
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
  });
}
