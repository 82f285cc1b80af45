// Deterministic prices. Ports: a monthly list price by speed, scaled by the DCF's region and
// kind, times the term. Connections: the spec's formula over a region-to-region rate table.
import type { Dcf, Region, Schemas } from "./model.js";

/** A pricing request the sandbox refuses; the message names the rule. */
export class PricingError extends Error {}

/** Monthly list price of a port by speed (Mbps), before the region multiplier. */
export const PORT_MONTHLY_BY_SPEED: Readonly<Record<number, number>> = {
  100: 180,
  1000: 350,
  10000: 1200,
  100000: 4800,
  400000: 12000,
};

/** Month-to-month terms cost more than a yearly commitment. */
export const MONTHLY_TERM_PREMIUM = 1.15;
/** Off-net ports are resold through a partner. */
export const OFF_NET_PREMIUM = 1.25;
/** One-off cross connect charge before the region multiplier (0 where it is free). */
export const CROSS_CONNECT_BASE = 300;

export const CONNECTION_MARGIN = 0.2;
export const OFF_NET_PORT_FEE = 50;

/** Bandwidth bands (Mbps, inclusive) and their monthly SILVER price within one region. */
export const BANDWIDTH_BANDS: ReadonlyArray<{ from: number; to: number; price: number }> = [
  { from: 1, to: 50, price: 40 },
  { from: 51, to: 100, price: 60 },
  { from: 101, to: 200, price: 95 },
  { from: 201, to: 500, price: 180 },
  { from: 501, to: 1000, price: 300 },
  { from: 1001, to: 2000, price: 520 },
  { from: 2001, to: 5000, price: 1100 },
  { from: 5001, to: 10000, price: 1900 },
  { from: 10001, to: 100000, price: 9000 },
];

export const COS_FACTOR: Readonly<Record<string, number>> = {
  BRONZE: 0.85,
  SILVER: 1,
  SILVERPLUS: 1.15,
  GOLD: 1.35,
};

export const CONNECTION_FORMULA = "(bandwidthCost*multiplier)*duration/(1-margin)+portFee";

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface PricingContext {
  dcfById(id: string): Dcf | undefined;
  regionById(id: string): Region | undefined;
  /** Whether layer 2 is available in a DCF's metro. */
  layer2InMetro(metroId: string): boolean;
  metroName(metroId: string): string;
  nowMs: number;
}

function pricingDcf(dcf: Dcf): Schemas["PricingDcf"] {
  return {
    id: dcf.id,
    name: dcf.name,
    popId: dcf.record.popIds?.[0] ?? null,
    regionIds: [dcf.regionId],
    metroIds: [dcf.metroId],
    tags: [...dcf.tags],
  };
}

function requireDcf(ctx: PricingContext, id: string, field: string): Dcf {
  const dcf = ctx.dcfById(id);
  if (!dcf) throw new PricingError(`${field}: no DCF with id ${id}`);
  return dcf;
}

export interface PortPriceInput {
  dcf: string;
  speed: number;
  durationUnit: string;
}

/** Checks a DCF and speed are orderable: a DCF/speed that prices is orderable. */
export function checkOrderable(dcf: Dcf, speed: number): void {
  if (!dcf.ready) throw new PricingError(`DCF ${dcf.name} is not ready for orders yet`);
  if (!dcf.speeds.includes(speed)) {
    throw new PricingError(
      `Speed ${speed} Mbps is not offered at DCF ${dcf.name}; valid speeds (Mbps): ${dcf.speeds.join(", ")}`,
    );
  }
}

export function priceTermMonths(durationUnit: string): number {
  if (durationUnit === "y") return 12;
  if (durationUnit === "m") return 1;
  throw new PricingError(`durationUnit must be y (a year) or m (a month), not "${durationUnit}"`);
}

/**
 * The amounts of a price with no discount, as the provider answers them: the total, the monthly
 * pre-authorisation, and the "basic" (before discount) amounts equal to them.
 */
function undiscounted(price: number, monthly: number) {
  return {
    price,
    preAuthAmount: monthly,
    amountSaved: null,
    amountSavedTotal: null,
    basicTotalAmount: price,
    basicMonthlyAmount: monthly,
    priceCalculatorAttributes: { discountIds: [], discounts: [] },
  };
}

export function portPrice(
  ctx: PricingContext,
  input: PortPriceInput,
  includeCrossConnect: boolean,
): Schemas["PricingResult"] {
  const dcf = requireDcf(ctx, input.dcf, "dcf");
  checkOrderable(dcf, input.speed);
  const months = priceTermMonths(input.durationUnit);
  const region = ctx.regionById(dcf.regionId);
  const multiplier = region?.priceMultiplier ?? 1;
  const list = PORT_MONTHLY_BY_SPEED[input.speed];
  if (list === undefined) throw new PricingError(`Speed ${input.speed} Mbps has no price`);
  const monthly = round2(
    list *
      multiplier *
      (dcf.kind === "OFF_NET" ? OFF_NET_PREMIUM : 1) *
      (months === 1 ? MONTHLY_TERM_PREMIUM : 1),
  );
  const price = round2(monthly * months);
  const result: Schemas["PricingResult"] = {
    type: "PORT",
    entity: {
      dcf: pricingDcf(dcf),
      speed: input.speed,
      discountId: null,
      durationUnit: input.durationUnit,
    },
    ...undiscounted(price, monthly),
  };
  if (includeCrossConnect) {
    result.crossConnectAmount = dcf.freeCrossConnect ? 0 : round2(CROSS_CONNECT_BASE * multiplier);
  }
  return result;
}

export interface ConnectionPriceInput {
  bandwidth: number;
  classOfService: string;
  duration: { value: number; unit: string };
  srcDcf: string;
  destDcf: string;
}

/** Region pair factor of the rate table (symmetric). */
function regionPairFactor(from: Region, to: Region): number {
  if (from.id === to.id) return 1;
  const names = [from.name, to.name].sort().join("|");
  const table: Record<string, number> = {
    "Europe|North America": 1.8,
    "Asia Pacific|North America": 2.4,
    "Asia Pacific|Europe": 2.2,
  };
  return table[names] ?? 2.5;
}

/** The term as a number of months (the `duration` factor). */
export function durationMonths(duration: { value: number; unit: string }): number {
  if (!Number.isInteger(duration.value) || duration.value < 1) {
    throw new PricingError("duration.value must be a whole number of at least 1");
  }
  switch (duration.unit) {
    case "m":
      return duration.value;
    case "w":
      return Math.round(((duration.value * 7) / 30) * 1e4) / 1e4;
    case "y":
      return duration.value * 12;
    default:
      throw new PricingError(
        `duration.unit must be m (months), w (weeks) or y (years), not "${duration.unit}"`,
      );
  }
}

export function bandwidthRate(
  from: Region,
  to: Region,
  bandwidth: number,
  classOfService: string,
): { price: number; bandwidth: { from: number; to: number }; cos: string } {
  const band = BANDWIDTH_BANDS.find((b) => bandwidth >= b.from && bandwidth <= b.to);
  if (!band) {
    throw new PricingError(`bandwidth must be from 1 to 100000 Mbps, not ${bandwidth}`);
  }
  const cos = COS_FACTOR[classOfService];
  if (cos === undefined) throw new PricingError(`classOfService ${classOfService} is not offered`);
  return {
    price: round2(band.price * regionPairFactor(from, to) * cos),
    bandwidth: { from: band.from, to: band.to },
    cos: classOfService,
  };
}

export function connectionPrice(
  ctx: PricingContext,
  input: ConnectionPriceInput,
): Schemas["PricingResult"] {
  const src = requireDcf(ctx, input.srcDcf, "srcDcf");
  const dest = requireDcf(ctx, input.destDcf, "destDcf");
  for (const dcf of [src, dest]) {
    if (!ctx.layer2InMetro(dcf.metroId)) {
      throw new PricingError(
        `Layer 2 is not available in metro ${ctx.metroName(dcf.metroId)} (DCF ${dcf.name})`,
      );
    }
  }
  const fromRegion = ctx.regionById(src.regionId)!;
  const toRegion = ctx.regionById(dest.regionId)!;
  const rate = bandwidthRate(fromRegion, toRegion, input.bandwidth, input.classOfService);
  const months = durationMonths(input.duration);
  const multiplier = Math.max(fromRegion.priceMultiplier, toRegion.priceMultiplier);
  const portFee = [src, dest].filter((d) => d.kind === "OFF_NET").length * OFF_NET_PORT_FEE;
  const bandwidthCost = rate.price;
  const price = round2((bandwidthCost * multiplier * months) / (1 - CONNECTION_MARGIN) + portFee);
  const monthly = round2((bandwidthCost * multiplier) / (1 - CONNECTION_MARGIN));
  const region = (r: Region) => ({ id: r.id, name: r.name, regionIds: [r.id] });
  const endMs = ctx.nowMs + Math.round(months * 30 * 24 * 3600 * 1000);
  return {
    type: "CONNECTION",
    entity: {
      srcDcf: pricingDcf(src),
      destDcf: pricingDcf(dest),
      duration: {
        from: new Date(ctx.nowMs).toISOString(),
        to: new Date(endMs).toISOString(),
        unit: input.duration.unit,
        value: input.duration.value,
      },
      bandwidth: input.bandwidth,
      classOfService: input.classOfService,
      discountId: null,
    },
    ...undiscounted(price, monthly),
    formula: CONNECTION_FORMULA,
    factors: [
      { name: "margin", number: CONNECTION_MARGIN, ref: null },
      { name: "portFee", number: portFee, ref: null },
      { name: "nniFee", number: 0, ref: null },
      {
        name: "bandwidthCost",
        number: bandwidthCost,
        ref: { from: region(fromRegion), to: region(toRegion), price: rate },
      },
      { name: "multiplier", number: multiplier, ref: null },
      { name: "duration", number: months, ref: null },
    ],
  };
}
