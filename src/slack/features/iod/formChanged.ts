// The IO-D form rebuilt in place when the port, routing or ASN choice changes (the newest
// change wins), and Enter in a typed input that changes nothing acked without submitting.
import type { BlockAction } from "@slack/bolt";
import {
  IOD_ACTIONS,
  IOD_DISPATCH_FIELDS,
  IOD_ENTER_ONLY_FIELDS,
  IOD_VIEW,
} from "../../../../views/iodModal.js";
import { parseOrderMetadata } from "../../../../views/orderForms.js";
import type { Services } from "../../../services.js";
import { loadIodModal } from "../../../usecases/iod/load.js";
import { acknowledgeEnterIn, rebuildOnChange } from "../../kit/index.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { iodView, readIodForm } from "./form.js";

export function registerIodFormChanged(app: ListenerRegistry, services: Services): void {
  const rebuild = rebuildOnChange(services, { callbackId: IOD_VIEW, what: "IO-D" }, async (view) =>
    iodView(
      services,
      await loadIodModal(services, readIodForm(view.state)),
      parseOrderMetadata(view.private_metadata),
    ),
  );
  for (const field of IOD_DISPATCH_FIELDS) {
    app.action<BlockAction>(IOD_ACTIONS[field], rebuild);
  }
  acknowledgeEnterIn(
    app,
    IOD_ENTER_ONLY_FIELDS.map((field) => IOD_ACTIONS[field]),
  );
}
