import { DeadlineExceededError } from "./errors.js";

/**
 * The one bounded wait (issue 29: seven hand-written `Promise.race` timeouts became this).
 * Slack waits 3 s for an ack (src/domain/slackBudget.ts), shutdowns are bounded, a Redis check
 * must not hang a request: each waits with `within` (a fallback value) or `withDeadline` (an
 * aborted call and DeadlineExceededError). Pure: timers only, no I/O.
 */

/**
 * `work`'s value if it settles within `ms`, else `onTimeout()` (whose throw rejects). `work`
 * itself goes on; only the wait ends. The timer is always cleared.
 */
export async function within<T, F>(
  work: Promise<T>,
  ms: number,
  onTimeout: () => F,
): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<F>((resolve, reject) => {
    timer = setTimeout(
      () => {
        try {
          resolve(onTimeout());
        } catch (error) {
          reject(error);
        }
      },
      Math.max(0, ms),
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs a call that must answer within `ms`: past it the call is aborted (through its signal)
 * and DeadlineExceededError (code `timeout`) thrown. A call that ignores the signal (a shared,
 * cached load) goes on; only the wait ends.
 */
export async function withDeadline<T>(
  ms: number,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  return within(call(controller.signal), ms, (): never => {
    controller.abort();
    throw new DeadlineExceededError(ms);
  });
}
