// "Order this" under a port price: the order form with the priced data center, speed and term
// chosen, its LOA path and price shown as if picked by hand. Opened with the kit's openThenFill
// (a loading modal at once, the form when its preview is ready), like the layer 2 one.
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
} from "@slack/bolt";
import { parsePortOrderThis } from "../../../../views/orderThis.js";
import { PORT_ORDER_TITLE, PORT_ORDER_VIEW } from "../../../../views/portOrderModal.js";
import type { Services } from "../../../services.js";
import { type PortOrderForm, previewPortOrder } from "../../../usecases/portOrderForm.js";
import type { DcfDirectory } from "../../../usecases/shared/dcfDirectory.js";
import { openThenFill, orderRefusal } from "../../kit/index.js";
import { portOrderForm } from "./formState.js";

type ButtonArgs = Pick<
  SlackActionMiddlewareArgs<BlockAction<ButtonAction>>,
  "ack" | "body" | "action" | "respond"
> &
  Pick<AllMiddlewareArgs, "client">;

export function orderThisPort(services: Services, directory: DcfDirectory) {
  return async ({ ack, body, action, client, respond }: ButtonArgs) => {
    await ack();
    const pick = parsePortOrderThis(action.value);
    if (!pick) return;
    // Under the price, to the person who pressed it only.
    const reply = async ({ text }: { text: string }) => {
      await respond({ response_type: "ephemeral", replace_original: false, text });
    };
    const refusal = await orderRefusal(services, client, body.user.id);
    if (refusal) {
      await reply({ text: refusal.message });
      return;
    }
    const form: PortOrderForm = { dcf: pick.dcf, speed: String(pick.speedMbps), term: pick.term };
    const channelId = body.channel?.id ?? body.container?.channel_id;
    try {
      await openThenFill(
        { triggerId: body.trigger_id, services, client, reply },
        {
          callbackId: PORT_ORDER_VIEW,
          title: PORT_ORDER_TITLE,
          loading: "the price and LOA path",
          usage: "Type `/connect port order` to open the order form.",
        },
        async () =>
          // A slow provider leaves the price for later: the preview has its own deadline.
          portOrderForm(
            services,
            channelId ? { channelId } : {},
            await previewPortOrder({ provider: services.provider, directory }, form),
          ),
      );
    } catch (error) {
      services.logger.warn({ err: error }, "could not open the port order form from a price");
      await reply({
        text: "Couldn't open the order form (Slack refused it); type `/connect port order`.",
      });
    }
  };
}
