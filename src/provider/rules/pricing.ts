// Rules for the pricing request (POST /api/pricing/calculate): one operation that prices either
// ports or layer 2 connections, never both, so the two item rules and the either-or live here.
import { z } from "zod";
import {
  bool,
  classOfService,
  fail,
  oneOf,
  positiveInt,
  present,
  required,
  strict,
  text,
  whenObject,
} from "./fields.js";

// One spec sample names the port term `duration`; docs/DESIGN.md §4 says send `durationUnit`.
export const pricingPortConfigRule = strict(
  "Port",
  {
    dcf: text("Data center"),
    speed: positiveInt("Speed", "Mbps"),
    durationUnit: oneOf("Term unit", ["y", "m"], "y (years) or m (months)"),
  },
  { duration: "durationUnit" },
);
export type PricingPortConfig = z.infer<typeof pricingPortConfigRule>;

export const pricingConnectionConfigRule = strict("Connection", {
  bandwidth: positiveInt("Bandwidth", "Mbps"),
  classOfService: classOfService(),
  duration: strict("Term", {
    value: positiveInt("Term"),
    unit: oneOf("Term unit", ["m", "w"], "m (months) or w (weeks)"),
  }),
  srcDcf: text("Source data center"),
  destDcf: text("Destination data center"),
});
export type PricingConnectionConfig = z.infer<typeof pricingConnectionConfigRule>;

const pricingPorts = z
  .array(pricingPortConfigRule, { error: required("Ports", "Ports must be a list") })
  .min(1, "Add at least one port to price");
const pricingConnections = z
  .array(pricingConnectionConfigRule, {
    error: required("Connections", "Connections must be a list"),
  })
  .min(1, "Add at least one connection to price");

/**
 * Exactly one of `ports` / `connections`. `includeCrossConnect` only changes port results, so
 * it is refused with connections rather than silently ignored.
 */
export const pricingRequestRule = strict("Pricing request", {
  ports: pricingPorts.optional(),
  connections: pricingConnections.optional(),
  includeCrossConnect: bool("Include cross connect").optional(),
})
  .superRefine((v, ctx) => {
    const hasPorts = present(v, "ports");
    const hasConnections = present(v, "connections");
    if (hasPorts && hasConnections) {
      fail(ctx, "connections", "Price either ports or connections, not both");
    } else if (!hasPorts && !hasConnections) {
      fail(ctx, "ports", "Add ports or connections to price");
    } else if (hasConnections && present(v, "includeCrossConnect")) {
      fail(ctx, "includeCrossConnect", "Include cross connect applies only to port prices");
    }
  }, whenObject)
  .pipe(
    z.union([
      strict("Pricing request", {
        ports: pricingPorts,
        includeCrossConnect: bool("Include cross connect").optional(),
      }),
      strict("Pricing request", { connections: pricingConnections }),
    ]),
  );
export type PricingRequest = z.infer<typeof pricingRequestRule>;
