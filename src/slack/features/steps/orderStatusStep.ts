// `order_status`: a port order's, layer 2 connection's or IO-D service's status, at once.
import type { Services } from "../../../services.js";
import { orderStatusInputs } from "../../../usecases/steps/inputs.js";
import { orderStatusStep } from "../../../usecases/steps/orderStatus.js";
import { immediateStep } from "./stepListener.js";

export function orderStatusListener(services: Services) {
  return immediateStep(services, orderStatusInputs, (inputs) => orderStatusStep(services, inputs));
}
