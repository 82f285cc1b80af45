// What every IO-D listener shares: reading the modal's state into the use case's raw form (the
// BGP key goes into the provider call only: never logged nor put back into a view), the form's
// identity for opening it, and building the modal with this deployment's sandbox label.
import type { ModalView } from "@slack/types";
import { IOD_ACTIONS, IOD_BLOCKS, IOD_VIEW, iodModal } from "../../../../views/iod/iodModal.js";
import type { OrderModalMetadata } from "../../../../views/orderForms.js";
import type { IodForm, IodModalData } from "../../../usecases/iod/form.js";
import { selectedValue, typedValue } from "../../kit/index.js";
import type { IodDeps } from "./index.js";

/** The form as openThenFill opens it. */
export const IOD_FORM = {
  callbackId: IOD_VIEW,
  title: "Internet On-Demand",
  loading: "your ports",
  usage: "Run `/connect iod` to open the Internet On-Demand form.",
};

/** A modal's state, whatever arrived: a forged payload is no different from a real one. */
export function readIodForm(values: unknown): IodForm {
  const sel = (field: keyof typeof IOD_BLOCKS) =>
    selectedValue(values, IOD_BLOCKS[field], IOD_ACTIONS[field]);
  const typed = (field: keyof typeof IOD_BLOCKS) =>
    typedValue(values, IOD_BLOCKS[field], IOD_ACTIONS[field]);
  return {
    accessPort: sel("accessPort"),
    routing: sel("routing"),
    asnChoice: sel("asnChoice"),
    privateAsn: typed("privateAsn"),
    publicAsn: sel("publicAsn"),
    bgpKey: typed("bgpKey"),
    ipBlock: sel("ipBlock"),
    ipv6: sel("ipv6"),
    rateLimit: typed("rateLimit"),
    duration: typed("duration"),
    geoCountry: typed("geoCountry"),
    geoCity: typed("geoCity"),
    name: typed("name"),
  };
}

/** The IO-D modal for this data, labelled as this deployment says. */
export function iodView(
  services: IodDeps,
  data: IodModalData,
  metadata: OrderModalMetadata,
): ModalView {
  return iodModal(data, { metadata, sandbox: services.sandbox });
}
