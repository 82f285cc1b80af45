import { createHmac } from "node:crypto";

/**
 * Signs a request body the way Slack does, so a stand-in (or a test) can talk to the app's
 * `POST /slack/events` and pass Bolt's verification: `v0=` + HMAC-SHA256 of
 * `v0:{timestamp}:{rawBody}` keyed with the app's signing secret.
 */

/** Exactly what Slack sends: Bolt compares the content type literally, so no charset. */
export const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

export interface SignedSlackHeaders {
  "content-type": typeof FORM_CONTENT_TYPE;
  "x-slack-signature": string;
  "x-slack-request-timestamp": string;
}

export interface SignSlackRequestInput {
  signingSecret: string;
  /** The raw body, byte for byte as it will be sent. */
  body: string;
  /** Unix seconds; now when omitted. Bolt refuses timestamps older than 5 minutes. */
  timestamp?: number;
}

export function slackSignature(signingSecret: string, timestamp: number, body: string): string {
  const digest = createHmac("sha256", signingSecret)
    .update(`v0:${timestamp}:${body}`)
    .digest("hex");
  return `v0=${digest}`;
}

export function signSlackRequest(input: SignSlackRequestInput): SignedSlackHeaders {
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  return {
    "content-type": FORM_CONTENT_TYPE,
    "x-slack-signature": slackSignature(input.signingSecret, timestamp, input.body),
    "x-slack-request-timestamp": String(timestamp),
  };
}
