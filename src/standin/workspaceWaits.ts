import type { StandinEphemeral, StandinMessage, StandinView } from "./types.js";
import { brief, type Subscription, type WaitOptions, waitForMatch } from "./waiters.js";
import type { WorkspaceEvents } from "./webApi/conversations.js";
import type { Workspace } from "./workspace.js";

/**
 * Waiting on what happens in the workspace: a message in a channel, an ephemeral message to a
 * person, the modal a person sees, a view the app changes. The stand-in's `waitFor…` methods and
 * the driver (a fill waiting for the app's update, a submit waiting for a modal to open) wait
 * the same way, through waitForMatch: what is there already first, then the events.
 */

/** The workspace's `event`s as a subscription; `pick` gives the items each event offers. */
function workspaceSource<K extends keyof WorkspaceEvents, T>(
  workspace: Workspace,
  event: K,
  pick: (item: WorkspaceEvents[K][0]) => readonly T[],
): Subscription<T> {
  return {
    subscribe: (listener) => {
      const onEvent = (item: WorkspaceEvents[K][0]) => {
        for (const picked of pick(item)) listener(picked);
      };
      // EventEmitter's typed overloads do not follow a generic event name.
      const emitter = workspace as unknown as {
        on(event: K, listener: typeof onEvent): void;
        off(event: K, listener: typeof onEvent): void;
      };
      emitter.on(event, onEvent);
      return () => emitter.off(event, onEvent);
    },
  };
}

/** Resolves on a posted item (a message or an ephemeral one) matching `predicate`. */
function waitForPosted<K extends "message" | "ephemeral">(
  workspace: Workspace,
  event: K,
  posted: {
    /** What is there already, oldest first. */
    existing: () => WorkspaceEvents[K][0][];
    /** Whether an announced item is one of these (and not deleted). */
    accepts: (item: WorkspaceEvents[K][0]) => boolean;
    what: string;
  },
  predicate: (item: WorkspaceEvents[K][0]) => boolean,
  options: WaitOptions,
): Promise<WorkspaceEvents[K][0]> {
  return waitForMatch({
    existing: posted.existing,
    source: workspaceSource(workspace, event, (item) =>
      posted.accepts(item) && !item.deleted ? [item] : [],
    ),
    predicate,
    timeoutMs: options.timeoutMs,
    what: `${posted.what} matching the predicate`,
    seen: () => posted.existing().map((m) => `${m.ts} ${brief(m.text, 100)}`),
  });
}

/** Resolves on a message (posted or edited) in `channelId` matching `predicate`. */
export function waitForMessage(
  workspace: Workspace,
  channelId: string,
  predicate: (message: StandinMessage) => boolean,
  options: WaitOptions = {},
): Promise<StandinMessage> {
  return waitForPosted(
    workspace,
    "message",
    {
      existing: () => workspace.messages(channelId),
      accepts: (message) => message.channel === channelId,
      what: `a message in ${channelId}`,
    },
    predicate,
    options,
  );
}

/** Resolves on an ephemeral message shown to `userId` matching `predicate`. */
export function waitForEphemeral(
  workspace: Workspace,
  userId: string,
  predicate: (message: StandinEphemeral) => boolean,
  options: WaitOptions = {},
): Promise<StandinEphemeral> {
  return waitForPosted(
    workspace,
    "ephemeral",
    {
      existing: () => workspace.ephemerals(userId),
      accepts: (message) => message.user === userId,
      what: `an ephemeral message to ${userId}`,
    },
    predicate,
    options,
  );
}

/** Resolves when the modal `userId` sees (the top of their stack) matches `predicate`. */
export function waitForModal(
  workspace: Workspace,
  userId: string,
  predicate: (view: StandinView) => boolean,
  options: WaitOptions & { what?: string } = {},
): Promise<StandinView> {
  const current = () => {
    const top = workspace.currentView(userId);
    return top ? [top] : [];
  };
  return waitForMatch({
    existing: current,
    source: workspaceSource(workspace, "view", (stored) =>
      stored.userId === userId ? current() : [],
    ),
    predicate,
    timeoutMs: options.timeoutMs,
    what: options.what ?? `a modal for ${userId} matching the predicate`,
    seen: () =>
      workspace
        .modalStack(userId)
        .map((v) => `${v.view.id} ${v.view.callback_id} "${v.view.title.text}"`),
  });
}

/**
 * Resolves true once view `viewId`'s hash differs from `hash` (the app updated it), false after
 * `timeoutMs`.
 */
export function viewChanged(
  workspace: Workspace,
  viewId: string,
  hash: string,
  timeoutMs: number,
): Promise<boolean> {
  // A view that is gone has changed too.
  const changed = () => (workspace.view(viewId)?.view.hash !== hash ? [true] : []);
  return waitForMatch({
    existing: changed,
    source: workspaceSource(workspace, "view", (stored) =>
      stored.view.id === viewId ? changed() : [],
    ),
    predicate: () => true,
    timeoutMs,
    what: `view ${viewId} to change`,
    seen: () => [],
  }).then(
    () => true,
    () => false,
  );
}
