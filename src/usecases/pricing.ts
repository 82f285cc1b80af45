// The deadline of provider calls Slack waits for (options loads, submissions, prefills). What
// pricing was is in src/usecases/pricing/ and the helpers other use cases share in
// src/usecases/shared/; this pair moves to src/usecases/shared/deadline.ts with the Edge split.

/** Raised when a bounded provider call did not answer in time. */
export class DeadlineExceededError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "DeadlineExceededError";
  }
}

/**
 * Runs a provider call that must answer within `ms` (Slack waits 3 s for an options load or a
 * modal submission's ack): the call is aborted and DeadlineExceededError thrown after that.
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
