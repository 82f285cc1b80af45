/**
 * Slack's 3-second budget, in one place (issue 29: six constants said it six ways). Slack shows
 * a request as failed when its ack takes longer than 3 s; whatever a listener does before the
 * ack must leave room for the answer's trip back.
 */

/** Slack's own limit on an ack. */
export const SLACK_ACK_WINDOW_MS = 3_000;

/** The receiver answers on its own just before Slack gives up (src/slack/app.ts). */
export const RECEIVER_ANSWER_MS = 2_900;

/**
 * Checks a submission or a click runs before its ack (fresh provider data for a form, reading
 * the request and the approver's groups for a button): two of Slack's three seconds.
 */
export const BEFORE_ACK_BUDGET_MS = 2_000;

/**
 * Provider work answered inside a Slack request that has little else to do (an options load,
 * an Edge form's re-read): two and a half seconds.
 */
export const IN_SLACK_WINDOW_MS = 2_500;
