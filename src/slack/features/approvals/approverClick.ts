import type { App } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { describeFailure } from "../../../../views/failures.js";
import type { ApprovalRequest } from "../../../approvals/index.js";
import { isStorageUnavailable } from "../../../domain/errors.js";
import type { Services } from "../../../services.js";
import { authorizeApprover } from "../../kit/approvers.js";
import { tellPrivately } from "../../kit/index.js";

/**
 * What every approver button shares (Approve, Reject, Retry, Place again, Mark failed, Look up
 * again): read the request the button names, check it was clicked on the request's own message
 * (or in the clicker's App Home) by someone who may decide, within CHECK_BUDGET_MS, then run the
 * button's step — acking only once the step is stored, so a 500 means nothing changed.
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

export const NOT_ITS_MESSAGE =
  "This button only works on the request's own message in the approvals channel; nothing was changed.";

/** The audit line of an approver's decision (or of its refusal). */
export function auditApproval(
  services: Services,
  record: ApprovalRequest,
  by: string,
  action: string,
  outcome: string,
): void {
  services.logger.info({ audit: "approval", approvalId: record.id, by, action, outcome }, outcome);
}

export type ActionArgs = Parameters<Parameters<App["action"]>[1]>[0];

export interface ApproverClick {
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
export type ApproverStep = (click: ApproverClick, recorded: () => Promise<void>) => Promise<void>;

/**
 * The listener of an approver button: the checks above, deny by default and audited, then
 * `step`. Acked means kept: a step that changes the request acks only once the change is
 * stored; if storage is down the click is not acked with 200 (Slack shows the person it failed)
 * and nothing changed. Refusals are acked and told privately.
 */
export function approverAction(services: Services, name: string, step: ApproverStep) {
  const settings = services.approvals;
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
    const where = { userId, channelId: channel };
    const refuse = async (text: string) => {
      await ackOnce();
      await tellPrivately(client, services, where, text);
    };
    // The failure in its one wording; a failed telling is not a second failure.
    const tellFailure = (error: unknown) =>
      tellPrivately(client, services, where, describeFailure(error)).catch(() => undefined);
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
      const allowed = await byDeadline(
        authorizeApprover(client, settings, userId, record),
        deadline,
      );
      if (!allowed.allowed) {
        // The log carries why (a user group Slack would not read), not only "blocked".
        auditApproval(
          services,
          record,
          userId,
          name,
          allowed.detail ? `blocked: ${allowed.detail}` : "blocked",
        );
        return refuse(allowed.message);
      }
      const messageTs = body.message?.ts;
      const fromHome = isHomeClick(body);
      if (!fromHome && !isOwnApprovalMessage({ channel, messageTs }, record)) {
        auditApproval(services, record, userId, name, "blocked: not its approval message");
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
        tellFailure(error);
        throw error;
      }
      if (error instanceof CheckTooSlowError) {
        return refuse(
          ":hourglass: I couldn't check this click in time (Slack or my storage was slow); nothing was changed. Please click again.",
        );
      }
      await ackOnce();
      services.logger.error({ err: error, action: name }, "approval action failed");
      await tellFailure(error);
    }
  };
}
