// The layer 2 form rebuilt in place when an input that changes it is set (the newest change
// wins), and Enter in a typed input that changes nothing acked without submitting.
import {
  LAYER2_ACTIONS,
  LAYER2_DISPATCH_FIELDS,
  LAYER2_ENTER_ONLY_FIELDS,
  LAYER2_VIEW,
} from "../../../../views/layer2/layer2Modal.js";
import { parseOrderMetadata } from "../../../../views/orderForms.js";
import { loadLayer2Modal } from "../../../usecases/layer2/load.js";
import type { registerFormChanges } from "../../kit/index.js";
import { layer2View, readLayer2Form } from "./form.js";
import type { Layer2Deps } from "./index.js";

/** Which inputs rebuild the form, and which only need Enter acknowledged. */
export const LAYER2_FORM_CHANGES = {
  callbackId: LAYER2_VIEW,
  what: "layer 2",
  rebuildOn: LAYER2_DISPATCH_FIELDS.map((field) => LAYER2_ACTIONS[field]),
  enterOnly: LAYER2_ENTER_ONLY_FIELDS.map((field) => LAYER2_ACTIONS[field]),
};

/** The form as it should be now, from what the person has entered so far. */
export function layer2FormRebuilt(services: Layer2Deps) {
  return async (view: Parameters<Parameters<typeof registerFormChanges>[3]>[0]) =>
    layer2View(
      services,
      await loadLayer2Modal(services, readLayer2Form(view.state)),
      parseOrderMetadata(view.private_metadata),
    );
}
