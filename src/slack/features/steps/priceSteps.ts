// `price_port` and `price_layer2`: a price, at once (src/usecases/steps/pricing.ts).
import type { Services } from "../../../services.js";
import { priceLayer2Inputs, pricePortInputs } from "../../../usecases/steps/inputs.js";
import { priceLayer2Step, pricePortStep } from "../../../usecases/steps/pricing.js";
import { immediateStep } from "./stepListener.js";

export function pricePortListener(services: Services) {
  return immediateStep(services, pricePortInputs, (inputs) => pricePortStep(services, inputs));
}

export function priceLayer2Listener(services: Services) {
  return immediateStep(services, priceLayer2Inputs, (inputs) => priceLayer2Step(services, inputs));
}
