import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReliabilityResult } from "../faults/reliabilityResults.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { VIEW_CALLBACK_IDS } from "./slackIds.js";
import {
  anyStateValue,
  anyText,
  commonFields,
  expectStillAnswersHelp,
  FUZZ_SEED,
  FUZZ_USER,
  providerWrites,
  StatusTally,
} from "./support.js";

/** The modals a command opens, to fuzz with their real block and action ids. */
const OPENED_BY: Partial<Record<(typeof VIEW_CALLBACK_IDS)[number], string>> = {
  price_port: "price port",
  price_l2: "price l2",
  port_order: "port order",
  layer2_request: "l2",
  iod_request: "iod",
  edge_quote: "edge quote",
};

/**
 * view_submission of every modal the bot handles, with random state values (on its real inputs
 * and on made-up ones) and random private metadata: the bot answers 200/4xx, a submission it
 * cannot use gets `errors` next to a field (or, once accepted, a message), and nothing is bought.
 */
describe("fuzzing view submissions", () => {
  let env: TestBot;
  const tally = new StatusTally();
  const outcomes: Record<string, number> = {};
  /** Input (block id, action id) pairs of each modal as the bot built it. */
  const inputs = new Map<string, Array<[string, string]>>();
  const metadata = new Map<string, string>();

  beforeAll(async () => {
    env = await startTestBot();
    for (const [callbackId, command] of Object.entries(OPENED_BY)) {
      await env.connect(command);
      const stored = await env.standin.waitForView(
        FUZZ_USER,
        (v) => v.view.callback_id === callbackId,
        { timeoutMs: 10_000 },
      );
      const pairs: Array<[string, string]> = [];
      for (const block of stored.view.blocks as unknown as Array<Record<string, unknown>>) {
        const element = block.element as { action_id?: string } | undefined;
        if (block.type === "input" && element?.action_id)
          pairs.push([String(block.block_id), element.action_id]);
      }
      inputs.set(callbackId, pairs);
      metadata.set(callbackId, stored.view.private_metadata);
    }
    inputs.set("approval_reject_reason", [["reject_reason", "reject_reason_input"]]);
    inputs.set("edge_discount", [["edge_discount_code", "edge_discount_code_input"]]);
    inputs.set("edge_draft_rename", [["edge_draft_name", "edge_draft_name_input"]]);
  }, 40_000);
  afterAll(async () => {
    writeReliabilityResult({
      suite: "fuzz-views",
      checks:
        "signed view_submission for every modal with random state values and metadata: no 5xx, errors shown next to a field or a message, no provider write",
      figures: {
        fuzzRuns: tally.runs,
        serverErrors: tally.serverErrors,
        modals: VIEW_CALLBACK_IDS.length,
        ...Object.fromEntries(Object.entries(outcomes).map(([k, v]) => [`outcome.${k}`, v])),
        ...Object.fromEntries(Object.entries(tally.byStatus).map(([k, v]) => [`status.${k}`, v])),
      },
      settings: { seed: FUZZ_SEED },
    });
    await env?.close();
  });

  /** Web API calls that tell the person something (a message, a modal change). */
  const toldSomething = () =>
    env.standin
      .calls()
      .filter((c) =>
        [
          "chat.postMessage",
          "chat.postEphemeral",
          "views.update",
          "views.push",
          "views.open",
        ].includes(c.method),
      ).length;

  function stateFor(callbackId: string) {
    const pairs = inputs.get(callbackId) ?? [];
    const real = fc.array(
      fc.tuple(
        fc.constantFrom(...(pairs.length > 0 ? pairs : [["b", "a"] as [string, string]])),
        anyStateValue,
      ),
      { maxLength: pairs.length + 1 },
    );
    const madeUp = fc.array(fc.tuple(fc.tuple(anyText, anyText), anyStateValue), { maxLength: 2 });
    return fc.tuple(real, madeUp).map(([a, b]) => {
      const values: Record<string, Record<string, unknown>> = {};
      for (const [[blockId, actionId], value] of [...a, ...b]) {
        values[blockId] = { ...values[blockId], [actionId]: value };
      }
      return values;
    });
  }

  for (const callbackId of VIEW_CALLBACK_IDS) {
    it(`answers ${callbackId} submissions`, async () => {
      await fc.assert(
        fc.asyncProperty(
          stateFor(callbackId),
          fc.oneof(
            anyText,
            fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
            fc.constant(metadata.get(callbackId) ?? ""),
          ),
          async (values, privateMetadata) => {
            const told = toldSomething();
            const view = {
              id: "V0FUZZ0002",
              team_id: STANDIN_IDS.team,
              type: "modal",
              callback_id: callbackId,
              private_metadata: privateMetadata,
              blocks: [],
              state: { values },
              hash: "1.fuzz",
              title: { type: "plain_text", text: "Fuzz" },
              root_view_id: "V0FUZZ0002",
              previous_view_id: null,
              app_id: STANDIN_IDS.app,
              external_id: "",
              bot_id: STANDIN_IDS.bot,
              clear_on_close: false,
              notify_on_close: false,
            };
            const ack = await env.slack.sendInteraction({
              ...commonFields(env),
              type: "view_submission",
              view,
              response_urls: [],
            });
            tally.add(ack.status);
            expect(ack.status).toBeLessThan(500);
            const body = ack.body as
              | { response_action?: string; errors?: Record<string, string> }
              | undefined;
            const action = body?.response_action ?? "closed";
            outcomes[action] = (outcomes[action] ?? 0) + 1;
            if (action === "errors") {
              const messages = Object.values(body?.errors ?? {});
              expect(messages.length).toBeGreaterThan(0);
              for (const message of messages) expect(message.trim().length).toBeGreaterThan(3);
            } else if (action === "closed") {
              // Accepted (or the modal closed): the person must then hear what happened.
              await expect
                .poll(() => toldSomething() > told, { timeout: 5_000, interval: 20 })
                .toBe(true);
            } else {
              expect(["update", "push", "clear"]).toContain(action);
            }
          },
        ),
        { seed: FUZZ_SEED, numRuns: 40 },
      );
    }, 50_000);
  }

  it("keeps answering and bought nothing", async () => {
    await expectStillAnswersHelp(env);
    expect(providerWrites(env)).toEqual([]);
    expect(tally.serverErrors).toBe(0);
  });
});
