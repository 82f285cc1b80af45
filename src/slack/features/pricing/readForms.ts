// The two price forms' state as it arrived (a forged payload is no different from a real one),
// read into the plain values the use cases check.
import type { ViewOutput } from "@slack/bolt";
import {
  CROSS_CONNECT_VALUE,
  L2_PRICE_ACTIONS,
  L2_PRICE_BLOCKS,
  PORT_PRICE_ACTIONS,
  PORT_PRICE_BLOCKS,
} from "../../../../views/pricing/pricingModals.js";
import type { ConnectionPriceForm } from "../../../usecases/pricing/connectionPrice.js";
import type { PortPriceForm } from "../../../usecases/pricing/portPrice.js";
import { checkboxTicked, selectedValue, typedValue } from "../../kit/index.js";

type StateValues = ViewOutput["state"]["values"];

function crossConnectTicked(values: unknown): unknown {
  return checkboxTicked(
    values,
    PORT_PRICE_BLOCKS.includeCrossConnect,
    PORT_PRICE_ACTIONS.includeCrossConnect,
    CROSS_CONNECT_VALUE,
  );
}

export function readPortPriceForm(values: StateValues | unknown): PortPriceForm {
  return {
    dcf: selectedValue(values, PORT_PRICE_BLOCKS.dcf, PORT_PRICE_ACTIONS.dcf),
    speed: selectedValue(values, PORT_PRICE_BLOCKS.speed, PORT_PRICE_ACTIONS.speed),
    term: selectedValue(values, PORT_PRICE_BLOCKS.term, PORT_PRICE_ACTIONS.term),
    includeCrossConnect: crossConnectTicked(values),
  };
}

export function readConnectionPriceForm(values: StateValues | unknown): ConnectionPriceForm {
  return {
    srcDcf: selectedValue(values, L2_PRICE_BLOCKS.srcDcf, L2_PRICE_ACTIONS.srcDcf),
    destDcf: selectedValue(values, L2_PRICE_BLOCKS.destDcf, L2_PRICE_ACTIONS.destDcf),
    bandwidth: typedValue(values, L2_PRICE_BLOCKS.bandwidth, L2_PRICE_ACTIONS.bandwidth),
    classOfService: selectedValue(
      values,
      L2_PRICE_BLOCKS.classOfService,
      L2_PRICE_ACTIONS.classOfService,
    ),
    duration: typedValue(values, L2_PRICE_BLOCKS.duration, L2_PRICE_ACTIONS.duration),
    durationUnit: selectedValue(
      values,
      L2_PRICE_BLOCKS.durationUnit,
      L2_PRICE_ACTIONS.durationUnit,
    ),
  };
}
