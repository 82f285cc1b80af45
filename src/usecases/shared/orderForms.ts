// What the order forms that are checked against fresh provider data (layer 2, IO-D) share:
// reading a raw typed value, a form part that loaded or became a problem to show, the names
// already taken, the submission's load within Slack's deadline, and the approval title's one
// line. One home so the forms cannot drift apart on any of these.
import type { ZodError } from "zod";
import { type ApprovalSettings, nameScope, normalizedName } from "../../approvals/index.js";
import { withDeadline } from "../../domain/deadline.js";
import { DeadlineExceededError, providerWords } from "../../domain/errors.js";
import type { Port } from "../../provider/api.js";
import { fieldErrors, ROOT_FIELD } from "../../provider/rules/fieldErrors.js";

/** A part of a form's data: its value, or the problem shown where that part would be. */
export type Loaded<T> = { ok: true; value: T } | { ok: false; problem: string };

const TEXT_MAX = 200;

/** A typed value, trimmed; empty or longer than `max` reads as not given. */
export function formText(x: unknown, max = TEXT_MAX): string | undefined {
  if (typeof x !== "string") return undefined;
  const trimmed = x.trim();
  return trimmed === "" || trimmed.length > max ? undefined : trimmed;
}

/** The words for a failed load: the provider's own message, else a generic "try again". */
export function problemOf(error: unknown, what: string): string {
  return providerWords(error)?.userMessage ?? `Couldn't load ${what}; try again.`;
}

/** A part of the form's data: a failure becomes a problem shown where that part would be. */
export async function loaded<T>(what: string, load: () => Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, value: await load() };
  } catch (error) {
    return { ok: false, problem: problemOf(error, what) };
  }
}

export function isDeletedPort(port: Port): boolean {
  return port.deleted === true;
}

/** A port as a summary names it: its name (or "Unnamed port") and id. */
export function portLabel(port: Port): string {
  return `${port.name?.trim() || "Unnamed port"} (${port.id})`;
}

/** Approval titles are one line of at most 300 characters. */
export function oneLine(text: string, max = 300): string {
  const line = text.replace(/[\r\n\t]+/g, " ");
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/**
 * Names already used by the company's connections and IO-D services (on any of its ports) or
 * held by a request (the approvals' one rule, src/approvals/names.ts: a rejected, withdrawn or
 * refused request gives its name back): the name is how an order with an unknown outcome is
 * found again.
 */
export async function takenNames(
  deps: { approvals: ApprovalSettings },
  ports: readonly Port[],
): Promise<Set<string>> {
  const names = await deps.approvals.store.namesHeld(nameScope("layer2"));
  for (const port of ports) {
    for (const connection of port.connections ?? []) {
      if (typeof connection?.name === "string") names.add(normalizedName(connection.name));
    }
  }
  return names;
}

/** The typed name, trimmed, when a connection, service or request already has it. */
export function takenName(name: unknown, taken: ReadonlySet<string>): string | undefined {
  const trimmed = typeof name === "string" ? name.trim() : "";
  return trimmed !== "" && taken.has(trimmed.toLowerCase()) ? trimmed : undefined;
}

/** Said next to the form's first field when the submission's load ran out of time. */
export const SLOW_PROVIDER = "The provider is slow to answer right now: press Submit again.";

/**
 * A submission's fresh look at the provider (never trusting what the modal showed) and the
 * names already taken, within `deadlineMs` (Slack waits 3 s for the answer). Undefined when the
 * provider was too slow; any other failure is thrown.
 */
export async function loadForCheck<D extends { ports: Loaded<Port[]> }>(
  deps: { approvals: ApprovalSettings },
  deadlineMs: number,
  load: (signal: AbortSignal) => Promise<D>,
): Promise<{ data: D; taken: Set<string> } | undefined> {
  try {
    const data = await withDeadline(deadlineMs, load);
    const taken = await takenNames(deps, data.ports.ok ? data.ports.value : []);
    return { data, taken };
  } catch (error) {
    if (error instanceof DeadlineExceededError) return undefined;
    throw error;
  }
}

/**
 * The provider rule's refusals, each put next to the form field it is about (`toField`), the
 * whole-body refusals next to `rootField` (the name); a field that already has an error keeps it.
 */
export function addRuleErrors<F extends string>(
  errors: Partial<Record<F, string>>,
  error: ZodError,
  toField: (path: string) => F,
  rootField: F,
): void {
  for (const [path, message] of Object.entries(fieldErrors(error))) {
    const field = path === ROOT_FIELD ? rootField : toField(path);
    errors[field] ??= message;
  }
}
