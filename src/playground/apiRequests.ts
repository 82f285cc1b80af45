import { z } from "zod";
import { faultBody } from "./sandboxFaults.js";
import { MAX_ADVANCE_MS } from "./sandboxTime.js";

/**
 * What the playground's JSON API accepts (a zod schema per request, ids in Slack's shapes, sizes
 * in Slack's limits) and how it refuses: a bad request (`RequestProblem`, answered with its
 * status) or a value a field refuses (`FieldProblem`, answered 200 with `fieldErrors`). Apart
 * from the API's actions (api.ts) so that those read as what a person does.
 */

const userId = z.string().regex(/^[UW][A-Z0-9]{2,20}$/, "a Slack user id (U…)");
const channelId = z.string().regex(/^[CDG][A-Z0-9]{2,20}$/, "a Slack channel id (C…, D…)");
const messageTs = z.string().regex(/^\d{1,12}\.\d{1,8}$/, "a message ts");
const viewId = z.string().regex(/^V[A-Z0-9]{2,30}$/, "a view id (V…)");
// Slack's own limit for block_id and action_id.
const elementId = z.string().min(1).max(255);

/** What a person gives an element: text, an option's value, several values, or a typed query. */
const fieldInput = z.union([
  z.string().max(3000),
  z.number().finite(),
  z.array(z.string().max(2000)).max(100),
  z.object({ query: z.string().max(200), pick: z.string().max(2000).optional() }),
]);

export const stateQuery = z.object({
  user: userId,
  since: z.coerce.number().int().min(0).optional(),
});

export const commandBody = z.object({
  user: userId,
  channel: channelId,
  /** The line as typed: `/connect price port`. */
  text: z.string().trim().min(1).max(4000),
});

export const messageBody = z.object({
  user: userId,
  channel: channelId,
  // Slack's msg_too_long limit.
  text: z.string().trim().min(1).max(40_000),
  threadTs: messageTs.optional(),
});

export const clickBody = z
  .object({
    user: userId,
    channel: channelId.optional(),
    ts: messageTs.optional(),
    viewId: viewId.optional(),
    blockId: elementId,
    actionId: elementId,
    /** For anything but a button: what was picked or entered. */
    value: fieldInput.optional(),
  })
  .refine((b) => (b.viewId === undefined) !== (b.channel === undefined || b.ts === undefined), {
    error: "give either channel and ts (a message) or viewId (a modal)",
  });

export const viewInputBody = z.object({
  user: userId,
  viewId,
  blockId: elementId,
  actionId: elementId,
  /** null: the person cleared the element. */
  value: fieldInput.nullable(),
});

export const submitBody = z.object({
  user: userId,
  viewId,
  values: z
    .record(elementId, z.record(elementId, fieldInput.nullable()))
    .refine((v) => Object.keys(v).length <= 100, { error: "at most 100 blocks" })
    .default({}),
});

export const closeBody = z.object({ user: userId, viewId });
export const homeBody = z.object({ user: userId });

export const advanceBody = z.object({
  user: userId,
  /** How far to move the sandbox's clock forward (the page offers an hour, a day, a week). */
  ms: z.number().int().min(60_000).max(MAX_ADVANCE_MS),
});

/** A knob of "Try a failure" (sandboxFaults.ts), turned by a person. */
export const faultRequest = z.object({ user: userId }).and(faultBody);

/** A file shared in a channel, downloaded by a person who can see that channel. */
export const fileQuery = z.object({ user: userId, id: z.string().regex(/^F[A-Z0-9]{2,30}$/) });

export const suggestQuery = z.object({
  user: userId,
  viewId,
  blockId: elementId,
  actionId: elementId,
  query: z.string().max(200).default(""),
});

/** A refusal the page shows to the person (an unknown message, an option not offered, …). */
export class RequestProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * A value the field refuses ("not a whole number", an option not offered). It is the person's
 * input being checked, as Slack's client does next to the field, not a bad request: the API
 * answers it 200 with `{ok: false, fieldErrors}`, so the browser logs no failed request.
 */
export class FieldProblem extends Error {}

export function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) throw new RequestProblem(400, z.prettifyError(result.error));
  return result.data;
}
