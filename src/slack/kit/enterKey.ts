import type { ListenerRegistry } from "../listenerTable.js";

/**
 * Enter in a form's typed input sends `block_actions` rather than submitting the form (see
 * views/inputs.ts `inputBlock` for why). Where the value changes nothing else in the form,
 * an ack is all: the form stays as it is, with what was typed.
 */
export async function acknowledgeEnter({ ack }: { ack: () => Promise<void> }): Promise<void> {
  await ack();
}

/** Acknowledges Enter in each of these typed inputs. */
export function acknowledgeEnterIn(app: ListenerRegistry, actionIds: readonly string[]): void {
  for (const actionId of actionIds) app.action(actionId, acknowledgeEnter);
}
