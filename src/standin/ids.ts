import { randomBytes, randomInt } from "node:crypto";

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A Slack-looking id: a type letter (V view, C channel, D DM, …) then upper-case alphanumerics. */
export function slackId(prefix: string, length = 10): string {
  let id = prefix;
  for (const byte of randomBytes(length)) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

/** Slack's trigger ids look like `1700000000123.1234567890.0123456789abcdef0123456789abcdef`. */
export function triggerId(): string {
  const digits = String(randomInt(1_000_000_000, 9_999_999_999));
  return `${Date.now()}.${digits}.${randomBytes(16).toString("hex")}`;
}

/**
 * Message timestamps (`1700000000.000100`): Slack's message ids are unique per channel and
 * increase with time; strictly increasing here across the whole workspace so that tests can
 * order messages by ts even when several are posted within one microsecond.
 */
export class MessageClock {
  private lastMicros = 0n;

  next(): string {
    const now = BigInt(Date.now()) * 1000n;
    this.lastMicros = now > this.lastMicros ? now : this.lastMicros + 1n;
    const seconds = this.lastMicros / 1_000_000n;
    const micros = this.lastMicros % 1_000_000n;
    return `${seconds}.${micros.toString().padStart(6, "0")}`;
  }
}

/** A hash like the one Slack returns with each view version (`1700000000.AbCdEf12`). */
export function viewHash(): string {
  return `${Math.floor(Date.now() / 1000)}.${randomBytes(6).toString("base64url")}`;
}

/** The random block_id / action_id Slack assigns when the app gives none. */
export function generatedElementId(): string {
  return randomBytes(3).toString("base64url").replace(/[-_]/g, "x");
}
