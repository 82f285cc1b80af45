// "Order this" under a layer 2 price: the layer 2 form opened business-to-business to the
// priced destination data center (its metro), from your port in the priced source data center
// when you have one there, with the bandwidth, class of service and term priced.
import { describeFailure } from "../../../../views/failures.js";
import { type Layer2OrderThis, parseLayer2OrderThis } from "../../../../views/orderThis.js";
import type { Layer2Form } from "../../../usecases/layer2/form.js";
import { loadLayer2Modal, portDcfId } from "../../../usecases/layer2/load.js";
import { modalOpener, openThenFill, orderThisButton } from "../../kit/index.js";
import { LAYER2_FORM, layer2View } from "./form.js";
import type { Layer2Deps } from "./index.js";

/** The form's raw values for a priced connection (what the person would have picked). */
export async function orderPricedConnection(
  services: Layer2Deps,
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

export function layer2OrderThisButton(services: Layer2Deps) {
  return orderThisButton({
    services,
    parse: parseLayer2OrderThis,
    open: async (pick, { triggerId, client, channelId, reply }) => {
      try {
        await openThenFill(
          {
            triggerId,
            sandbox: services.sandbox,
            openModal: modalOpener(client, triggerId, services.sandbox),
            reply,
          },
          LAYER2_FORM,
          async () =>
            layer2View(
              services,
              await loadLayer2Modal(services, await orderPricedConnection(services, pick)),
              channelId ? { channelId } : {},
            ),
        );
      } catch (error) {
        services.logger.warn({ err: error }, "could not open the layer 2 form from a price");
        await reply({ text: describeFailure(error) });
      }
    },
  });
}
