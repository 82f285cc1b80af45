import { Writable } from "node:stream";
import type { BlockAction, ButtonAction, RespondArguments } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { httpError } from "../../src/provider/errors.js";
import {
  onTrackOrder,
  trackingUnavailableText,
} from "../../src/slack/features/lookups/trackOrderButton.js";
import type { ListenerDeps } from "../../src/slack/listeners.js";
import type { OrderTracking, TrackOrderRequest } from "../../src/usecases/orderLookup.js";

// The Track button's listener called directly with a click as Bolt hands it over: the seam
// where the background jobs plug their tracker in (the end-to-end file covers "no tracker").

type TrackClick = Parameters<ReturnType<typeof onTrackOrder>>[0];

function click(value: string | undefined) {
  const events: string[] = [];
  const answers: RespondArguments[] = [];
  const action = { type: "button", action_id: "order_track", value } as ButtonAction;
  const body = {
    type: "block_actions",
    user: { id: "U0REQUEST1" },
    channel: { id: "C0GENERAL1" },
    actions: [action],
  } as unknown as BlockAction<ButtonAction>;
  const args: TrackClick = {
    ack: async () => {
      events.push("ack");
    },
    respond: async (message: string | RespondArguments) => {
      events.push("respond");
      answers.push(typeof message === "string" ? { text: message } : message);
      return new Response("ok");
    },
    action,
    body,
  };
  return { args, events, answers };
}

function services(): ListenerDeps {
  const logger = createLogger({
    level: "silent",
    destination: new Writable({ write: (_c, _e, cb) => cb() }),
  });
  return { logger } as Partial<ListenerDeps> as ListenerDeps;
}

describe("onTrackOrder", () => {
  it("acks first, then says tracking waits for the jobs when no tracker is plugged in", async () => {
    const { args, events, answers } = click("64b7f0c2a1e9d3b5c7a8e6f4");
    await onTrackOrder(services())(args);
    expect(events).toEqual(["ack", "respond"]);
    expect(answers[0]).toMatchObject({
      response_type: "ephemeral",
      replace_original: false,
      text: trackingUnavailableText("64b7f0c2a1e9d3b5c7a8e6f4"),
    });
  });

  it("hands the order, the person and the channel to a plugged-in tracker", async () => {
    const seen: TrackOrderRequest[] = [];
    const tracking: OrderTracking = {
      track: async (request) => {
        seen.push(request);
        return { text: `Tracking ${request.orderId}: updates follow in this channel.` };
      },
    };
    const { args, answers } = click("64b7f0c2a1e9d3b5c7a8e6f4");
    await onTrackOrder(services(), tracking)(args);
    expect(seen).toEqual([
      { orderId: "64b7f0c2a1e9d3b5c7a8e6f4", userId: "U0REQUEST1", channelId: "C0GENERAL1" },
    ]);
    expect(answers[0]?.text).toBe(
      "Tracking 64b7f0c2a1e9d3b5c7a8e6f4: updates follow in this channel.",
    );
  });

  it("answers a short message when the tracker fails", async () => {
    const tracking: OrderTracking = {
      track: async () => {
        throw httpError(
          {
            operation: "getPortOrder",
            method: "GET",
            path: "/api/company/{companyName}/ports/orders/{orderId}",
            subject: "the port order status",
          },
          503,
          undefined,
        );
      },
    };
    const { args, answers } = click("64b7f0c2a1e9d3b5c7a8e6f4");
    await onTrackOrder(services(), tracking)(args);
    expect(answers[0]?.text).toBe(
      ":warning: The provider answered 503 for the port order status — try again in a minute.",
    );
  });

  it("never calls the tracker for a button without a usable order id", async () => {
    let called = false;
    const tracking: OrderTracking = {
      track: async () => {
        called = true;
        return { text: "" };
      },
    };
    const { args, answers } = click("not an id");
    await onTrackOrder(services(), tracking)(args);
    expect(called).toBe(false);
    expect(answers[0]?.text).toContain("carries no order id");
  });
});
