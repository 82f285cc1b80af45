/**
 * "Now" for the provider's timestamps ("created 3 days ago"): the sandbox's clock in sandbox
 * mode, which the playground moves forward, so an order placed a minute ago never reads
 * "created in 2 months". Times the bot records itself (tracking started, next check) are
 * measured on real time.
 */
export interface Clock {
  now(): Date;
}

/** Real time: the provider's clock when it is a real provider. */
export const systemClock: Clock = { now: () => new Date() };
