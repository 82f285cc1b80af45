import fc from "fast-check";
import { expect } from "vitest";
import { STANDIN_IDS, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";

/** One seed for every fuzz suite: a failure names its seed and path, and replays exactly. */
export const FUZZ_SEED = 20_261_122;

/** Provider operations that buy something: none may run without an approver's click. */
export const PROVIDER_WRITES = [
  "createPortOrder",
  "createLayer2Connection",
  "createGiaService",
  "createEdgePortOrder",
] as const;

/** Provider write calls the sandbox saw (its request log is in-process). */
export function providerWrites(env: TestBot): string[] {
  const writes: readonly string[] = PROVIDER_WRITES;
  return env.bot
    .sandbox!.state.requestLog.filter((e) => e.operationId && writes.includes(e.operationId))
    .map((e) => `${e.method} ${e.path}`);
}

/** The person the fuzzer acts as: a requester, not an approver. */
export const FUZZ_USER = STANDIN_IDS.requester;

export function userField(userId: string = FUZZ_USER) {
  return { id: userId, username: "fuzz", name: "fuzz", team_id: STANDIN_IDS.team };
}

export const TEAM_FIELD = { id: STANDIN_IDS.team, domain: "standin" };

/** Fields every interaction payload repeats. */
export function commonFields(env: TestBot, userId: string = FUZZ_USER) {
  return {
    user: userField(userId),
    team: TEAM_FIELD,
    api_app_id: STANDIN_IDS.app,
    token: "standin-verification-token",
    is_enterprise_install: false,
    trigger_id: env.standin.workspace.issueTrigger(userId),
  };
}

/** Text of every kind a person (or a broken client) can send. */
export const anyText = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.string({ unit: "grapheme", maxLength: 120 }),
  fc.string({ unit: "binary", maxLength: 120 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "<!channel>",
    "<@U0APPROVE1>",
    "*bold* `code` ~x~",
    "'; DROP TABLE orders; --",
    "{{constructor.prototype}}",
    "__proto__",
    "../../etc/passwd",
    "%00%ff",
    "\u202e\u200b\ufeff",
    "9".repeat(400),
    "-1",
    "1e309",
    "NaN",
  ),
);

/** A value in a view's state, of the element's type or not (a client may send anything). */
export const anyStateValue: fc.Arbitrary<unknown> = fc.oneof(
  anyText.map((value) => ({ type: "plain_text_input", value })),
  anyText.map((value) => ({ type: "number_input", value })),
  anyText.map((value) => ({
    type: "static_select",
    selected_option: { text: { type: "plain_text", text: "x" }, value },
  })),
  anyText.map((value) => ({
    type: "external_select",
    selected_option: { text: { type: "plain_text", text: "x" }, value },
  })),
  anyText.map((value) => ({
    type: "radio_buttons",
    selected_option: { text: { type: "plain_text", text: "x" }, value },
  })),
  fc.array(anyText, { maxLength: 3 }).map((values) => ({
    type: "checkboxes",
    selected_options: values.map((value) => ({ text: { type: "plain_text", text: "x" }, value })),
  })),
  anyText.map((selected_date) => ({ type: "datepicker", selected_date })),
  fc.constant({ type: "static_select", selected_option: null }),
  fc.constant({ type: "plain_text_input", value: null }),
  fc.constant({}),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Waits until the bot still answers `/connect help` with the help text: it did not crash or hang. */
export async function expectStillAnswersHelp(env: TestBot): Promise<void> {
  const helpReplies = () =>
    env.standin
      .calls("response_url")
      .filter((c) => JSON.stringify(c.args).includes("Commands: /connect help")).length;
  const before = helpReplies();
  const ack = await env.connect("help");
  expect(ack.status).toBe(200);
  await waitFor(() => helpReplies() > before, {
    timeoutMs: 10_000,
    description: "the answer to /connect help",
  });
}

/** Tally of answers by HTTP status. */
export class StatusTally {
  readonly byStatus: Record<string, number> = {};
  runs = 0;

  add(status: number): void {
    this.runs++;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
  }

  get serverErrors(): number {
    return Object.entries(this.byStatus)
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [, n]) => sum + n, 0);
  }
}
