// Slack glue for `/connect port order`: opens the modal, answers the data center options loads,
// updates the modal in place as the person chooses (speeds, price, LOA path), checks the
// submission again on the server and turns it into an approval request. The work is in
// src/usecases/portOrder.ts; what people see is in views/portOrderModal.ts.

import type { BlockAction, ButtonAction } from "@slack/bolt";
import type { KnownBlock } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { escapeMrkdwn } from "../../../views/blocks.js";
import { dcfSuggestionOptions } from "../../../views/dcfOptions.js";
import { ACTION_ORDER_THIS_PORT, parsePortOrderThis } from "../../../views/orderThis.js";
import {
  PORT_ORDER_ACTIONS,
  PORT_ORDER_BLOCKS,
  PORT_ORDER_VIEW,
  parsePortOrderMetadata,
  portOrderModal,
} from "../../../views/portOrderModal.js";

import { problemReply } from "../../../views/reply.js";

import { canRequest } from "../../approvals/index.js";

import { newRequestId, withRequestId } from "../../context.js";
import { BlockedError } from "../../domain/errors.js";
import type { Services } from "../../services.js";
import {
  checkPortOrder,
  type PortOrderForm,
  portOrderSubmission,
  previewPortOrder,
  requestedPortNames,
} from "../../usecases/portOrder.js";
import { DcfDirectory, suggestDcfs } from "../../usecases/shared/dcfDirectory.js";
import { groupMembersVia } from "../approvals.js";
import type { CommandHandler, Outcome } from "../connect.js";
import {
  acknowledgeEnterIn,
  blockErrors,
  rebuildOnChange,
  recordCommand,
  selectedValue,
  submitFromForm,
  submittedReply,
  tellPrivately,
  typedValue,
} from "../kit/index.js";
import type { ListenerRegistry } from "../listenerTable.js";

const COMMAND_NAME = "port order";

/** How long "Order this" waits for the form's preview: the trigger id lasts 3 seconds. */
const ORDER_THIS_PREVIEW_MS = 1_500;

/** Why this person cannot order now (no approvals set up, or not a requester); undefined if they can. */
export async function orderRefusal(
  services: Services,
  client: WebClient,
  userId: string,
): Promise<{ kind: "setup" | "blocked"; message: string } | undefined> {
  const { approvals } = services;
  // Said before the form is filled, not after: without these no request can be made.
  if (!approvals.channel || approvals.approvers.length === 0) {
    return {
      kind: "setup",
      message:
        ":no_entry: Orders need an approvals channel and approvers: an admin must set APPROVALS_CHANNEL and APPROVERS.",
    };
  }
  // Checked again on submit (storeForApproval); asked here so nobody fills a form in vain.
  const allowed = await canRequest({
    userId,
    requesters: approvals.requesters,
    groupMembers: groupMembersVia(client),
  });
  return allowed.allowed ? undefined : { kind: "blocked", message: allowed.message };
}

/** `/connect port order`: the order form (there is no inline form of an order). */
export const portOrder: CommandHandler = async (ctx) => {
  const { sandbox, logger } = ctx.services;
  const refusal = await orderRefusal(ctx.services, ctx.client, ctx.userId);
  if (refusal?.kind === "setup") {
    await ctx.reply(problemReply(refusal.message));
    return;
  }
  // The router answers it and records the run as "blocked".
  if (refusal) throw new BlockedError(refusal.message);
  if (!ctx.triggerId) {
    await ctx.reply(problemReply("Type `/connect port order` to open the order form."));
    return;
  }
  try {
    await ctx.openModal(
      portOrderModal({
        metadata: { channelId: ctx.channelId },
        sandbox,
        currency: ctx.services.currency,
      }),
    );
  } catch (error) {
    logger.warn({ err: error }, "could not open the port order form");
    await ctx.reply(
      problemReply("Couldn't open the order form (Slack refused it); run the command again."),
    );
  }
};

// ---------------------------------------------------------------------------------------------
// Reading the modal's state (whatever arrived: a forged payload is no different from a real one)

export function readPortOrderState(values: unknown): PortOrderForm {
  const B = PORT_ORDER_BLOCKS;
  const A = PORT_ORDER_ACTIONS;
  return {
    dcf: selectedValue(values, B.dcf, A.dcf),
    speed: selectedValue(values, B.speed, A.speed),
    term: selectedValue(values, B.term, A.term),
    portName: typedValue(values, B.portName, A.portName),
  };
}

// ---------------------------------------------------------------------------------------------
// Updating the modal in place

// ---------------------------------------------------------------------------------------------
// Listeners

/** Listeners (modal submissions, options loads, changes) of `/connect port order`. */
export function registerPortOrderListeners(app: ListenerRegistry, services: Services): void {
  const { logger, provider } = services;
  const directory = new DcfDirectory(provider);
  // No hash on the update: ordering is kept by the kit's newest-first updates; a hash would
  // make a newer change lose to the update of an older one that landed first.
  const rebuildPortOrder = rebuildOnChange(
    services,
    { callbackId: PORT_ORDER_VIEW, what: "port order" },
    async (view) =>
      portOrderModal({
        metadata: parsePortOrderMetadata(view.private_metadata),
        sandbox: services.sandbox,
        currency: services.currency,
        preview: await previewPortOrder({ provider, directory }, readPortOrderState(view.state)),
      }),
  );

  // Search as you type: bounded so Slack's 3 seconds are never missed (a hint option instead).
  app.options(PORT_ORDER_ACTIONS.dcf, async ({ ack, payload }) => {
    const typed = typeof payload.value === "string" ? payload.value : "";
    const suggestions = await suggestDcfs(directory, typed);
    if (suggestions.kind === "timeout" || suggestions.kind === "failed") {
      logger.warn({ suggestions: suggestions.kind }, "data center options load had no answer");
    }
    await ack({ options: dcfSuggestionOptions(suggestions, typed) });
  });

  acknowledgeEnterIn(app, [PORT_ORDER_ACTIONS.portName]);

  // "Order this" under a port price: the order form with the priced data center, speed and
  // term chosen, its LOA path and price shown as if picked by hand.
  app.action<BlockAction<ButtonAction>>(
    ACTION_ORDER_THIS_PORT,
    async ({ ack, body, action, client, respond }) => {
      await ack();
      const pick = parsePortOrderThis(action.value);
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
      const form: PortOrderForm = { dcf: pick.dcf, speed: String(pick.speedMbps), term: pick.term };
      // Within the trigger id's 3 seconds; a slow provider leaves the fields for the person.
      const preview = await previewPortOrder({ provider, directory }, form, ORDER_THIS_PREVIEW_MS);
      const channelId = body.channel?.id ?? body.container?.channel_id;
      try {
        await client.views.open({
          trigger_id: body.trigger_id,
          view: portOrderModal({
            metadata: channelId ? { channelId } : {},
            sandbox: services.sandbox,
            currency: services.currency,
            preview,
          }),
        });
      } catch (error) {
        logger.warn({ err: error }, "could not open the port order form from a price");
        await respond({
          response_type: "ephemeral",
          replace_original: false,
          text: "Couldn't open the order form (Slack refused it); type `/connect port order`.",
        });
      }
    },
  );

  // Data center, speed or term changed: the speeds of that DCF only, its LOA path, the price.
  for (const actionId of [
    PORT_ORDER_ACTIONS.dcf,
    PORT_ORDER_ACTIONS.speed,
    PORT_ORDER_ACTIONS.term,
  ]) {
    app.action<BlockAction>(actionId, rebuildPortOrder);
  }

  app.view(PORT_ORDER_VIEW, async ({ ack, body, view, client }) => {
    const started = performance.now();
    let check: Awaited<ReturnType<typeof checkPortOrder>>;
    try {
      check = await checkPortOrder(
        {
          provider,
          identity: services.identity,
          requestedNames: () => requestedPortNames(services.approvals.store),
        },
        readPortOrderState(view.state?.values),
      );
    } catch (error) {
      logger.error({ err: error }, "port order form check failed");
      check = { ok: false, errors: { dcf: "Something went wrong on our side; submit again" } };
    }
    if (!check.ok) {
      await ack({
        response_action: "errors",
        errors: blockErrors(check.errors, PORT_ORDER_BLOCKS, view, "dcf"),
      });
      recordCommand(services, {
        command: COMMAND_NAME,
        userId: body.user.id,
        outcome: "failed",
        via: "modal",
        startedAt: started,
      });
      return;
    }
    const where = {
      channelId: parsePortOrderMetadata(view.private_metadata).channelId,
      userId: body.user.id,
    };
    const submission = portOrderSubmission(check.value, where, services.currency);
    await withRequestId(newRequestId(), async () => {
      let outcome: Outcome = "succeeded";
      let text: string;
      let blocks: KnownBlock[] | undefined;
      try {
        const submitted = await submitFromForm({
          services,
          client,
          submission,
          // The name was free when checked above; another request may have taken it since.
          answerForm: (nameError) =>
            nameError
              ? ack({
                  response_action: "errors",
                  errors: blockErrors({ portName: nameError }, PORT_ORDER_BLOCKS, view, "portName"),
                })
              : ack(),
        });
        if (!submitted.ok && submitted.field === "name") {
          recordCommand(services, {
            command: COMMAND_NAME,
            userId: body.user.id,
            outcome: "failed",
            via: "modal",
            startedAt: started,
          });
          return;
        }
        if (submitted.ok) {
          ({ text, blocks } = submittedReply(submitted));
        } else {
          outcome = "blocked";
          text = `:no_entry: ${submitted.message}`;
        }
      } catch (error) {
        outcome = "errored";
        logger.error({ err: error }, "could not post the port order for approval");
        text = `:warning: Couldn't post *${escapeMrkdwn(submission.title)}* for approval, so nothing will be ordered. Try again in a minute.`;
      }
      try {
        await tellPrivately(client, services, where, { text, ...(blocks ? { blocks } : {}) });
      } catch (error) {
        logger.error({ err: error }, "could not confirm the port order request");
      }
      recordCommand(services, {
        command: COMMAND_NAME,
        userId: body.user.id,
        outcome: outcome,
        via: "modal",
        startedAt: started,
      });
    });
  });
}
