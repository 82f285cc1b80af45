// What every layer 2 listener shares: reading the modal's state into the use case's raw form,
// the form's identity for opening it, and building the modal with this deployment's sandbox
// label and currency.
import type { ModalView } from "@slack/types";
import {
  EVERGREEN_VALUE,
  LAYER2_ACTIONS,
  LAYER2_BLOCKS,
  LAYER2_VIEW,
  layer2Modal,
} from "../../../../views/layer2/layer2Modal.js";
import type { OrderModalMetadata } from "../../../../views/orderForms.js";
import type { Layer2Form, Layer2ModalData } from "../../../usecases/layer2/form.js";
import { checkboxTicked, selectedValue, typedValue } from "../../kit/index.js";
import type { Layer2Deps } from "./index.js";

/** The form as openThenFill opens it (`/connect l2` and "Order this" alike). */
export const LAYER2_FORM = {
  callbackId: LAYER2_VIEW,
  title: "Layer 2 connection",
  loading: "your ports",
  usage: "Run `/connect l2` to open the layer 2 connection form.",
};

/** A modal's state, whatever arrived: a forged payload is no different from a real one. */
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

/** The layer 2 modal for this data, labelled and priced as this deployment says. */
export function layer2View(
  services: Layer2Deps,
  data: Layer2ModalData,
  metadata: OrderModalMetadata,
  review?: boolean,
): ModalView {
  return layer2Modal(data, {
    metadata,
    sandbox: services.sandbox,
    currency: services.currency,
    ...(review ? { review } : {}),
  });
}
