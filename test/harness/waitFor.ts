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

export interface WaitWhileProgressingOptions {
  /** Give up once the progress has not changed for this long. */
  idleMs: number;
  /** A safety bound on the whole wait, however long progress goes on. */
  timeoutMs: number;
  intervalMs?: number;
  description?: string;
}

/**
 * Polls `done` until it holds, for as long as `progress` keeps changing. For work whose length
 * grows with its size (hundreds of placements told through one paced channel): a fixed timeout
 * either waits for nothing or cuts off work that is still moving, while "no change for
 * `idleMs`" is what "stuck" means. Rejects when progress stops (or the bound passes) first.
 */
export async function waitWhileProgressing(
  done: () => boolean | Promise<boolean>,
  progress: () => string | Promise<string>,
  options: WaitWhileProgressingOptions,
): Promise<void> {
  const intervalMs = options.intervalMs ?? 250;
  const deadline = Date.now() + options.timeoutMs;
  let last = await progress();
  let changedAt = Date.now();
  for (;;) {
    if (await done()) return;
    const now = await progress();
    if (now !== last) {
      last = now;
      changedAt = Date.now();
    }
    const what = options.description ?? "condition";
    if (Date.now() - changedAt >= options.idleMs) {
      throw new Error(`No progress for ${options.idleMs} ms waiting for ${what} (at ${last})`);
    }
    if (Date.now() >= deadline) {
      throw new Error(`Timed out after ${options.timeoutMs} ms waiting for ${what} (at ${last})`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Whether `event` happens within `ms` (a kill suite's bound on a child's line, say). */
export async function within(event: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([event.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
