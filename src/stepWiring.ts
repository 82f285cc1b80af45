// What src/bot.ts wires for Workflow Builder steps (issue 30) beyond building StepCompletions:
// a person's display name for "Rejected by @Alex", a user group's handle and the names a step's
// error refers to (its run history is plain text), and the reconciler's timer. Apart from
// bot.ts so the composition root stays a list of parts.
import type { EventEmitter } from "node:events";
import type { WebClient } from "@slack/web-api";
import { NO_STEP_NAMES, type StepNames, stepTextReferences } from "../views/steps/steps.js";
import type { Logger } from "./log.js";

/** Open steps whose request ended while its change was missed are ended this often. */
export const STEP_RECONCILE_MS = 5 * 60_000;

/** The name Slack shows for a person (display name, else real name, else their id). */
export function slackDisplayName(client: WebClient): (userId: string) => Promise<string> {
  return async (userId) => {
    const { user } = await client.users.info({ user: userId });
    const profile = user?.profile;
    return profile?.display_name || profile?.real_name || user?.real_name || user?.name || userId;
  };
}

/** A user group's handle as Slack shows it ("@network-approvers"; its id when unknown). */
export function slackGroupHandle(client: WebClient): (groupId: string) => Promise<string> {
  return async (groupId) => {
    const { usergroups } = await client.usergroups.list({});
    const handle = usergroups?.find((g) => g.id === groupId)?.handle;
    return handle ? `@${handle}` : groupId;
  };
}

/**
 * The names a step's error text refers to, looked up before it is worded as plain text: each
 * person's display name and each group's handle; a failed look-up leaves that one as its id.
 */
export function stepNamesOf(
  displayName: (userId: string) => Promise<string>,
  groupHandle: (groupId: string) => Promise<string>,
): (text: string) => Promise<StepNames> {
  return async (text) => {
    const { people, groups } = stepTextReferences(text);
    if (people.length === 0 && groups.length === 0) return NO_STEP_NAMES;
    const [personNames, groupHandles] = await Promise.all([
      lookUpAll(people, displayName),
      lookUpAll(groups, groupHandle),
    ]);
    return {
      person: (id) => personNames.get(id) ?? id,
      group: (id) => groupHandles.get(id) ?? id,
    };
  };
}

async function lookUpAll(
  ids: readonly string[],
  lookUp: (id: string) => Promise<string>,
): Promise<Map<string, string>> {
  const found = await Promise.all(ids.map((id) => lookUp(id).catch(() => id)));
  return new Map(ids.map((id, i) => [id, found[i] ?? id]));
}

/**
 * Runs `reconcile` now, every `everyMs`, and each time `redis` is ready again after losing its
 * connection: an end missed during a Redis outage is made at once when Redis is back, not up to
 * `everyMs` later. Returns the stop (for shutdown).
 */
export function reconcileEvery(
  everyMs: number,
  reconcile: () => Promise<number>,
  logger: Logger,
  redis?: Pick<EventEmitter, "on" | "off">,
): () => Promise<void> {
  const run = (why: "timer" | "redis-ready") => {
    reconcile().then(
      (ended) => {
        if (ended > 0) logger.info({ ended, why }, "workflow steps ended by the reconciler");
        else logger.debug({ why }, "workflow steps reconciled: none to end");
      },
      (error: unknown) => logger.warn({ err: error, why }, "workflow step reconcile failed"),
    );
  };
  run("timer");
  const timer = setInterval(() => run("timer"), everyMs);
  timer.unref();
  // The connection is ready already when this is wired: every later "ready" is a reconnection.
  const onReady = () => run("redis-ready");
  redis?.on("ready", onReady);
  return async () => {
    clearInterval(timer);
    redis?.off("ready", onReady);
  };
}
