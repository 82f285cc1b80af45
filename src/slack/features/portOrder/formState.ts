// The port order modal's state as the use case reads it, shared by the listeners that rebuild
// the form and the one that checks its submission. Whatever arrived is passed on as it came: a
// forged payload is no different from a real one (src/usecases/portOrder/form.ts refuses it).
import {
  PORT_ORDER_ACTIONS,
  PORT_ORDER_BLOCKS,
  type PortOrderMetadata,
  portOrderModal,
} from "../../../../views/portOrder/portOrderModal.js";
import type { PortOrderForm, PortOrderPreview } from "../../../usecases/portOrder/form.js";
import { selectedValue, typedValue } from "../../kit/index.js";
import type { PortOrderDeps } from "./index.js";

export function readPortOrderState(values: unknown): PortOrderForm {
  const B = PORT_ORDER_BLOCKS;
  const A = PORT_ORDER_ACTIONS;
  return {
    dcf: selectedValue(values, B.dcf, A.dcf),
    speed: selectedValue(values, B.speed, A.speed),
    term: selectedValue(values, B.term, A.term),
    portName: typedValue(values, B.portName, A.portName),
  };
}

/** The form as this deployment shows it (sandbox label, currency), with what is chosen so far. */
export function portOrderForm(
  services: Pick<PortOrderDeps, "sandbox" | "currency">,
  metadata: PortOrderMetadata,
  preview?: PortOrderPreview,
) {
  return portOrderModal({
    metadata,
    sandbox: services.sandbox,
    currency: services.currency,
    ...(preview ? { preview } : {}),
  });
}
