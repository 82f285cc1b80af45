import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";

/**
 * The request id that follows one piece of work (a Slack request, then the jobs it queues)
 * through every log line and provider call, without threading it through every signature.
 */
interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function newRequestId(): string {
  return randomBytes(8).toString("hex");
}

export function withRequestId<T>(requestId: string, work: () => T): T {
  return storage.run({ requestId }, work);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
