import type { App } from "@slack/bolt";

/** What the feature modules register their listeners on: Bolt's own signatures, kept. */
export type ListenerRegistry = Pick<App, "command" | "action" | "view" | "options">;

// Bolt's listener arguments differ per kind; the table only reads an id out of them.
// biome-ignore lint/suspicious/noExplicitAny: each listener keeps its own Bolt-typed args
type Listener = (args: any) => Promise<void>;
type Constraint = string | RegExp;

interface Kind {
  exact: Map<string, Listener>;
  patterns: Array<[RegExp, Listener]>;
}

/**
 * Registers the feature modules' listeners as one Bolt listener per payload kind, which finds
 * the module's listener by id in a table.
 *
 * Why: Bolt runs the middleware of *every* registered listener for every request (to let each
 * one decide whether it matches). With about forty listeners (every modal field that redraws
 * its form has one) that matching cost more CPU before each ack than all of Bolt's own request
 * handling. A map lookup costs nothing, and an id registered twice is refused at start-up
 * instead of running two listeners that both ack. Ids no listener claims reach no listener, as
 * before, so Bolt's unhandled-request handling is unchanged.
 */
export function registerThroughTable(
  app: App,
  register: (registry: ListenerRegistry) => void,
): void {
  const kinds = {
    action: newKind(),
    view: newKind(),
    options: newKind(),
  };
  let installed = false;
  const add =
    (kind: keyof typeof kinds) =>
    (constraint: Constraint, ...listeners: Listener[]) => {
      if (installed) throw new Error("listeners must be registered before the table is installed");
      if (listeners.length !== 1) {
        throw new Error(
          `one listener per ${kind} id (${String(constraint)} has ${listeners.length})`,
        );
      }
      addTo(kinds[kind], kind, constraint, listeners[0] as Listener);
    };
  const registry = {
    // One slash command: nothing to gain from a table.
    command: app.command.bind(app),
    action: add("action"),
    view: add("view"),
    options: add("options"),
  } as unknown as ListenerRegistry;
  register(registry);
  installed = true;

  const action = matcherOf(kinds.action);
  if (action) {
    app.action({ action_id: action }, (args) =>
      dispatch(kinds.action, idOf(args.payload, "action_id"), args),
    );
  }
  const view = matcherOf(kinds.view);
  if (view) {
    app.view({ callback_id: view, type: "view_submission" }, (args) =>
      dispatch(kinds.view, args.view.callback_id, args),
    );
  }
  const options = matcherOf(kinds.options);
  if (options) {
    app.options({ action_id: options }, (args) =>
      dispatch(kinds.options, idOf(args.payload, "action_id"), args),
    );
  }
}

function newKind(): Kind {
  return { exact: new Map(), patterns: [] };
}

function addTo(kind: Kind, name: string, constraint: Constraint, listener: Listener): void {
  if (typeof constraint === "string") {
    if (kind.exact.has(constraint)) throw new Error(`${name} ${constraint} is registered twice`);
    kind.exact.set(constraint, listener);
    return;
  }
  if (!(constraint instanceof RegExp)) {
    throw new Error(`${name} listeners are registered by id or pattern, not ${typeof constraint}`);
  }
  // Patterns are joined into one RegExp, which has one set of flags.
  if (constraint.flags !== "") throw new Error(`${name} pattern ${constraint} must have no flags`);
  kind.patterns.push([constraint, listener]);
}

/** One pattern that matches exactly the ids the table can dispatch (Bolt's own filter). */
function matcherOf(kind: Kind): RegExp | undefined {
  const alternatives = [
    ...[...kind.exact.keys()].map((id) => `^${escapeRegExp(id)}$`),
    ...kind.patterns.map(([pattern]) => `(?:${pattern.source})`),
  ];
  return alternatives.length > 0 ? new RegExp(alternatives.join("|")) : undefined;
}

async function dispatch(kind: Kind, id: string | undefined, args: unknown): Promise<void> {
  if (id === undefined) return;
  const listener = kind.exact.get(id) ?? kind.patterns.find(([pattern]) => pattern.test(id))?.[1];
  await listener?.(args);
}

function idOf(payload: object, key: string): string | undefined {
  const id: unknown = (payload as Record<string, unknown>)[key];
  return typeof id === "string" ? id : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
