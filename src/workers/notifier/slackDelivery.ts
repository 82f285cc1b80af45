import type { OutboxItem, SlackChatApi, SlackFunctionsApi } from "../../jobs/index.js";
import { CHANNEL_ID } from "../../jobs/slackIds.js";
import { classifySlackError, classifySlackResult, type SlackFailure } from "./slackFailure.js";

/**
 * One outbox item to Slack: `chat.postMessage`, `chat.update` or the end of a Workflow Builder
 * step (`functions.complete*`), and what came of it — sent
 * (with the message's ts, kept in its marker so later updates can name it by key) or a
 * classified failure (slackFailure.ts). Never throws: the drainer decides what a failure means
 * for the channel's pace (drainPacing.ts).
 */

/** Sent: the message's ts, and for a post the channel Slack put it in (D… for a user id). */
export type SendOutcome = { kind: "sent"; ts: string | undefined; channel?: string } | SlackFailure;

/**
 * Sends a `post` or `update` item. An update by message key is resolved now (`resolveTs`), when
 * the post it names has been sent: it was queued before the update, in the same outbox.
 */
export async function deliver(
  slack: SlackChatApi,
  item: OutboxItem,
  resolveTs: (
    scope: string | undefined,
    messageKey: string | undefined,
  ) => Promise<string | undefined>,
  functions?: SlackFunctionsApi,
): Promise<SendOutcome> {
  try {
    if (item.op === "complete") return await completeStep(functions, item);
    if (item.op === "post") {
      const result = await slack.postMessage({
        channel: item.ch,
        text: item.text,
        ...(item.th ? { thread_ts: item.th } : {}),
        ...(item.blocks ? { blocks: item.blocks } : {}),
      });
      return (
        classifySlackResult(result) ?? {
          kind: "sent",
          ts: readTs(result),
          ...readChannel(result),
        }
      );
    }
    const ts = item.ts ?? (await resolveTs(item.sc, item.mk));
    if (ts === undefined) {
      return { kind: "permanent", error: "message_not_posted", detail: "unknown message key" };
    }
    const result = await slack.update({
      channel: item.ch,
      ts,
      text: item.text,
      ...(item.blocks ? { blocks: item.blocks } : {}),
    });
    return classifySlackResult(result) ?? { kind: "sent", ts };
  } catch (error) {
    return classifySlackError(error);
  }
}

/** Ends a Workflow Builder step with its own token (see StepEnd). */
async function completeStep(
  functions: SlackFunctionsApi | undefined,
  item: OutboxItem,
): Promise<SendOutcome> {
  const step = item.step;
  if (!step) return { kind: "permanent", error: "invalid_item", detail: "no step to complete" };
  if (!functions) throw new Error("notifier: no Slack functions client configured");
  const base = { token: step.token, function_execution_id: step.executionId };
  const result =
    step.error !== undefined
      ? await functions.completeError({ ...base, error: step.error })
      : await functions.completeSuccess({ ...base, outputs: step.outputs ?? {} });
  return classifySlackResult(result) ?? { kind: "sent", ts: undefined };
}

function readTs(result: unknown): string | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const ts = (result as { ts?: unknown }).ts;
  return typeof ts === "string" ? ts : undefined;
}

/** The channel id of Slack's answer, only when it is one (it goes into a marker). */
function readChannel(result: unknown): { channel?: string } {
  if (typeof result !== "object" || result === null) return {};
  const channel = (result as { channel?: unknown }).channel;
  return typeof channel === "string" && CHANNEL_ID.test(channel) ? { channel } : {};
}
