// The provider's price calls (one port, one layer 2 connection), each body checked by the
// pricing rule before it is sent: pricing answers with them, and the port order and layer 2
// order forms show the price of what is being ordered with them.

import type { PortDurationUnit } from "../../domain/catalog/portTerms.js";
import type {
  CallOptions,
  ConnectionPriceConfig,
  Dcf,
  PortPriceConfig,
  PricingResult,
  ProviderApi,
} from "../../provider/api.js";
import { fieldErrors } from "../../provider/rules/fieldErrors.js";
import { pricingRequestRule } from "../../provider/rules/pricing.js";

export interface PortPriceRequest {
  dcf: Dcf;
  speedMbps: number;
  durationUnit: PortDurationUnit;
  includeCrossConnect: boolean;
}

/** A request the rules refuse (the caller built it wrong: a bug, not a person's mistake). */
export class PricingRequestError extends Error {
  constructor(readonly errors: Record<string, string>) {
    super(`pricing request refused by the rules: ${JSON.stringify(errors)}`);
    this.name = "PricingRequestError";
  }
}

function firstResult(results: readonly PricingResult[]): PricingResult {
  const result = results[0];
  if (!result || typeof result !== "object") {
    throw new Error("the provider returned no pricing result for the request");
  }
  return result;
}

/** Prices one port. Every body goes through the pricing rule before it is sent. */
export async function pricePort(
  provider: ProviderApi,
  request: PortPriceRequest,
  opts: CallOptions = {},
): Promise<PricingResult> {
  const port: PortPriceConfig = {
    dcf: request.dcf.id,
    speed: request.speedMbps,
    durationUnit: request.durationUnit,
  };
  const checked = pricingRequestRule.safeParse({
    ports: [port],
    includeCrossConnect: request.includeCrossConnect,
  });
  if (!checked.success) throw new PricingRequestError(fieldErrors(checked.error));
  return firstResult(
    await provider.pricePorts([port], {
      includeCrossConnect: request.includeCrossConnect,
      ...opts,
    }),
  );
}

/** Prices one layer 2 connection (the body already passed the connection rule). */
export async function priceConnection(
  provider: ProviderApi,
  config: ConnectionPriceConfig,
  opts: CallOptions = {},
): Promise<PricingResult> {
  const checked = pricingRequestRule.safeParse({ connections: [config] });
  if (!checked.success) throw new PricingRequestError(fieldErrors(checked.error));
  return firstResult(await provider.priceConnections([config], opts));
}
