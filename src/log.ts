import { Writable } from "node:stream";
import { type Logger, pino } from "pino";

export type { Logger };

/** Key paths whose values are secrets wherever they appear in a log record. */
const REDACTED_PATHS = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "*.headers.Authorization",
  "token",
  "*.token",
  "apiKey",
  "*.apiKey",
  "botToken",
  "*.botToken",
  "appToken",
  "*.appToken",
  "signingSecret",
  "*.signingSecret",
  "bgpKey",
  "*.bgpKey",
];

export const REDACTION_MARK = "[REDACTED]";

/** Replaces every occurrence of each known secret value in `text`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Short values would mangle ordinary text and are not credentials anyway.
    if (secret.length >= 8) out = out.split(secret).join(REDACTION_MARK);
  }
  return out;
}

export interface LoggerOptions {
  level?: string;
  /** Secret values (API key, tokens) that must never reach the output, whatever their key. */
  secrets?: readonly string[];
  /** Where JSON lines go; stdout by default. Tests pass a collector. */
  destination?: NodeJS.WritableStream;
}

/**
 * One structured JSON logger for the whole process (Bolt logs through it too).
 * Redaction works twice: by key path (pino's redact) and by value (every line is scrubbed of
 * the configured secrets), so a secret pasted into a message or an error text is caught too.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const target = options.destination ?? process.stdout;
  const secrets = (options.secrets ?? []).filter((s) => s.length > 0);
  const scrubbing = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      target.write(scrubSecrets(chunk.toString(), secrets));
      callback();
    },
  });
  return pino(
    {
      level: options.level ?? "info",
      redact: { paths: REDACTED_PATHS, censor: REDACTION_MARK },
      base: { service: "connect-bot" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    scrubbing,
  );
}
