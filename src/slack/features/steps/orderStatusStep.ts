// `order_status`: a port order's, layer 2 connection's or IO-D service's status, at once.

import { orderStatusInputs } from "../../../usecases/steps/inputs.js";
import { orderStatusStep } from "../../../usecases/steps/orderStatus.js";
import type { StepDeps } from "./index.js";
import { immediateStep } from "./stepListener.js";

export function orderStatusListener(services: StepDeps) {
  return immediateStep(services, orderStatusInputs, (inputs) => orderStatusStep(services, inputs));
}
