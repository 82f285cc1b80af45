// `price_port` and `price_layer2`: a price, at once (src/usecases/steps/pricing.ts).

import { priceLayer2Inputs, pricePortInputs } from "../../../usecases/steps/inputs.js";
import { priceLayer2Step, pricePortStep } from "../../../usecases/steps/pricing.js";
import type { StepDeps } from "./index.js";
import { immediateStep } from "./stepListener.js";

export function pricePortListener(services: StepDeps) {
  return immediateStep(services, pricePortInputs, (inputs) => pricePortStep(services, inputs));
}

export function priceLayer2Listener(services: StepDeps) {
  return immediateStep(services, priceLayer2Inputs, (inputs) => priceLayer2Step(services, inputs));
}
