import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import type { ModalView } from "@slack/types";
import { newRequestId, withRequestId } from "../../context.js";
import { slackErrorCode } from "../../domain/errors.js";
import type { Logger } from "../../log.js";
import type { ListenerRegistry } from "../listenerTable.js";
import { acknowledgeEnterIn } from "./enterKey.js";

/**
 * Runs the modal updates of one view one at a time, newest state last. Each change (data
 * center, speed, term) carries the whole form as it was then, and a slower update for an older
 * change must never overwrite a newer one: an update waiting behind a running one is replaced
 * by a newer one, and a change older than one already seen is dropped. Per process: with
 * several replicas, two of them may still race; the submission is checked afresh anyway.
 */
export class NewestWins {
  private readonly slots = new Map<
    string,
    { newest: number; running: boolean; next?: () => Promise<void> }
  >();

  constructor(
    private readonly onError: (error: unknown) => void,
    private readonly maxViews = 1000,
  ) {}

  async run(key: string, order: number, task: () => Promise<void>): Promise<void> {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { newest: Number.NEGATIVE_INFINITY, running: false };
      this.slots.set(key, slot);
      // Map order is insertion order: forget the oldest views first.
      for (const old of this.slots.keys()) {
        if (this.slots.size <= this.maxViews) break;
        if (old !== key) this.slots.delete(old);
      }
    }
    if (order < slot.newest) return;
    slot.newest = order;
    slot.next = task;
    if (slot.running) return;
    slot.running = true;
    try {
      while (slot.next) {
        const current = slot.next;
        slot.next = undefined;
        await current().catch(this.onError);
      }
    } finally {
      slot.running = false;
    }
  }
}

/** When the change happened, by Slack's clock (its action_ts), so late arrivals sort right. */
export function actionOrder(body: BlockAction): number {
  const ts = Number(body.actions[0]?.action_ts);
  return Number.isFinite(ts) ? ts : Date.now() / 1000;
}

type ViewAction = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

/**
 * A block_actions listener that rebuilds the form the action came from ("open, then fill" as
 * the person changes it): acked at once, rebuilt after, newest change last (NewestWins).
 * Only forms with `callbackId` are rebuilt; a form closed meanwhile is left alone.
 */
export function rebuildOnChange(
  services: { logger: Logger },
  form: { callbackId: string; what: string },
  build: (view: { state: unknown; private_metadata: string }) => Promise<ModalView>,
) {
  const { logger } = services;
  const updates = new NewestWins((error) => {
    if (slackErrorCode(error) === "not_found") {
      // The person closed or submitted the form meanwhile: nothing left to update.
      logger.debug(`the ${form.what} form is gone; not updated`);
    } else {
      logger.warn({ err: error }, `could not update the ${form.what} form`);
    }
  });
  return async ({ ack, body, client }: ViewAction) => {
    await ack();
    const view = body.view;
    if (!view?.id || view.callback_id !== form.callbackId) return;
    await updates.run(view.id, actionOrder(body), () =>
      withRequestId(newRequestId(), async () => {
        const next = await build({
          state: view.state?.values,
          private_metadata: view.private_metadata,
        });
        await client.views.update({ view_id: view.id, view: next });
      }),
    );
  };
}

/**
 * A form's change listeners: each input in `rebuildOn` rebuilds the form (rebuildOnChange), each
 * in `enterOnly` (typed inputs whose value changes nothing else) acks Enter and nothing more.
 */
export function registerFormChanges(
  app: ListenerRegistry,
  services: { logger: Logger },
  form: {
    callbackId: string;
    what: string;
    rebuildOn: readonly string[];
    enterOnly: readonly string[];
  },
  build: (view: { state: unknown; private_metadata: string }) => Promise<ModalView>,
): void {
  const rebuild = rebuildOnChange(services, form, build);
  for (const actionId of form.rebuildOn) app.action<BlockAction>(actionId, rebuild);
  acknowledgeEnterIn(app, form.enterOnly);
}
