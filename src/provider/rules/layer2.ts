// Rules for the layer 2 connection request (PUT /api/v2/company/{companyUsername}/connections/layer2):
// two variants (port-to-port, business-to-business) that share no discriminator field, told apart
// by which destination fields are sent.
import { z } from "zod";
import {
  absent,
  bool,
  classOfService,
  fail,
  literal,
  positiveInt,
  present,
  strict,
  text,
  whenObject,
} from "./fields.js";
import { nameField } from "./names.js";

const layer2Common = {
  name: nameField("Connection name"),
  portId: text("Source port"),
  destCompany: text("Destination company"),
  destMetroId: text("Destination metro"),
  duration: positiveInt("Term"),
  // Only "m" appears in the spec; other units may exist but are not shown, so none is sent.
  durationUnit: literal("Term unit", "m", "Term unit must be m (months)"),
  paymentType: literal("Payment type", "invoice", "Payment type must be invoice"),
  classOfService: classOfService(),
  speed: positiveInt("Speed", "Mbps"),
  type: literal("Connection type", "LAYER2", "Connection type must be LAYER2"),
  evergreen: bool("Evergreen"),
};

const NOT_WITH_DEST_PORT = "can't be sent with a destination port (port-to-port)";

export const layer2PortToPortRule = strict("Layer 2 connection", {
  ...layer2Common,
  destPortId: text("Destination port"),
  destDcf: absent(`Destination data center ${NOT_WITH_DEST_PORT}; choose a port or a data center`),
  destRegionId: absent(`Destination region ${NOT_WITH_DEST_PORT}; choose a port or a region`),
});
export type Layer2PortToPortRequest = z.infer<typeof layer2PortToPortRule>;

export const layer2BusinessToBusinessRule = strict("Layer 2 connection", {
  ...layer2Common,
  destDcf: text("Destination data center"),
  destRegionId: text("Destination region"),
  destPortId: absent(
    "Destination port can't be sent with a destination data center and region (business-to-business)",
  ),
});
export type Layer2BusinessToBusinessRequest = z.infer<typeof layer2BusinessToBusinessRule>;

const B2B_FIELDS = [
  ["destDcf", "destination data center", "Destination data center"],
  ["destRegionId", "destination region", "Destination region"],
] as const;

/**
 * Either variant. The variants share no discriminator field, so the destination fields decide:
 * destPortId means port-to-port; destDcf with destRegionId means business-to-business.
 */
export const layer2Rule = strict("Layer 2 connection", {
  ...layer2Common,
  destPortId: text("Destination port").optional(),
  destDcf: text("Destination data center").optional(),
  destRegionId: text("Destination region").optional(),
})
  .superRefine((v, ctx) => {
    const b2b = B2B_FIELDS.filter(([key]) => present(v, key));
    if (present(v, "destPortId")) {
      if (b2b.length === 0) return;
      const names = b2b.map(([, label]) => label).join(" and ");
      fail(
        ctx,
        "destPortId",
        `Destination port conflicts with ${names}: choose port-to-port or business-to-business`,
      );
      for (const [key, , label] of b2b) {
        fail(ctx, key, `${label} conflicts with destination port: choose one kind of connection`);
      }
      return;
    }
    if (b2b.length === 0) {
      fail(ctx, "destPortId", "Choose a destination port, or a destination data center and region");
      return;
    }
    if (!present(v, "destDcf")) {
      fail(ctx, "destDcf", "Destination data center is required with a destination region");
    }
    if (!present(v, "destRegionId")) {
      fail(ctx, "destRegionId", "Destination region is required with a destination data center");
    }
  }, whenObject)
  .pipe(z.union([layer2PortToPortRule, layer2BusinessToBusinessRule]));
export type Layer2Request = z.infer<typeof layer2Rule>;
