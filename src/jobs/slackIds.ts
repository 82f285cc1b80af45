/**
 * The Slack identifiers the job layer accepts from its callers, checked before anything is
 * written: they end up in Redis keys, job ids and Slack calls made weeks later by a worker, so
 * a bad one is refused at the door (TrackInputError, NotifierInputError) rather than found then.
 */

/** A channel, DM or user id (a person's DM is addressed by the user id). */
export const CHANNEL_ID = /^[A-Za-z0-9]{1,40}$/;

/** A message's ts (seconds, optionally with microseconds). */
export const MESSAGE_TS = /^\d{1,12}(\.\d{1,9})?$/;
