// The Workflow Builder steps' listeners (src/slack/features/steps), called as Bolt calls them
// with a fake `complete` / `fail`: what ends a step at once, what leaves it open, and what a
// request step hands its OrderSubmitter. The end-to-end suite (test/e2e/steps.test.ts) drives
// the same listeners through signed `function_executed` events.
import { afterAll, describe, expect, it } from "vitest";
import type { OrderSubmission } from "../../../src/orders/index.js";
import type { StepCompletions } from "../../../src/orders/stepCompletions.js";
import {
  registerStepListeners,
  STEP_CALLBACK_IDS,
} from "../../../src/slack/features/steps/index.js";
import type { OrderSubmitter, StepRun } from "../../../src/slack/features/steps/orderSubmitter.js";
import { requestStep } from "../../../src/slack/features/steps/requestSteps.js";
import { immediateStep } from "../../../src/slack/features/steps/stepListener.js";
import { pricePortInputs, requestPortOrderInputs } from "../../../src/usecases/steps/inputs.js";
import { NO_STEP_NAMES } from "../../../views/steps/steps.js";
import { listenerServices } from "../../support/fakeSlack.js";

const noNames = async () => NO_STEP_NAMES;

const exercised = new Set<string>();

function stepArgs(callbackId: string, inputs: Record<string, unknown>) {
  exercised.add(callbackId);
  const ended: Array<{ how: "complete" | "fail"; value: unknown }> = [];
  return {
    ended,
    args: {
      inputs,
      event: {
        type: "function_executed",
        function: { callback_id: callbackId },
        function_execution_id: "Fx0STEPTEST",
        bot_access_token: "xwfp-step-token",
        inputs,
      },
      complete: async (params: unknown) => {
        ended.push({ how: "complete", value: params });
        return { ok: true };
      },
      fail: async (params: unknown) => {
        ended.push({ how: "fail", value: params });
        return { ok: true };
      },
    } as never,
  };
}

const submission = { kind: "port", title: "ams-1" } as unknown as OrderSubmission;

describe("Workflow Builder step listeners", () => {
  afterAll(() => {
    // The ids run here are the feature's own; each of the five runs end to end in
    // test/e2e/steps.test.ts.
    const ids: string[] = [];
    registerStepListeners({ function: (id: string) => ids.push(id) as never }, listenerServices(), {
      client: {} as never,
      completions: {} as StepCompletions,
    });
    expect(ids.sort()).toEqual([...STEP_CALLBACK_IDS].sort());
    expect([...exercised].filter((id) => !ids.includes(id))).toEqual([]);
  });

  it("an immediate step: bad inputs fail with every problem, nothing runs", async () => {
    let ran = false;
    const listener = immediateStep(listenerServices(), pricePortInputs, async () => {
      ran = true;
      return { ok: true, outputs: {} };
    });
    const { args, ended } = stepArgs("price_port", { speed_mbps: "fast", term_months: 12 });
    await listener(args);
    expect(ran).toBe(false);
    expect(ended).toEqual([
      {
        how: "fail",
        value: { error: "Data center is missing; Speed (Mbps) must be a whole number" },
      },
    ]);
  });

  it("an immediate step: outputs escaped, numbers kept; a use case that throws says so", async () => {
    const good = immediateStep(listenerServices(), pricePortInputs, async () => ({
      ok: true,
      outputs: { monthly_price: 10, summary: "<!here> & co" },
    }));
    const first = stepArgs("price_port", { data_center: "ams", speed_mbps: 1000, term_months: 12 });
    await good(first.args);
    expect(first.ended).toEqual([
      {
        how: "complete",
        value: { outputs: { monthly_price: 10, summary: "&lt;!here&gt; &amp; co" } },
      },
    ]);
    const broken = immediateStep(listenerServices(), pricePortInputs, async () => {
      throw new Error("provider down");
    });
    const second = stepArgs("price_port", {
      data_center: "ams",
      speed_mbps: 1000,
      term_months: 12,
    });
    await broken(second.args);
    expect(second.ended).toEqual([
      { how: "fail", value: { error: "Something went wrong on our side; run the step again." } },
    ]);
  });

  it("a request step: submitted with its run, and left open", async () => {
    const runs: StepRun[] = [];
    const submitter: OrderSubmitter = {
      submit: async (given, run) => {
        expect(given).toBe(submission);
        runs.push(run);
        return { ok: true, requestId: "apr_aaaaaaaaaaaaaaaa" };
      },
    };
    const listener = requestStep(
      listenerServices(),
      submitter,
      requestPortOrderInputs,
      async () => ({
        ok: true,
        submission,
      }),
      noNames,
    );
    const { args, ended } = stepArgs("request_port_order", {
      requester: "U0REQUEST1",
      data_center: "ams",
      speed_mbps: 1000,
      term_months: 12,
      port_name: "ams-1",
      channel: "",
    });
    await listener(args);
    expect(ended).toEqual([]);
    expect(runs).toEqual([
      { callbackId: "request_port_order", executionId: "Fx0STEPTEST", token: "xwfp-step-token" },
    ]);
  });

  it("a request step: a refusal or a failure to submit ends it with why", async () => {
    const inputs = {
      requester: "U0REQUEST1",
      data_center: "ams",
      speed_mbps: 1000,
      term_months: 12,
      port_name: "ams-1",
    };
    const refusing = requestStep(
      listenerServices(),
      { submit: async () => ({ ok: false, error: 'A request named "ams-1" is already waiting' }) },
      requestPortOrderInputs,
      async () => ({ ok: true, submission }),
      noNames,
    );
    const refused = stepArgs("request_port_order", inputs);
    await refusing(refused.args);
    expect(refused.ended).toEqual([
      { how: "fail", value: { error: 'A request named "ams-1" is already waiting' } },
    ]);
    const throwing = requestStep(
      listenerServices(),
      {
        submit: async () => {
          throw new Error("Redis is out of reach");
        },
      },
      requestPortOrderInputs,
      async () => ({ ok: true, submission }),
      noNames,
    );
    const failed = stepArgs("request_layer2_connection", inputs);
    await throwing(failed.args);
    expect(failed.ended).toEqual([
      {
        how: "fail",
        value: {
          error:
            "The request could not be sent for approval; nothing was ordered. Run the step again.",
        },
      },
    ]);
  });

  it("a refused requester's error reads as names in the run history; hostile text stays inert", async () => {
    const looked: string[] = [];
    const names = async (text: string) => {
      looked.push(text);
      return {
        person: (id: string) => ({ U0ALLOWED1: "Alex Approver" })[id] ?? id,
        group: (id: string) => ({ S0GROUP1: "@network-approvers" })[id] ?? id,
      };
    };
    const refusing = requestStep(
      listenerServices(),
      {
        submit: async () => ({
          ok: false,
          error:
            "You are not allowed to request orders. Requesters: <@U0ALLOWED1>, <!subteam^S0GROUP1>. Port <!channel> & <https://x.example|click>",
        }),
      },
      requestPortOrderInputs,
      async () => ({ ok: true, submission }),
      names,
    );
    const refused = stepArgs("request_port_order", {
      requester: "U0REQUEST1",
      data_center: "ams",
      speed_mbps: 1000,
      term_months: 12,
      port_name: "ams-1",
    });
    await refusing(refused.args);
    expect(refused.ended).toEqual([
      {
        how: "fail",
        value: {
          error:
            "You are not allowed to request orders. Requesters: @Alex Approver, @network-approvers. Port ‹!channel› & ‹https://x.example|click›",
        },
      },
    ]);
    expect(looked).toHaveLength(1);
  });
});
