import { verifySlackRequest } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import { FORM_CONTENT_TYPE, signSlackRequest, slackSignature } from "../../src/standin/index.js";

const secret = "8f742231b10e8888abcd99yyyzzz85a5";
const body = "token=x&team_id=T0STANDIN1&command=%2Fconnect&text=price+port";

function boltAccepts(
  headers: ReturnType<typeof signSlackRequest>,
  signingSecret = secret,
  nowMs = Date.now(),
): boolean {
  try {
    verifySlackRequest({
      signingSecret,
      body,
      headers: {
        "x-slack-signature": headers["x-slack-signature"],
        "x-slack-request-timestamp": Number(headers["x-slack-request-timestamp"]),
      },
      nowMilliseconds: nowMs,
    });
    return true;
  } catch {
    return false;
  }
}

describe("signing requests the way Slack does", () => {
  it("produces headers Bolt's own verification accepts, with the exact form content type", () => {
    const headers = signSlackRequest({ signingSecret: secret, body });
    expect(headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(headers["content-type"]).toBe(FORM_CONTENT_TYPE);
    expect(headers["x-slack-signature"]).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(boltAccepts(headers)).toBe(true);
  });

  it("matches Slack's documented example signature", () => {
    // The example from Slack's "Verifying requests from Slack" guide.
    const example =
      "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    expect(slackSignature(secret, 1531420618, example)).toBe(
      "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
    );
  });

  it("is refused with another secret, a changed body, or a timestamp over five minutes old", () => {
    const now = Date.now();
    expect(boltAccepts(signSlackRequest({ signingSecret: "another-secret", body }))).toBe(false);
    const stale = signSlackRequest({
      signingSecret: secret,
      body,
      timestamp: Math.floor(now / 1000) - 6 * 60,
    });
    expect(boltAccepts(stale, secret, now)).toBe(false);
    const recent = signSlackRequest({
      signingSecret: secret,
      body,
      timestamp: Math.floor(now / 1000) - 4 * 60,
    });
    expect(boltAccepts(recent, secret, now)).toBe(true);
    const tampered = signSlackRequest({ signingSecret: secret, body: `${body}&extra=1` });
    expect(boltAccepts(tampered)).toBe(false);
  });
});
