/**
 * The one bounded wait for a provider call: Slack waits 3 s for an options load or a modal
 * submission's ack, so every use case that must answer within a deadline uses this (pricing,
 * port orders, Layer 2, IO-D, Edge, help's examples) rather than its own timer.
 */

/** Raised when a bounded provider call did not answer in time. */
export class DeadlineExceededError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "DeadlineExceededError";
  }
}

/**
 * Runs a provider call that must answer within `ms`: the call is aborted (through its signal)
 * and DeadlineExceededError thrown after that. A call that ignores the signal (a shared, cached
 * load) goes on; only the wait ends.
 */
export async function withDeadline<T>(
  ms: number,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new DeadlineExceededError(ms));
    }, ms);
  });
  try {
    return await Promise.race([call(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
