/**
 * Waiting for something the stand-in records: look at what is already there first, then
 * resolve on the first matching event; on timeout, reject with what was seen, so a failing test
 * says "expected a chat.update in C0APPROVALS, saw: chat.postMessage …" instead of "timed out".
 */

export interface WaitOptions {
  timeoutMs?: number;
}

export const DEFAULT_WAIT_MS = 5_000;

export interface Subscription<T> {
  subscribe(listener: (item: T) => void): () => void;
}

/** A predicate that throws (e.g. reads a field another item lacks) means "not this one". */
function safely<T>(predicate: (item: T) => boolean): (item: T) => boolean {
  return (item) => {
    try {
      return predicate(item);
    } catch {
      return false;
    }
  };
}

export function waitForMatch<T>(input: {
  existing: () => readonly T[];
  source: Subscription<T>;
  predicate: (item: T) => boolean;
  timeoutMs?: number;
  /** What was awaited, for the timeout message. */
  what: string;
  /** What was seen instead, one line per item. */
  seen: () => string[];
}): Promise<T> {
  const matches = safely(input.predicate);
  const already = input.existing().find(matches);
  if (already !== undefined) return Promise.resolve(already);
  const timeoutMs = input.timeoutMs ?? DEFAULT_WAIT_MS;
  return new Promise<T>((resolve, reject) => {
    const unsubscribe = input.source.subscribe((item) => {
      if (!matches(item)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(item);
    });
    const timer = setTimeout(() => {
      unsubscribe();
      const seen = input.seen();
      const list = seen.length > 0 ? `\n  ${seen.slice(-20).join("\n  ")}` : " nothing";
      reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${input.what}; saw${list}`));
    }, timeoutMs);
  });
}

/** A short one-line rendering of a value for timeout messages. */
export function brief(value: unknown, max = 160): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
