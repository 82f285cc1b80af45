// The IO-D form rebuilt in place when the port, routing or ASN choice changes (the newest
// change wins), and Enter in a typed input that changes nothing acked without submitting.
import {
  IOD_ACTIONS,
  IOD_DISPATCH_FIELDS,
  IOD_ENTER_ONLY_FIELDS,
  IOD_VIEW,
} from "../../../../views/iodModal.js";
import { parseOrderMetadata } from "../../../../views/orderForms.js";
import type { Services } from "../../../services.js";
import { loadIodModal } from "../../../usecases/iod/load.js";
import { registerFormChanges } from "../../kit/index.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { iodView, readIodForm } from "./form.js";

export function registerIodFormChanged(app: ListenerRegistry, services: Services): void {
  registerFormChanges(
    app,
    services,
    {
      callbackId: IOD_VIEW,
      what: "IO-D",
      rebuildOn: IOD_DISPATCH_FIELDS.map((field) => IOD_ACTIONS[field]),
      enterOnly: IOD_ENTER_ONLY_FIELDS.map((field) => IOD_ACTIONS[field]),
    },
    async (view) =>
      iodView(
        services,
        await loadIodModal(services, readIodForm(view.state)),
        parseOrderMetadata(view.private_metadata),
      ),
  );
}
