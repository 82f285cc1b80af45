// Slack glue for `/connect l2`: open the layer 2 form, rebuild it when an input that changes it
// is set, check the submission and hand it to approval. The work is in src/usecases/layer2.ts;
// what people see is in views/layer2Modal.ts. Also the small pieces the IO-D form shares
// (reading modal state, rebuilding a modal once per change, answering the requester).
import type { BlockAction, ButtonAction } from "@slack/bolt";
import { describeFailure } from "../../../views/failures.js";
import {
  EVERGREEN_VALUE,
  LAYER2_ACTIONS,
  LAYER2_BLOCKS,
  LAYER2_DISPATCH_FIELDS,
  LAYER2_ENTER_ONLY_FIELDS,
  LAYER2_VIEW,
  layer2Modal,
  type OrderModalMetadata,
  parseOrderMetadata,
} from "../../../views/layer2Modal.js";
import {
  ACTION_ORDER_THIS_L2,
  type Layer2OrderThis,
  parseLayer2OrderThis,
} from "../../../views/orderThis.js";
import { newRequestId, withRequestId } from "../../context.js";
import type { Services } from "../../services.js";
import {
  checkLayer2Submission,
  type Layer2Check,
  type Layer2Form,
  loadLayer2Modal,
  portDcfId,
} from "../../usecases/layer2.js";
import type { CommandHandler } from "../connect.js";
import {
  acknowledgeEnterIn,
  approvalsUnavailable,
  blockErrors,
  checkboxTicked,
  openThenFill,
  rebuildOnChange,
  selectedValue,
  submitAndTell,
  typedValue,
} from "../kit/index.js";
import { orderRefusal } from "../kit/orderRefusal.js";
import type { ListenerRegistry } from "../listenerTable.js";

// ---------------------------------------------------------------------------------------------
// Reading a modal's state (whatever arrived: a forged payload is no different from a real one)

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
// Opening a form, answering the requester

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
  await openThenFill(
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
        await openThenFill(
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
        await reply({ text: describeFailure(error) });
      }
    },
  );

  const rebuild = rebuildOnChange(
    services,
    { callbackId: LAYER2_VIEW, what: "layer 2" },
    async (view) => {
      const data = await loadLayer2Modal(services, readLayer2Form(view.state));
      return layer2Modal(data, {
        metadata: metadataOf(view.private_metadata),
        sandbox: services.sandbox,
        currency: services.currency,
      });
    },
  );
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
