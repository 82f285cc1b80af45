// The IO-D form rebuilt in place when the port, routing or ASN choice changes (the newest
// change wins), and Enter in a typed input that changes nothing acked without submitting.
import {
  IOD_ACTIONS,
  IOD_DISPATCH_FIELDS,
  IOD_ENTER_ONLY_FIELDS,
  IOD_VIEW,
} from "../../../../views/iod/iodModal.js";
import { parseOrderMetadata } from "../../../../views/orderForms.js";
import { loadIodModal } from "../../../usecases/iod/load.js";
import type { registerFormChanges } from "../../kit/index.js";
import { iodView, readIodForm } from "./form.js";
import type { IodDeps } from "./index.js";

/** Which inputs rebuild the form, and which only need Enter acknowledged. */
export const IOD_FORM_CHANGES = {
  callbackId: IOD_VIEW,
  what: "IO-D",
  rebuildOn: IOD_DISPATCH_FIELDS.map((field) => IOD_ACTIONS[field]),
  enterOnly: IOD_ENTER_ONLY_FIELDS.map((field) => IOD_ACTIONS[field]),
};

/** The form as it should be now, from what the person has entered so far. */
export function iodFormRebuilt(services: IodDeps) {
  return async (view: Parameters<Parameters<typeof registerFormChanges>[3]>[0]) =>
    iodView(
      services,
      await loadIodModal(services, readIodForm(view.state)),
      parseOrderMetadata(view.private_metadata),
    );
}
