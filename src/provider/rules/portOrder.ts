// Rule for the port order body (PUT /api/company/{companyUsername}/ports/orders): the one
// request whose valid values depend on a record (the chosen DCF's speeds), so it comes both as a
// plain rule and as a rule built for one DCF.
import { z } from "zod";
import { dcfSpeedsMbps, speedMbps } from "../../domain/catalog/requestFacts.js";
import { literal, oneOf, required, strict, text } from "./fields.js";
import { nameField } from "./names.js";

function portOrderShape(dataCenterFacility: z.ZodType<string>, speed: z.ZodType<string>) {
  return strict("Port order", {
    dataCenterFacility,
    speed,
    durationUnit: oneOf("Term unit", ["y", "m"], "y (years) or m (months)"),
    portName: nameField("Port name"),
    paymentType: literal("Payment type", "invoice", "Payment type must be invoice"),
  });
}

/**
 * The port order body without the DCF check (the speed need only be readable). The speed
 * string is sent as given: the spec says only "string", so whichever form the caller took
 * from the DCF record is kept.
 */
export const portOrderBodyRule = portOrderShape(
  text("Data center"),
  z
    .string({ error: required("Speed", "Speed must be text, e.g. 10000") })
    .refine((s) => speedMbps(s) !== undefined, "Speed must be a speed in Mbps, e.g. 10000"),
);
export type PortOrderBody = z.infer<typeof portOrderBodyRule>;

/** Port order body for one DCF: its username, and a speed among its valid speeds (Errors rule 1). */
export function portOrderRule(dcf: { username: string; speeds: unknown[] }) {
  const allowed = dcfSpeedsMbps(dcf.speeds);
  const speedMsg =
    allowed.length === 0
      ? "This data center lists no valid speeds; choose another data center"
      : `Speed must be one of this data center's speeds: ${allowed.join(", ")} Mbps`;
  return portOrderShape(
    text("Data center").refine(
      (u) => u === dcf.username,
      `Data center must be the chosen one (${dcf.username})`,
    ),
    z
      .string({ error: required("Speed", speedMsg) })
      .refine((s) => allowed.includes(speedMbps(s) ?? Number.NaN), speedMsg),
  );
}
