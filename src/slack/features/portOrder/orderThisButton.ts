// "Order this" under a port price: the order form with the priced data center, speed and term
// chosen, its LOA path and price shown as if picked by hand. The kit's orderThisButton (ack, the
// requester check, then open) with openThenFill (a loading modal at once, the form when its
// preview is ready), like the layer 2 one.
import { parsePortOrderThis } from "../../../../views/orderThis.js";
import { PORT_ORDER_TITLE, PORT_ORDER_VIEW } from "../../../../views/portOrder/portOrderModal.js";
import { type PortOrderForm, previewPortOrder } from "../../../usecases/portOrder/form.js";
import type { DcfDirectory } from "../../../usecases/shared/dcfDirectory.js";
import { modalOpener, openThenFill, orderThisButton } from "../../kit/index.js";
import { portOrderForm } from "./formState.js";
import type { PortOrderDeps } from "./index.js";

export function orderThisPort(services: PortOrderDeps, directory: DcfDirectory) {
  return orderThisButton({
    services,
    parse: parsePortOrderThis,
    open: async (pick, { triggerId, client, channelId, reply }) => {
      const form: PortOrderForm = {
        dcf: pick.dcf,
        speed: String(pick.speedMbps),
        term: pick.term,
      };
      try {
        await openThenFill(
          {
            triggerId,
            sandbox: services.sandbox,
            openModal: modalOpener(client, triggerId, services.sandbox),
            reply,
          },
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
    },
  });
}
