// The look-up feature's listener (src/slack/features/lookups): the Track button of
// `/connect order`, with a fake tracker where the background jobs would plug theirs in.
import { describe, expect, it } from "vitest";
import { registerLookupListeners } from "../../../src/slack/features/lookups/index.js";
import { trackingUnavailableText } from "../../../src/slack/features/lookups/trackOrderButton.js";
import type { OrderTracking, TrackOrderRequest } from "../../../src/usecases/orderLookup.js";
import { SANDBOX_LABEL } from "../../../views/blocks.js";
import { describeFailure } from "../../../views/failures.js";
import { ACTION_ORDER_TRACK } from "../../../views/lookups/orders.js";
import { fakeRegistry, listenerServices } from "../../support/fakeSlack.js";
import { click } from "./support.js";

const ORDER_ID = "64b7f0c2a1e9d3b5c7a8e6f4";
const exercised = new Set<string>();

function feature(orderTracking?: OrderTracking, sandbox = false) {
  const registry = fakeRegistry();
  registerLookupListeners(registry.registry, listenerServices({ sandbox }), {
    ...(orderTracking ? { orderTracking } : {}),
  });
  const run = (args: Record<string, unknown>) => {
    exercised.add(ACTION_ORDER_TRACK);
    return registry.run("action", ACTION_ORDER_TRACK, args);
  };
  return { registry, run };
}

const inGeneral = { userId: "U0REQUEST1", channel: "C0GENERAL1" };

describe("Track order", () => {
  it("without a tracker, says tracking is not running (nothing pretends to track)", async () => {
    const { run } = feature();
    const c = click(ACTION_ORDER_TRACK, ORDER_ID, inGeneral);
    await run(c.args);
    expect(c.acks.acked).toEqual([undefined]);
    expect(c.responses.responded).toEqual([
      {
        response_type: "ephemeral",
        replace_original: false,
        text: trackingUnavailableText(ORDER_ID),
      },
    ]);
  });

  it("starts tracking in the channel clicked in and answers privately with the tracker's words", async () => {
    const asked: TrackOrderRequest[] = [];
    const { run } = feature(
      {
        track: async (request) => {
          asked.push(request);
          return { text: "Tracking it." };
        },
      },
      true,
    );
    const c = click(ACTION_ORDER_TRACK, ORDER_ID, inGeneral);
    await run(c.args);
    expect(asked).toEqual([{ orderId: ORDER_ID, userId: "U0REQUEST1", channelId: "C0GENERAL1" }]);
    expect(c.responses.responded[0]).toMatchObject({ text: "Tracking it." });
    expect(JSON.stringify(c.responses.responded[0]?.blocks)).toContain(SANDBOX_LABEL);
  });

  it("refuses a button without an order id, and words a failure once (describeFailure)", async () => {
    const broken = new Error("tracker unavailable");
    const tracking: OrderTracking = {
      track: async () => {
        throw broken;
      },
    };
    const { run } = feature(tracking);
    const blank = click(ACTION_ORDER_TRACK, "not an id!", inGeneral);
    await run(blank.args);
    expect(blank.responses.responded[0]?.text).toBe(
      ":warning: This Track button carries no order id; run the order look-up again.",
    );
    const failed = click(ACTION_ORDER_TRACK, ORDER_ID, inGeneral);
    await run(failed.args);
    expect(failed.responses.responded[0]?.text).toBe(describeFailure(broken));
  });

  it("never throws when the answer cannot be delivered", async () => {
    const { run } = feature();
    const c = click(ACTION_ORDER_TRACK, ORDER_ID, inGeneral);
    await expect(
      run({
        ...c.args,
        respond: async () => {
          throw new Error("response_url expired");
        },
      }),
    ).resolves.toBeUndefined();
  });
});

describe("every look-up listener", () => {
  it("is exercised above", () => {
    const { registry } = feature();
    expect(registry.ids("action")).toEqual([...exercised]);
    expect([...registry.ids("view"), ...registry.ids("options")]).toEqual([]);
  });
});
