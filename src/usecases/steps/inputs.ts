// The inputs of each Workflow Builder step (issue 30; docs/DESIGN.md §3), read from the
// `function_executed` event as Slack sends them (numbers may come as numbers or digits, ids as
// text). What a person typed into Workflow Builder is not trusted more than a form's values:
// every input is checked here, and a problem is one sentence naming the input, as the run
// history shows it.
import { z } from "zod";
import { CONNECTION_NAME_MAX } from "../../domain/catalog/connections.js";
import { MAX_TERM_MONTHS } from "../../domain/catalog/terms.js";
import { SLACK_CHANNEL_ID, SLACK_USER_ID } from "../../domain/slackIds.js";
import { DCF_QUERY_MAX } from "../shared/dcfDirectory.js";

/** Slack may send a number input as a number or as its digits. */
const wholeNumber = (label: string, max: number) =>
  z.preprocess(
    (value) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
    z
      .number({
        error: (issue) =>
          issue.input === undefined ? `${label} is missing` : `${label} must be a whole number`,
      })
      .int(`${label} must be a whole number`)
      .min(1, `${label} must be at least 1`)
      .max(max, `${label} must be at most ${max}`),
  );

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is missing` })
    .trim()
    .min(1, `${label} is missing`)
    .max(max, `${label} is longer than ${max} characters`);

const userId = z
  .string({ error: "Requester is missing" })
  .regex(SLACK_USER_ID, "Requester must be a person (a Slack user)");

/** Optional channel: empty means "not given", as Workflow Builder sends an unset variable. */
const channelId = z.preprocess(
  (value) => (value === "" || value === null ? undefined : value),
  z.string().regex(SLACK_CHANNEL_ID, "Channel must be a channel (public or private)").optional(),
);

const DATA_CENTER = text("Data center", DCF_QUERY_MAX);
const TERM_MONTHS = wholeNumber("Term (months)", MAX_TERM_MONTHS);
const SPEED_MBPS = wholeNumber("Speed (Mbps)", 400_000);
const BANDWIDTH_MBPS = wholeNumber("Bandwidth (Mbps)", 400_000);

export const pricePortInputs = z.object({
  data_center: DATA_CENTER,
  speed_mbps: SPEED_MBPS,
  term_months: TERM_MONTHS,
});
export type PricePortInputs = z.infer<typeof pricePortInputs>;

export const priceLayer2Inputs = z.object({
  source: text("Source data center", DCF_QUERY_MAX),
  destination: text("Destination data center", DCF_QUERY_MAX),
  bandwidth_mbps: BANDWIDTH_MBPS,
  term_months: TERM_MONTHS,
});
export type PriceLayer2Inputs = z.infer<typeof priceLayer2Inputs>;

export const requestPortOrderInputs = z.object({
  requester: userId,
  data_center: DATA_CENTER,
  speed_mbps: SPEED_MBPS,
  term_months: TERM_MONTHS,
  port_name: text("Port name", 100),
  channel: channelId,
});
export type RequestPortOrderInputs = z.infer<typeof requestPortOrderInputs>;

export const requestLayer2Inputs = z.object({
  requester: userId,
  source_port: text("Source port", 100),
  destination: text("Destination", 200),
  bandwidth_mbps: BANDWIDTH_MBPS,
  term_months: TERM_MONTHS,
  connection_name: text("Connection name", CONNECTION_NAME_MAX),
  channel: channelId,
});
export type RequestLayer2Inputs = z.infer<typeof requestLayer2Inputs>;

export const orderStatusInputs = z.object({
  order_id: text("Order id", 100).regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]*$/,
    "Order id must be letters, digits, - or _ (a port order, layer 2 connection or IO-D service id)",
  ),
});
export type OrderStatusInputs = z.infer<typeof orderStatusInputs>;

/** What a step's inputs read as: the values, or the first problem in words. */
export type StepInputs<T> = { ok: true; value: T } | { ok: false; error: string };

export function readStepInputs<T>(schema: z.ZodType<T>, inputs: unknown): StepInputs<T> {
  const parsed = schema.safeParse(typeof inputs === "object" && inputs !== null ? inputs : {});
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: parsed.error.issues.map((issue) => issue.message).join("; ") };
}
