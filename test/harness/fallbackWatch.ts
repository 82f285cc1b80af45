import { type SlackStandin, STANDIN_IDS } from "../../src/standin/index.js";
import { type CardDisagreement, cardDisagreements } from "../support/cardAgreement.js";
import { type FallbackProblem, fallbackProblem } from "../support/fallbackText.js";
import { type SandboxLabelProblem, sandboxLabelProblem } from "../support/sandboxLabel.js";
import { waitFor } from "./waitFor.js";

/**
 * The stand-ins whose recorded messages are checked after each test (by the setup file
 * test/support/fallbackTextSetup.ts), failing the test during which a bad message was sent:
 * - a message whose fallback text holds words its blocks lack;
 * - from a bot running against the sandbox, a message or view without the sandbox label;
 * - a request whose card, someone's App Home or the requester's last state DM and approval
 *   message disagree on the last state once the bot's notifier is idle (issues 24 and 29).
 * `startTestBot` watches its stand-in and its bot; a test that starts a stand-in itself calls
 * `watchFallbackText`.
 */
interface Watched {
  /** How many recorded calls were looked at already. */
  seen: number;
  /** The bot talks to the provider sandbox: every message must carry the label. */
  sandbox: boolean;
  /** Messages waiting in the bot's notifier; undefined once the bot is closed (or not ours). */
  waiting?: () => Promise<number>;
  /** Disagreements found when the bot closed, reported at the next look. */
  found: CardDisagreement[];
  /** Disagreements reported already: a card left behind fails the test that left it, once. */
  reported: Set<string>;
}

const watched = new Map<SlackStandin, Watched>();

export function watchFallbackText(standin: SlackStandin): void {
  if (!watched.has(standin))
    watched.set(standin, { seen: 0, sandbox: false, found: [], reported: new Set() });
}

/** Watches the stand-in of a bot started by the harness, with what the other checks need. */
export function watchBot(
  standin: SlackStandin,
  bot: { sandbox: boolean; waiting: () => Promise<number> },
): void {
  watched.set(standin, {
    seen: 0,
    sandbox: bot.sandbox,
    waiting: bot.waiting,
    found: [],
    reported: new Set(),
  });
}

/** Stops watching one stand-in (the checks' own tests, once they have taken what they planted). */
export function unwatch(standin: SlackStandin): void {
  watched.delete(standin);
}

export interface RecordedProblems {
  fallback: FallbackProblem[];
  sandboxLabel: SandboxLabelProblem[];
}

/** Every problem among the calls recorded since the last look; each call is looked at once. */
export function takeRecordedProblems(): RecordedProblems {
  const problems: RecordedProblems = { fallback: [], sandboxLabel: [] };
  for (const [standin, entry] of watched) {
    const calls = standin.calls();
    // clearCalls() empties the record: start again from its beginning.
    const from = calls.length < entry.seen ? 0 : entry.seen;
    for (const call of calls.slice(from)) {
      if (!call.ok) continue; // Slack refused it: nobody saw it.
      const fallback = fallbackProblem(call);
      if (fallback) problems.fallback.push(fallback);
      const label = entry.sandbox ? sandboxLabelProblem(call) : undefined;
      if (label) problems.sandboxLabel.push(label);
    }
    entry.seen = calls.length;
  }
  return problems;
}

/** Kept for the fallback check's own test. */
export function takeFallbackProblems(): FallbackProblem[] {
  return takeRecordedProblems().fallback;
}

/** How long the notifier may take to drain and the two messages to agree (tests shorten it). */
let agreementTimeoutMs = 10_000;

export function setAgreementTimeout(ms: number): void {
  agreementTimeoutMs = ms;
}

/**
 * Waits until the bot's notifier is idle and every card, App Home and requester's last state DM
 * agrees with its approval message; the disagreements still there when the wait gives up. Card
 * and approval updates and DMs go through the notifier, so they are only compared once nothing
 * waits in it.
 */
async function settledDisagreements(
  standin: SlackStandin,
  waiting: () => Promise<number>,
): Promise<CardDisagreement[]> {
  let last: CardDisagreement[] = [];
  try {
    await waitFor(
      async () => {
        // A bot whose Redis is gone (stopped, or a fault test) cannot be asked: no comparison.
        const queued = await waiting().catch(() => 0);
        if (queued > 0) return false;
        last = cardDisagreements(standin.workspace.allMessages(), publishedHomes(standin));
        return last.length === 0;
      },
      {
        timeoutMs: agreementTimeoutMs,
        description: "cards, Homes and DMs to agree with approval messages",
      },
    );
    return [];
  } catch {
    return last;
  }
}

/** The App Home each of the stand-in's people was last shown. */
function publishedHomes(standin: SlackStandin) {
  return Object.values(STANDIN_IDS)
    .filter((id) => /^[UW]/.test(id))
    .map((userId) => ({ userId, blocks: standin.workspace.homeView(userId)?.view.blocks }))
    .filter((home) => home.blocks !== undefined);
}

/** Called by the harness before it stops a bot: the last look while the notifier still runs. */
export async function checkBeforeClose(standin: SlackStandin): Promise<void> {
  const entry = watched.get(standin);
  if (!entry?.waiting) return;
  entry.found.push(...unreported(entry, await settledDisagreements(standin, entry.waiting)));
  delete entry.waiting;
}

function unreported(entry: Watched, found: CardDisagreement[]): CardDisagreement[] {
  return found.filter((problem) => {
    const key = `${problem.where ?? "card"} ${problem.requestId} ${problem.cardState} ${problem.approvalState}`;
    if (entry.reported.has(key)) return false;
    entry.reported.add(key);
    return true;
  });
}

/** Cards, Homes and DMs that disagree with their approval message, for every watched bot (running or closed). */
export async function takeDisagreements(): Promise<CardDisagreement[]> {
  const problems: CardDisagreement[] = [];
  for (const [standin, entry] of watched) {
    if (entry.waiting) {
      problems.push(...unreported(entry, await settledDisagreements(standin, entry.waiting)));
    }
    problems.push(...entry.found.splice(0));
  }
  return problems;
}

/** Stops watching every stand-in (after a test file, once the last look is taken). */
export function forgetWatchedStandins(): void {
  watched.clear();
}
