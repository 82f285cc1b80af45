// Issue 29: how long each approval message (and card) stayed behind its record, for the fault
// suites that let many requests change at once (a Redis outage, a crash suite's mass
// settlement). The figures go to docs/RELIABILITY.md through bench/reliability-report.ts.
import { setTimeout as sleep } from "node:timers/promises";
import type { ApprovalStore } from "../../src/approvals/index.js";
import type { SlackStandin } from "../../src/standin/index.js";
import type { OrderedApproval } from "./placementTally.js";

/** One message's (or card's) lag: from its record's last change to first showing it. */
export interface MessageLag {
  what: string;
  /** Undefined: the message never showed its record's final state. */
  lagMs: number | undefined;
  /**
   * The lag counted from the change, or from when the settling began if that was later: a
   * change made by a process SIGKILLed before it could send it waits for a live one, so only
   * the time after a process was left alive to settle is the system's (issue 29: "after a mass
   * settlement"). Equal to `lagMs` where no settling start was given.
   */
  lagSinceSettlingMs: number | undefined;
}

/** What is watched: the bot's approvals store (it may be down: a failed read is "not yet"). */
export interface LagSources {
  store: Pick<ApprovalStore, "get">;
  standin: Pick<SlackStandin, "messages">;
}

/**
 * Samples, every 100 ms, each approval message's (and card's) state key against its record's:
 * when the record's state changed last (its history) and when the message first showed it.
 * The sampling is the measurement (a lag is only seen by looking), not a wait for an event.
 */
export function watchMessageLag(sources: LagSources, list: readonly OrderedApproval[]) {
  const { store, standin } = sources;
  const caughtUp = new Map<string, { key: string; at: number }>();
  const sample = async () => {
    for (const approval of list) {
      const record = await store.get(approval.id).catch(() => null);
      if (!record) continue;
      const key = record.status === "placed" ? "placed" : record.status;
      const places = [
        [record.slack.approvalChannel, record.slack.approvalTs, "message"],
        [record.slack.cardChannel, record.slack.cardTs, "card"],
      ] as const;
      for (const [channel, ts, what] of places) {
        if (!channel || !ts) continue;
        const shown = (
          standin.messages(channel).find((m) => m.ts === ts)?.blocks as
            | Array<{ block_id?: string }>
            | undefined
        )
          ?.map((b) => b.block_id)
          .find((id) => id?.startsWith("state_"))
          ?.slice("state_".length);
        const id = `${approval.portName} ${what}`;
        const shownKey = shown?.startsWith("placed") ? "placed" : shown;
        if (shownKey === key) {
          if (caughtUp.get(id)?.key !== key) caughtUp.set(id, { key, at: Date.now() });
        } else caughtUp.delete(id);
      }
    }
  };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await sample();
      await sleep(100);
    }
  })();
  return {
    /**
     * Stops sampling (after a last look) and gives each message's lag behind its record;
     * `settlingFrom` is when the process left alive to settle everything started (ms epoch).
     */
    async stop(settlingFrom = 0): Promise<MessageLag[]> {
      stopped = true;
      await loop;
      await sample();
      const out: MessageLag[] = [];
      for (const approval of list) {
        const record = await store.get(approval.id);
        if (!record) continue;
        const changedAt = Date.parse(record.history.at(-1)?.at ?? record.updatedAt);
        for (const [ts, what] of [
          [record.slack.approvalTs, "message"],
          [record.slack.cardTs, "card"],
        ] as const) {
          if (!ts) continue;
          const seen = caughtUp.get(`${approval.portName} ${what}`);
          out.push({
            what: `${approval.portName} ${what}`,
            lagMs: seen ? Math.max(0, seen.at - changedAt) : undefined,
            lagSinceSettlingMs: seen
              ? Math.max(0, seen.at - Math.max(changedAt, settlingFrom))
              : undefined,
          });
        }
      }
      return out;
    },
  };
}

/** The figures docs/RELIABILITY.md reports: messages behind their record after 10 s, and so on. */
export function messageLagFigures(lags: readonly MessageLag[]) {
  return {
    messagesChecked: lags.length,
    messagesBehindAfter10s: lags.filter((l) => l.lagMs === undefined || l.lagMs > 10_000).length,
    messagesBehind10sIntoSettling: lags.filter(
      (l) => l.lagSinceSettlingMs === undefined || l.lagSinceSettlingMs > 10_000,
    ).length,
    messagesNeverCaughtUp: lags.filter((l) => l.lagMs === undefined).length,
    maxMessageLagMs: Math.max(0, ...lags.map((l) => l.lagMs ?? 0)),
    maxLagIntoSettlingMs: Math.max(0, ...lags.map((l) => l.lagSinceSettlingMs ?? 0)),
  };
}

/** The messages that never showed their record's final state (what the suites assert). */
export function neverCaughtUp(lags: readonly MessageLag[]): string[] {
  return lags.filter((l) => l.lagMs === undefined).map((l) => l.what);
}
