import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/domain/commands.js";
import { writeReliabilityResult } from "../faults/reliabilityResults.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import {
  anyText,
  expectStillAnswersHelp,
  FUZZ_SEED,
  FUZZ_USER,
  providerWrites,
  StatusTally,
} from "./support.js";

/**
 * Slash commands with hostile text, properly signed, sent to the running bot: it answers every
 * one with 200/4xx (never 5xx), keeps answering, and never buys anything.
 */
describe("fuzzing /connect", () => {
  let env: TestBot;
  const tally = new StatusTally();
  const runs: Record<string, number> = {};
  let supersededModals = 0;

  beforeAll(async () => {
    env = await startTestBot();
  });
  afterAll(async () => {
    writeReliabilityResult({
      suite: "fuzz-commands",
      checks:
        "signed /connect commands with random, unicode-heavy, huge (up to 1 MB) and truncated bodies: no 5xx, no crash, no provider write",
      figures: {
        fuzzRuns: tally.runs,
        serverErrors: tally.serverErrors,
        supersededModalErrors: supersededModals,
        ...Object.fromEntries(Object.entries(runs).map(([k, v]) => [`runs.${k}`, v])),
        ...Object.fromEntries(Object.entries(tally.byStatus).map(([k, v]) => [`status.${k}`, v])),
      },
      settings: { seed: FUZZ_SEED },
    });
    await env?.close();
  });

  async function send(kind: string, text: string): Promise<void> {
    const ack = await env.slack.command(FUZZ_USER, STANDIN_IDS.general, "/connect", text);
    tally.add(ack.status);
    runs[kind] = (runs[kind] ?? 0) + 1;
    expect(ack.status, `/connect ${JSON.stringify(text.slice(0, 80))}`).toBeLessThan(500);
  }

  const subcommands = COMMANDS.map((c) => c.path.join(" "));

  it("answers random and unicode-heavy text", async () => {
    await fc.assert(
      fc.asyncProperty(anyText, (text) => send("random", text)),
      { seed: FUZZ_SEED, numRuns: 120 },
    );
    await expectStillAnswersHelp(env);
  });

  it("answers every subcommand with random arguments", async () => {
    const line = fc
      .tuple(
        fc.constantFrom(...subcommands),
        fc.array(anyText, { maxLength: 4 }),
        fc.constantFrom(" ", "  ", "\t", "\n"),
      )
      .map(([name, args, sep]) => [name, ...args].join(sep));
    await fc.assert(
      fc.asyncProperty(line, (text) => send("subcommand", text)),
      { seed: FUZZ_SEED, numRuns: 150 },
    );
    await expectStillAnswersHelp(env);
  });

  it("answers huge text, up to 1 MB", async () => {
    const huge = fc
      .tuple(
        fc.constantFrom(...subcommands, ""),
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }),
        fc.integer({ min: 4_000, max: 1_000_000 }),
      )
      .map(([name, chunk, size]) => {
        // Up to 1 MB of UTF-8, whatever the characters.
        const bytes = Buffer.byteLength(chunk);
        return `${name} ${chunk.repeat(Math.max(1, Math.floor(size / bytes)))}`;
      });
    await fc.assert(
      fc.asyncProperty(huge, (text) => send("huge", text)),
      // The whole megabyte at least once, in two-byte characters.
      { seed: FUZZ_SEED, numRuns: 5, examples: [[`dcf ${"é".repeat(500_000)}`]] },
    );
    await expectStillAnswersHelp(env);
  }, 50_000);

  it("answers truncated form bodies", async () => {
    const full = (text: string) =>
      new URLSearchParams({
        token: "standin-verification-token",
        team_id: STANDIN_IDS.team,
        channel_id: STANDIN_IDS.general,
        user_id: FUZZ_USER,
        command: "/connect",
        text,
        response_url: env.standin.workspace.createResponseUrl({
          channel: STANDIN_IDS.general,
          userId: FUZZ_USER,
        }),
        trigger_id: env.standin.workspace.issueTrigger(FUZZ_USER),
      }).toString();
    // Cuts can be identical (an empty body, a cut inside the first fields): each send gets a
    // timestamp of its own (a second apart, going back), so no two carry the same signature,
    // as no two of Slack's deliveries do; the app would refuse the second as a replay (that is
    // tested in test/security/requestGuard.test.ts, not fuzzed here).
    const signedAt = Math.floor(Date.now() / 1000);
    let sent = 0;
    // A body cut before `command=` reaches no listener: Bolt answers 404 only after its
    // 2.9-second timeout, so each run sends its cuts at once.
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom(...subcommands),
            anyText,
            fc.double({ min: 0, max: 1, noNaN: true }),
          ),
          { minLength: 12, maxLength: 12 },
        ),
        async (cases) => {
          const acks = await Promise.all(
            cases.map(([name, args, cut]) => {
              const body = full(`${name} ${args}`);
              return env.slack.transport.postRaw(body.slice(0, Math.floor(body.length * cut)), {
                timestamp: signedAt - sent++,
              });
            }),
          );
          for (const ack of acks) {
            tally.add(ack.status);
            runs.truncated = (runs.truncated ?? 0) + 1;
            expect(ack.status).toBeLessThan(500);
          }
        },
      ),
      { seed: FUZZ_SEED, numRuns: 4 },
    );
    await expectStillAnswersHelp(env);
  }, 50_000);

  it("bought nothing and hit no unexpected error", () => {
    expect(providerWrites(env)).toEqual([]);
    expect(tally.serverErrors).toBe(0);
    // "errored" is the router's word for a failure it did not expect. The one known kind: a
    // modal's loading view replaced by the next command's modal before it was filled in
    // (views.update answers not_found); the person sees "Something went wrong".
    const failures = env.logLines
      .filter((l) => l.includes('"msg":"command failed"') && l.includes('"level":50'))
      .map((l) => JSON.parse(l) as { err?: { data?: { error?: string } }; command?: string });
    const unexpected = failures.filter((f) => f.err?.data?.error !== "not_found");
    supersededModals = failures.length - unexpected.length;
    expect(unexpected.slice(0, 3)).toEqual([]);
  });
});
