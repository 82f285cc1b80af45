// Data center, speed or term changed: the form rebuilt in place with that DCF's speeds only, its
// LOA path and the price (the kit's rebuildOnChange: acked at once, newest change last).
import {
  PORT_ORDER_VIEW,
  parsePortOrderMetadata,
} from "../../../../views/portOrder/portOrderModal.js";
import { previewPortOrder } from "../../../usecases/portOrder/form.js";
import type { DcfDirectory } from "../../../usecases/shared/dcfDirectory.js";
import { rebuildOnChange } from "../../kit/index.js";
import { portOrderForm, readPortOrderState } from "./formState.js";
import type { PortOrderDeps } from "./index.js";

export function portOrderFormChanged(services: PortOrderDeps, directory: DcfDirectory) {
  // No hash on the update: ordering is kept by the kit's newest-first updates; a hash would
  // make a newer change lose to the update of an older one that landed first.
  return rebuildOnChange(
    services,
    { callbackId: PORT_ORDER_VIEW, what: "port order" },
    async (view) => {
      const preview = await previewPortOrder(
        { provider: services.provider, directory },
        readPortOrderState(view.state),
      );
      return portOrderForm(services, parsePortOrderMetadata(view.private_metadata), preview);
    },
  );
}
