/**
 * Failures the stand-in can be told to produce: the next N calls of a method answered with
 * HTTP 429 + Retry-After, another HTTP status, or `ok:false` with an error code; and Slack's
 * per-channel message rate limit ("about one message per second per channel"), for benchmarks
 * and notification back-pressure tests.
 */

export interface FaultSpec {
  /** How many of the next calls fail (1 by default). */
  count?: number;
  /** HTTP status to answer with: 429 sends `Retry-After`; any other status a bare error. */
  status?: number;
  /** With status 429: the `Retry-After` header, in seconds (1 by default). */
  retryAfterSeconds?: number;
  /** Answer HTTP 200 with `{ok:false, error}` (Slack's ordinary failure). */
  error?: string;
  /** Wait this long before answering (a slow Slack; WebClient `timeout` tests). */
  delayMs?: number;
}

export interface Fault {
  status: number;
  retryAfterSeconds?: number;
  error: string;
  delayMs: number;
}

export class FaultPlan {
  private readonly pending = new Map<string, Fault[]>();

  failNext(method: string, spec: FaultSpec): void {
    const count = spec.count ?? 1;
    if (!Number.isInteger(count) || count < 1)
      throw new Error("failNext: count must be a positive integer");
    const status = spec.status ?? (spec.error !== undefined ? 200 : 429);
    const fault: Fault = {
      status,
      error: spec.error ?? (status === 429 ? "ratelimited" : "internal_error"),
      delayMs: spec.delayMs ?? 0,
      ...(status === 429 ? { retryAfterSeconds: spec.retryAfterSeconds ?? 1 } : {}),
    };
    const queue = this.pending.get(method) ?? [];
    for (let i = 0; i < count; i += 1) queue.push(fault);
    this.pending.set(method, queue);
  }

  /** The fault for this call of `method`, if one is queued (consumed). */
  take(method: string): Fault | undefined {
    const queue = this.pending.get(method);
    const fault = queue?.shift();
    if (queue && queue.length === 0) this.pending.delete(method);
    return fault;
  }

  clear(): void {
    this.pending.clear();
  }
}

export interface RateLimitOptions {
  /** Messages a channel takes per second before chat.postMessage answers 429. */
  messagesPerSecondPerChannel?: number;
}

/** A sliding one-second window per channel. */
export class ChannelRateLimiter {
  private readonly sent = new Map<string, number[]>();

  constructor(private limit: number | undefined) {}

  setLimit(limit: number | undefined): void {
    this.limit = limit;
    this.sent.clear();
  }

  /** Seconds to wait when the channel is over its limit now, else undefined (and the send counts). */
  check(channel: string, now = Date.now()): number | undefined {
    if (this.limit === undefined) return undefined;
    const recent = (this.sent.get(channel) ?? []).filter((at) => now - at < 1000);
    if (recent.length >= this.limit) {
      this.sent.set(channel, recent);
      const oldest = recent[0] ?? now;
      return Math.max(1, Math.ceil((oldest + 1000 - now) / 1000));
    }
    recent.push(now);
    this.sent.set(channel, recent);
    return undefined;
  }
}
