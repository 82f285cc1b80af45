import type { App } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { refusedText } from "../../../../views/approvals/lifecycleRefusals.js";
import { refusalAbout } from "../../../../views/approvals/refusals.js";
import { describeFailure } from "../../../../views/failures.js";
import type { ApprovalRequest } from "../../../approvals/types.js";
import { isStorageUnavailable } from "../../../domain/errors.js";
import { BEFORE_ACK_BUDGET_MS } from "../../../domain/slackBudget.js";
import type { DecisionInput, Refused } from "../../../orders/index.js";
import { groupMembersVia } from "../../kit/approvers.js";
import { tellPrivately } from "../../kit/index.js";
import type { ApprovalDeps } from "./index.js";

/**
 * What every approver button shares (Approve, Reject, Retry, Place again, Mark failed, Look up
 * again): the click is translated into ONE call of the lifecycle API (src/orders/requests.ts),
 * which reads the request, checks who may decide and where the click was (its own approval
 * message, or the clicker's App Home) within CHECK_BUDGET_MS, and runs the step. The API
 * answers as soon as the step is stored (or refused); the click is acked on that answer only,
 * so a 500 means nothing changed. What follows the step is told after the ack.
 */

/**
 * Time allowed for reading the request and checking the approver (a user group's members come
 * from Slack) before the step is recorded and the click acked: Slack wants the ack within 3 s,
 * and the receiver answers on its own at 2.9 s (src/slack/app.ts).
 */
export const CHECK_BUDGET_MS = BEFORE_ACK_BUDGET_MS;

export { NOT_ITS_MESSAGE } from "../../../../views/approvals/lifecycleRefusals.js";

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

/** The audit line of an approver's decision (or of its refusal). */
export function auditApproval(
  services: ApprovalDeps,
  record: Pick<ApprovalRequest, "id">,
  by: string,
  action: string,
  outcome: string,
): void {
  services.logger.info({ audit: "approval", approvalId: record.id, by, action, outcome }, outcome);
}

export type ActionArgs = Parameters<Parameters<App["action"]>[1]>[0];

/** A click, as the lifecycle API takes it, and what its answer needs in Slack. */
export interface ApproverClick {
  /** The lifecycle API's input: id, by, groups, where, and the checks' budget. */
  decision: DecisionInput;
  /** Acks the click (once; later calls do nothing): only on a stored step or passed checks. */
  ack: () => Promise<void>;
  channel: string | undefined;
  messageTs: string | undefined;
  triggerId: string;
  client: WebClient;
  /** Tells the clicker privately (ephemeral where they clicked, else their DM). */
  tell: (text: string) => Promise<unknown>;
}

/**
 * The listener of an approver button: the click becomes `step`'s one call; a refusal is told
 * privately (and audited when it is about who or where). Acked means kept: `step` acks
 * (`click.ack`) on the API's answer that the step is stored, before awaiting what follows it;
 * if storage is down the click is not acked with 200 (Slack shows the person it failed) and
 * nothing changed.
 */
export function approverAction(
  services: ApprovalDeps,
  name: string,
  step: (click: ApproverClick) => Promise<{ ok: true } | Refused>,
) {
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
    const messageTs = body.message?.ts;
    const tell = (text: string) =>
      tellPrivately(client, services, { userId, channelId: channel }, text);
    try {
      const result = await step({
        decision: {
          id: action.value,
          by: userId,
          groups: groupMembersVia(client),
          at: isHomeClick(body) ? { home: true } : { channel, messageTs },
          checksWithinMs: CHECK_BUDGET_MS,
        },
        ack: ackOnce,
        channel,
        messageTs,
        triggerId: body.trigger_id,
        client,
        tell,
      });
      if (result.ok) return await ackOnce();
      if (result.reason === "storage_unavailable" && !acked) {
        // Not stored, so not acked: Bolt answers 500 and Slack shows the click failed.
        services.logger.warn({ action: name, by: userId }, "approval click not recorded");
        tell(describeFailure(result.error)).catch(() => undefined);
        throw result.error;
      }
      await ackOnce();
      if ("record" in result && result.record && isAboutWho(result)) {
        auditApproval(services, result.record, userId, name, auditOutcome(result));
      }
      // A click in App Home is answered in the clicker's DM, away from the request: say which.
      const about = isHomeClick(body) && "record" in result && result.record;
      await tell(`${about ? refusalAbout(about) : ""}${refusedText(result)}`);
    } catch (error) {
      if (!acked && isStorageUnavailable(error)) throw error;
      await ackOnce();
      services.logger.error({ err: error, action: name }, "approval action failed");
      await tell(describeFailure(error)).catch(() => undefined);
    }
  };
}

function isAboutWho(refused: Refused): boolean {
  return (
    refused.reason === "not_an_approver" ||
    refused.reason === "self_approval" ||
    refused.reason === "not_its_message"
  );
}

/** The audit line's outcome: it carries why (a user group Slack would not read), not only "blocked". */
function auditOutcome(refused: Refused): string {
  if (refused.reason === "not_its_message") return "blocked: not its approval message";
  return "detail" in refused && refused.detail ? `blocked: ${refused.detail}` : "blocked";
}
