/**
 * Polls `condition` until it returns a value other than `undefined`/`false`, or the deadline
 * passes. For state that emits no event (a Redis key, a file); where an event exists, await it.
 */
export interface WaitForOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Says what was awaited, for the timeout message. */
  description?: string;
}

export async function waitFor<T>(
  condition: () => T | false | undefined | Promise<T | false | undefined>,
  options: WaitForOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const intervalMs = options.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value !== undefined && value !== false) return value;
      lastError = undefined;
    } catch (error) {
      // A condition that throws (e.g. reading something not there yet) counts as "not yet".
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const what = options.description ?? "condition";
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : "";
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
