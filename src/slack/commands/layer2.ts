// Slack glue for `/connect l2`: open the layer 2 form, rebuild it when an input that changes it
// is set, check the submission and hand it to approval. The work is in src/usecases/layer2.ts;
// what people see is in views/layer2Modal.ts. Also the small pieces the IO-D form shares
// (reading modal state, rebuilding a modal once per change, answering the requester).
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
} from "@slack/bolt";
import type { KnownBlock, ModalView } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { escapeMrkdwn } from "../../../views/blocks.js";
import {
  EVERGREEN_VALUE,
  LAYER2_ACTIONS,
  LAYER2_BLOCKS,
  LAYER2_DISPATCH_FIELDS,
  LAYER2_ENTER_ONLY_FIELDS,
  LAYER2_VIEW,
  layer2Modal,
  type OrderModalMetadata,
  orderLoadingModal,
  orderProblemModal,
  parseOrderMetadata,
} from "../../../views/layer2Modal.js";
import {
  ACTION_ORDER_THIS_L2,
  type Layer2OrderThis,
  parseLayer2OrderThis,
} from "../../../views/orderThis.js";
import { problemReply } from "../../../views/reply.js";
import { newRequestId, withRequestId } from "../../context.js";
import type { Logger } from "../../log.js";
import type { OrderSubmission } from "../../orders/index.js";
import type { Services } from "../../services.js";
import {
  checkLayer2Submission,
  type Layer2Check,
  type Layer2Form,
  loadLayer2Modal,
  portDcfId,
} from "../../usecases/layer2.js";
import { submittedReply } from "../approvals.js";
import { type CommandContext, type CommandHandler, failureText, type Outcome } from "../connect.js";
import type { ListenerRegistry } from "../listenerTable.js";
import { acknowledgeEnterIn } from "./enterKey.js";
import { orderRefusal } from "./portOrder.js";
import { blockErrors } from "./pricing.js";
import { submitFromForm } from "./submitForm.js";

// ---------------------------------------------------------------------------------------------
// Reading a modal's state (whatever arrived: a forged payload is no different from a real one)

import { checkboxTicked, selectedValue, typedValue } from "../modalState.js";

export function readLayer2Form(values: unknown): Layer2Form {
  const sel = (field: keyof typeof LAYER2_BLOCKS) =>
    selectedValue(values, LAYER2_BLOCKS[field], LAYER2_ACTIONS[field]);
  const typed = (field: keyof typeof LAYER2_BLOCKS) =>
    typedValue(values, LAYER2_BLOCKS[field], LAYER2_ACTIONS[field]);
  return {
    mode: sel("mode"),
    sourcePort: sel("sourcePort"),
    destPort: typed("destPort"),
    destMetro: sel("destMetro"),
    destDcf: sel("destDcf"),
    destRegion: sel("destRegion"),
    destCompany: typed("destCompany"),
    bandwidth: typed("bandwidth"),
    classOfService: sel("classOfService"),
    duration: typed("duration"),
    durationUnit: sel("durationUnit"),
    evergreen: checkboxTicked(
      values,
      LAYER2_BLOCKS.evergreen,
      LAYER2_ACTIONS.evergreen,
      EVERGREEN_VALUE,
    ),
    name: typed("name"),
  };
}

// ---------------------------------------------------------------------------------------------
// Rebuilding a modal once per change

/**
 * Each change of a dispatching input carries the whole form as it is then, so the newest change
 * has the most complete state. Rebuilds run after the ack and can finish out of order (a slow
 * price); an older one that finishes last must not overwrite a newer view, so only the newest
 * per view is applied. Per process: with several replicas, two changes seconds apart could still
 * land on different ones, and Slack then shows whichever update came last.
 */
export class LatestRebuild {
  private readonly newest = new Map<string, number>();
  private counter = 0;

  /** Starts a rebuild; the function answers whether it is still the newest for the view. */
  begin(viewId: string): { isNewest: () => boolean; end: () => void } {
    const token = ++this.counter;
    this.newest.set(viewId, token);
    return {
      isNewest: () => this.newest.get(viewId) === token,
      end: () => {
        if (this.newest.get(viewId) === token) this.newest.delete(viewId);
      },
    };
  }
}

/** The `error` of a Slack Web API refusal (e.g. not_found), if that is what this is. */
function slackError(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | null)?.data;
  return typeof data?.error === "string" ? data.error : undefined;
}

type ViewAction = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

/** A block_actions listener that rebuilds the modal the action came from. */
export function rebuildOnChange(
  services: Services,
  rebuilds: LatestRebuild,
  what: string,
  build: (view: { state: unknown; private_metadata: string }) => Promise<ModalView>,
) {
  return async ({ ack, body, client }: ViewAction) => {
    await ack();
    const view = body.view;
    if (!view?.id) return;
    const rebuild = rebuilds.begin(view.id);
    try {
      await withRequestId(newRequestId(), async () => {
        const next = await build({
          state: view.state?.values,
          private_metadata: view.private_metadata,
        });
        if (!rebuild.isNewest()) return;
        await client.views.update({ view_id: view.id, view: next });
      });
    } catch (error) {
      if (slackError(error) === "not_found") {
        // The person closed or submitted the form meanwhile: nothing left to update.
        services.logger.debug({ viewId: view.id }, `the ${what} form is gone; not updated`);
      } else {
        services.logger.warn({ err: error }, `could not update the ${what} form`);
      }
    } finally {
      rebuild.end();
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Opening a form, answering the requester

/**
 * Opens a "loading" modal at once (the trigger id lasts 3 s; the provider may take longer),
 * then replaces it with the form. When the form can't be built, the modal says why.
 */
export async function openOrderForm(
  ctx: Pick<CommandContext, "triggerId" | "services" | "client" | "reply">,
  form: { callbackId: string; title: string; loading: string; usage: string },
  build: () => Promise<ModalView>,
): Promise<void> {
  if (!ctx.triggerId) {
    await ctx.reply(problemReply(form.usage));
    return;
  }
  const sandbox = ctx.services.sandbox;
  const opened = await ctx.client.views.open({
    trigger_id: ctx.triggerId,
    view: orderLoadingModal(form.callbackId, form.title, form.loading, sandbox),
  });
  const viewId = opened.view?.id;
  if (!viewId) throw new Error("Slack opened the form without a view id");
  let view: ModalView;
  try {
    view = await build();
  } catch (error) {
    await ctx.client.views
      .update({
        view_id: viewId,
        view: orderProblemModal(form.callbackId, form.title, failureText(error), sandbox),
      })
      .catch(() => undefined);
    throw error;
  }
  await ctx.client.views.update({ view_id: viewId, view });
}

/**
 * Tells the requester privately, in the channel the command came from; when that fails (the bot
 * is not in that channel, or it is gone) by direct message, so the answer is never lost.
 */
export async function tellRequester(
  client: WebClient,
  where: { userId: string; channelId?: string },
  text: string,
  logger: Logger,
  /** The message's blocks, when it has more than its text (the confirmation's Withdraw). */
  blocks?: KnownBlock[],
): Promise<void> {
  if (where.channelId) {
    try {
      await client.chat.postEphemeral({
        channel: where.channelId,
        user: where.userId,
        text,
        ...(blocks ? { blocks } : {}),
      });
      return;
    } catch (error) {
      logger.warn(
        { err: error, channelId: where.channelId },
        "ephemeral answer failed; sending a DM",
      );
    }
  }
  await client.chat.postMessage({ channel: where.userId, text, ...(blocks ? { blocks } : {}) });
}

/** Approvals need a channel and approvers: refuse early, inside the form, when they are missing. */
export function approvalsUnavailable(services: Services): string | undefined {
  return !services.approvals.channel || services.approvals.approvers.length === 0
    ? "Orders need an approvals channel and approvers: an admin must set APPROVALS_CHANNEL and APPROVERS."
    : undefined;
}

function record(services: Services, command: string, userId: string, outcome: Outcome): void {
  services.metrics.commands.inc({ command, outcome });
  services.logger.info({ audit: "command", command, userId, outcome, via: "modal" }, "command run");
}

/**
 * The checked form goes to approval (see submitFromForm: a name taken meanwhile is answered
 * next to the form's name field, and the form stays open) and the requester hears where it is.
 * Only ids and the outcome are logged, never the call body (an IO-D body carries the BGP key).
 */
export async function submitAndTell(
  services: Services,
  client: WebClient,
  command: string,
  submission: OrderSubmission,
  answerForm: (nameError?: string) => Promise<void>,
): Promise<void> {
  const where = submission.requester;
  let outcome: Outcome = "succeeded";
  let text: string;
  let blocks: KnownBlock[] | undefined;
  try {
    const submitted = await submitFromForm({ services, client, submission, answerForm });
    // Answered next to the name field, like the form's other errors (the form stays open).
    if (!submitted.ok && submitted.field === "name") return;
    if (submitted.ok) ({ text, blocks } = submittedReply(submitted));
    else {
      outcome = "blocked";
      text = `:no_entry: ${submitted.message}`;
    }
  } catch (error) {
    outcome = "errored";
    services.logger.error({ err: error, command }, "could not submit the request for approval");
    text = `:warning: Your request *${escapeMrkdwn(submission.title)}* could not be sent for approval; nothing was ordered. Try again in a minute.`;
  }
  try {
    await tellRequester(client, where, text, services.logger, blocks);
  } catch (error) {
    services.logger.error({ err: error, command }, "could not tell the requester");
  }
  record(services, command, where.userId, outcome);
}

// ---------------------------------------------------------------------------------------------
// Layer 2

const TITLE = "Layer 2 connection";
const USAGE = "Run `/connect l2` to open the layer 2 connection form.";

function metadataOf(text: unknown): OrderModalMetadata {
  return parseOrderMetadata(text);
}

/** `/connect l2`: the layer 2 connection form (port-to-port or business-to-business). */
export const layer2: CommandHandler = async (ctx) => {
  const metadata = { channelId: ctx.channelId };
  await openOrderForm(
    ctx,
    { callbackId: LAYER2_VIEW, title: TITLE, loading: "your ports", usage: USAGE },
    async () =>
      layer2Modal(await loadLayer2Modal(ctx.services, {}), {
        metadata,
        sandbox: ctx.services.sandbox,
        currency: ctx.services.currency,
      }),
  );
};

/**
 * The layer 2 form opened from a price ("Order this"): business-to-business to the priced
 * destination data center (its metro), from your port in the priced source data center when
 * you have one there, with the bandwidth, class of service and term priced.
 */
async function orderPricedConnection(
  services: Services,
  pick: Layer2OrderThis,
): Promise<Layer2Form> {
  const [dest] = await services.provider.listDcfs({ where: { id: pick.destDcfId } });
  const form: Layer2Form = {
    mode: "business-to-business",
    bandwidth: String(pick.bandwidthMbps),
    classOfService: pick.classOfService,
    ...(dest?.dataCenterFacility?.metroId
      ? { destMetro: dest.dataCenterFacility.metroId, destDcf: pick.destDcfId }
      : {}),
    // The order form's term is in months; a price in weeks leaves it for the person.
    ...(pick.duration.unit === "m"
      ? { duration: String(pick.duration.value), durationUnit: "m" }
      : {}),
  };
  const first = await loadLayer2Modal(services, form);
  const source = first.ports.ok
    ? first.ports.value.find((p) => portDcfId(p) === pick.srcDcfId)
    : undefined;
  return source ? { ...form, sourcePort: source.id } : form;
}

/** Listeners (modal submissions, options loads, buttons) of this command. */
export function registerLayer2Listeners(app: ListenerRegistry, services: Services): void {
  app.action<BlockAction<ButtonAction>>(
    ACTION_ORDER_THIS_L2,
    async ({ ack, body, action, client, respond }) => {
      await ack();
      const pick = parseLayer2OrderThis(action.value);
      if (!pick) return;
      const refusal = await orderRefusal(services, client, body.user.id);
      if (refusal) {
        await respond({
          response_type: "ephemeral",
          replace_original: false,
          text: refusal.message,
        });
        return;
      }
      const channelId = body.channel?.id ?? body.container?.channel_id;
      const reply = async (r: { text: string }) => {
        await respond({ response_type: "ephemeral", replace_original: false, text: r.text });
      };
      try {
        await openOrderForm(
          { triggerId: body.trigger_id, services, client, reply },
          { callbackId: LAYER2_VIEW, title: TITLE, loading: "your ports", usage: USAGE },
          async () =>
            layer2Modal(
              await loadLayer2Modal(services, await orderPricedConnection(services, pick)),
              {
                metadata: channelId ? { channelId } : {},
                sandbox: services.sandbox,
                currency: services.currency,
              },
            ),
        );
      } catch (error) {
        services.logger.warn({ err: error }, "could not open the layer 2 form from a price");
        await reply({ text: failureText(error) });
      }
    },
  );

  const rebuilds = new LatestRebuild();
  const rebuild = rebuildOnChange(services, rebuilds, "layer 2", async (view) => {
    const data = await loadLayer2Modal(services, readLayer2Form(view.state));
    return layer2Modal(data, {
      metadata: metadataOf(view.private_metadata),
      sandbox: services.sandbox,
      currency: services.currency,
    });
  });
  for (const field of LAYER2_DISPATCH_FIELDS) {
    app.action<BlockAction>(LAYER2_ACTIONS[field], rebuild);
  }
  acknowledgeEnterIn(
    app,
    LAYER2_ENTER_ONLY_FIELDS.map((field) => LAYER2_ACTIONS[field]),
  );

  app.view(LAYER2_VIEW, async ({ ack, body, view, client }) => {
    const metadata = metadataOf(view.private_metadata);
    const unavailable = approvalsUnavailable(services);
    if (unavailable) {
      await ack({
        response_action: "errors",
        errors: blockErrors({ name: unavailable }, LAYER2_BLOCKS, view, "name"),
      });
      return;
    }
    let check: Layer2Check;
    try {
      check = await checkLayer2Submission(services, {
        form: readLayer2Form(view.state?.values),
        currency: services.currency,
        ...(metadata.priceKey ? { shownPrice: metadata.priceKey } : {}),
        requester: {
          userId: body.user.id,
          ...(metadata.channelId ? { channelId: metadata.channelId } : {}),
        },
      });
    } catch (error) {
      services.logger.error({ err: error }, "layer 2 form check failed");
      check = {
        kind: "invalid",
        errors: { name: "Something went wrong on our side; press Submit again." },
      };
    }
    switch (check.kind) {
      case "invalid":
        await ack({
          response_action: "errors",
          errors: blockErrors(check.errors, LAYER2_BLOCKS, view, "name"),
        });
        return;
      case "review":
        await ack({
          response_action: "update",
          view: layer2Modal(check.data, {
            metadata,
            sandbox: services.sandbox,
            currency: services.currency,
            review: true,
          }),
        });
        return;
      case "ready":
        await withRequestId(newRequestId(), () =>
          submitAndTell(services, client, "l2", check.submission, (nameError) =>
            nameError
              ? ack({
                  response_action: "errors",
                  errors: blockErrors({ name: nameError }, LAYER2_BLOCKS, view, "name"),
                })
              : ack(),
          ),
        );
        return;
    }
  });
}
