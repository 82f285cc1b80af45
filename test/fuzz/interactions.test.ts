import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReliabilityResult } from "../faults/reliabilityResults.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { ACTION_IDS, OPTIONS_IDS, VIEW_CALLBACK_IDS } from "./slackIds.js";
import {
  anyStateValue,
  anyText,
  commonFields,
  expectStillAnswersHelp,
  FUZZ_SEED,
  providerWrites,
  StatusTally,
} from "./support.js";

/**
 * block_actions, block_suggestion and view_closed with random contents, properly signed: the
 * bot answers 200/4xx, keeps answering, and never buys anything. Nobody here is shown a real
 * approval id, so no click may lead to an order.
 */
describe("fuzzing interactions", () => {
  let env: TestBot;
  const tally = new StatusTally();
  const runs: Record<string, number> = {};

  beforeAll(async () => {
    env = await startTestBot();
  });
  afterAll(async () => {
    writeReliabilityResult({
      suite: "fuzz-interactions",
      checks:
        "signed block_actions, block_suggestion and view_closed payloads with random ids, values and views: no 5xx, no crash, no provider write",
      figures: {
        fuzzRuns: tally.runs,
        serverErrors: tally.serverErrors,
        ...Object.fromEntries(Object.entries(runs).map(([k, v]) => [`runs.${k}`, v])),
        ...Object.fromEntries(Object.entries(tally.byStatus).map(([k, v]) => [`status.${k}`, v])),
      },
      settings: { seed: FUZZ_SEED },
    });
    await env?.close();
  });

  const users = fc.constantFrom(STANDIN_IDS.requester, STANDIN_IDS.outsider, STANDIN_IDS.approver);
  const stateValues = fc.dictionary(
    fc.oneof(anyText, fc.constantFrom("b1", "reject_reason", "port_order_dcf")),
    fc.dictionary(anyText, anyStateValue, { maxKeys: 3 }),
    { maxKeys: 3 },
  );
  const view = fc
    .record({
      callback_id: fc.oneof(fc.constantFrom(...VIEW_CALLBACK_IDS), anyText),
      private_metadata: fc.oneof(
        anyText,
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
        fc.constant('{"c":"C0GENERAL1"}'),
      ),
      values: stateValues,
    })
    .map(({ callback_id, private_metadata, values }) => ({
      id: "V0FUZZ0001",
      team_id: STANDIN_IDS.team,
      type: "modal",
      callback_id,
      private_metadata,
      blocks: [],
      state: { values },
      hash: "1.fuzz",
      title: { type: "plain_text", text: "Fuzz" },
      close: null,
      submit: null,
      root_view_id: "V0FUZZ0001",
      previous_view_id: null,
      app_id: STANDIN_IDS.app,
      external_id: "",
      app_installed_team_id: STANDIN_IDS.team,
      bot_id: STANDIN_IDS.bot,
      clear_on_close: false,
      notify_on_close: true,
    }));
  /** Values a button carries: free text, JSON, and the shapes the bot itself puts there. */
  const actionValue = fc.oneof(
    anyText,
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    fc
      .record({ c: anyText, p: fc.integer({ min: -2, max: 1_000_000 }) })
      .map((v) => JSON.stringify(v)),
    fc.constantFrom("apr_0000000000", "approval:1", "ord-1", '{"c":"ports","p":0}'),
  );

  function blockActions(
    userId: string,
    actionId: string,
    value: string,
    selected: unknown,
    inView: false | ReturnType<typeof view.generate>["value"],
  ) {
    const action = {
      type: selected === undefined ? "button" : "static_select",
      action_id: actionId,
      block_id: "fuzz_block",
      action_ts: "1700000000.000001",
      value,
      ...(selected === undefined ? {} : { selected_option: selected }),
    };
    const base = { ...commonFields(env, userId), type: "block_actions", actions: [action] };
    if (inView) return { ...base, container: { type: "view", view_id: inView.id }, view: inView };
    return {
      ...base,
      container: {
        type: "message",
        message_ts: "1700000000.000100",
        channel_id: STANDIN_IDS.general,
        is_ephemeral: false,
      },
      channel: { id: STANDIN_IDS.general, name: "general" },
      message: { type: "message", ts: "1700000000.000100", text: "fuzz", blocks: [] },
      state: { values: {} },
      response_url: env.standin.workspace.createResponseUrl({
        channel: STANDIN_IDS.general,
        userId,
      }),
    };
  }

  async function send(kind: string, payload: object): Promise<void> {
    const ack = await env.slack.sendInteraction(payload);
    tally.add(ack.status);
    runs[kind] = (runs[kind] ?? 0) + 1;
    expect(ack.status, `${kind}: ${JSON.stringify(payload).slice(0, 300)}`).toBeLessThan(500);
  }

  it("answers block_actions on every registered action id with random values", async () => {
    await fc.assert(
      fc.asyncProperty(
        users,
        fc.constantFrom(...ACTION_IDS),
        actionValue,
        fc.option(anyStateValue, { nil: undefined }),
        fc.oneof(fc.constant(false as const), view),
        (userId, actionId, value, selected, inView) =>
          send("block_actions", blockActions(userId, actionId, value, selected, inView)),
      ),
      { seed: FUZZ_SEED, numRuns: 200 },
    );
    await expectStillAnswersHelp(env);
  }, 50_000);

  it("answers block_suggestion for every options load with random text", async () => {
    await fc.assert(
      fc.asyncProperty(users, fc.constantFrom(...OPTIONS_IDS), anyText, view, (u, id, text, v) =>
        send("block_suggestion", {
          ...commonFields(env, u),
          type: "block_suggestion",
          action_id: id,
          block_id: "fuzz_block",
          value: text,
          container: { type: "view", view_id: v.id },
          view: v,
        }),
      ),
      { seed: FUZZ_SEED, numRuns: 100 },
    );
    await expectStillAnswersHelp(env);
  }, 50_000);

  it("answers unknown action ids, view_closed and payloads of unknown types with 4xx", async () => {
    // Nothing listens for these: Bolt answers 404 after 2.9 s, so each run sends a batch at once.
    const stray = fc.oneof(
      fc.tuple(users, anyText, actionValue).map(([u, id, value]) => ({
        kind: "unknown_action",
        payload: blockActions(u, `x${id}`, value, undefined, false),
      })),
      fc.tuple(users, view).map(([u, v]) => ({
        kind: "view_closed",
        payload: { ...commonFields(env, u), type: "view_closed", view: v, is_cleared: false },
      })),
      fc.tuple(users, anyText).map(([u, type]) => ({
        kind: "unknown_type",
        payload: { ...commonFields(env, u), type },
      })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(stray, { minLength: 15, maxLength: 15 }), async (batch) => {
        await Promise.all(batch.map(({ kind, payload }) => send(kind, payload)));
      }),
      { seed: FUZZ_SEED, numRuns: 3 },
    );
    await expectStillAnswersHelp(env);
  }, 50_000);

  it("answers malformed interaction bodies (not JSON, wrong field) with 4xx", async () => {
    const bodies = fc.oneof(
      anyText.map((t) => `payload=${encodeURIComponent(t)}`),
      anyText.map((t) => encodeURIComponent(t)),
      fc.jsonValue({ maxDepth: 3 }).map((v) => `payload=${encodeURIComponent(JSON.stringify(v))}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(bodies, { minLength: 15, maxLength: 15 }), async (batch) => {
        const acks = await Promise.all(batch.map((b) => env.slack.transport.postRaw(b)));
        for (const ack of acks) {
          tally.add(ack.status);
          runs.malformed = (runs.malformed ?? 0) + 1;
          expect(ack.status).toBeLessThan(500);
        }
      }),
      { seed: FUZZ_SEED, numRuns: 2 },
    );
    await expectStillAnswersHelp(env);
  }, 50_000);

  it("bought nothing", () => {
    expect(providerWrites(env)).toEqual([]);
    expect(tally.serverErrors).toBe(0);
  });
});
