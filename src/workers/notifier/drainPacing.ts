import type { OutboxItem } from "../../jobs/index.js";
import type { SendOutcome } from "./slackDelivery.js";

/**
 * What the drainer of a channel does after one Slack call, decided here (pure) and carried
 * out by the drain (drain.ts): how the item leaves the outbox (its marker), what is counted and
 * logged, and how long the channel waits before its next message. Slack allows about one
 * message per second per channel, so every outcome waits at least the channel's pace; a 429
 * waits as long as Slack asks with the message still at the head (a thread's order holds across
 * 429s); transient failures back off, then the message is dropped as `failed`.
 *
 * Kept messages' updates (`render` items) have an outbox of their own (src/jobs/notifier/outbox.ts `outboxOf`),
 * paced by `chat.update`'s limit instead: Slack's Tier 3, about 50 a minute per workspace with
 * bursts tolerated. They go out in bursts of at most `updateBurst` sent together, then the outbox
 * waits `updateIntervalMs` for each update of the burst (`burstWait`): never more than a burst at
 * once, and on average no faster than one per `updateIntervalMs`.
 */

export interface PacingSettings {
  /** Gap between two messages of one channel. */
  intervalMs: number;
  /** A person's Home outbox is paced by its debounce window instead. */
  homeDebounceMs: number;
  /** Kept messages' updates: on average one per this (chat.update's workspace-wide limit). */
  updateIntervalMs: number;
  /** Kept messages' updates sent back to back before their outbox waits. */
  updateBurst: number;
  /** Transient failures of one message before it is dropped. */
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

export interface Pace {
  /** The item's marker as it leaves the outbox; undefined: it stays at the head. */
  marker?: string;
  /** For `job_outcomes_total`. */
  outcome: string;
  /** The drain job's consecutive failures from now on (0 after anything but a retry). */
  failures: number;
  /** How long the channel waits before its next step. */
  delayMs: number;
  log?: { level: "info" | "warn" | "error"; fields: Record<string, unknown>; message: string };
}

export function paceAfter(
  outcome: SendOutcome,
  item: OutboxItem,
  failuresSoFar: number,
  settings: PacingSettings,
): Pace {
  const pace =
    item.op === "home"
      ? settings.homeDebounceMs
      : item.op === "render"
        ? settings.updateIntervalMs
        : settings.intervalMs;
  switch (outcome.kind) {
    case "sent":
      return {
        marker: sentMarker(outcome, item),
        outcome:
          item.op === "post"
            ? "posted"
            : item.op === "home"
              ? "published"
              : item.op === "complete"
                ? "completed"
                : "updated",
        failures: 0,
        delayMs: pace,
      };
    case "rate-limited":
      return {
        outcome: "rate_limited",
        failures: failuresSoFar,
        delayMs: Math.max(outcome.retryAfterMs, pace),
        log: {
          level: "info",
          fields: { retryAfterMs: outcome.retryAfterMs },
          message: "notifier: rate limited",
        },
      };
    case "permanent":
      return {
        marker: `dropped|${outcome.error}`,
        outcome: "dropped",
        failures: 0,
        delayMs: pace,
        log: {
          level: "warn",
          fields: { error: outcome.error },
          message: "notifier: dropped a message Slack refuses",
        },
      };
    case "transient": {
      const failures = failuresSoFar + 1;
      if (failures >= settings.maxAttempts) {
        return {
          marker: `dropped|${outcome.detail.slice(0, 100)}`,
          outcome: "failed",
          failures: 0,
          delayMs: pace,
          log: {
            level: "error",
            fields: { failures, detail: outcome.detail },
            message: "notifier: gave up on a message after repeated failures",
          },
        };
      }
      return {
        outcome: "retry",
        failures,
        delayMs: Math.min(settings.retryBaseMs * 2 ** (failures - 1), settings.retryMaxMs),
        log: {
          level: "warn",
          fields: { failures, detail: outcome.detail },
          message: "notifier: Slack call failed; will retry",
        },
      };
    }
  }
}

/**
 * How long the kept messages' updates wait after a burst (the paces of its updates): the
 * burst's share of chat.update's rate, `updateIntervalMs` per update; longer when one of them
 * stays queued (a 429: as long as Slack asks; a transient failure: its backoff).
 */
export function burstWait(paces: readonly Pace[], settings: PacingSettings): number {
  const share = paces.length * settings.updateIntervalMs;
  const held = paces.filter((pace) => pace.marker === undefined).map((pace) => pace.delayMs);
  return Math.max(share, ...held);
}

/**
 * A sent item's marker: `sent|<ts>`, and `|<channel>` for a post that asked to keep where Slack
 * put it (`kc`: a card posted to a user id is in a D… channel its updates must name). Only such
 * posts carry it: older replicas read `sent|<ts>` of every key they know.
 */
function sentMarker(outcome: { ts?: string; channel?: string }, item: OutboxItem): string {
  const ts = outcome.ts ?? "";
  return item.kc && outcome.channel ? `sent|${ts}|${outcome.channel}` : `sent|${ts}`;
}
