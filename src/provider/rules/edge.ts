// Rules for the Edge requests: the quote body (price, price/search, send-select, send-enquiry),
// the Edge port order, the draft order and the discount query. Edge numbers come as text, and a
// Singapore address needs a postcode.
import { z } from "zod";
import { isSingapore, NAME_MAX } from "../../domain/catalog/requestFacts.js";
import { bool, fail, oneOf, required, strict, text, whenObject } from "./fields.js";
import { hasOnlyVisibleCharacters, NAME_CHARACTERS_MESSAGE, nameField } from "./names.js";

const NUMERIC = /^\d+(\.\d+)?$/;
const EDGE_DETAILS_ERROR = required(
  "Edge order details",
  "Edge order details must be an object",
  "Edge order details are required",
);
const WHOLE = /^\d+$/;

function numericText(label: string, pattern: RegExp, example: string) {
  const msg = `${label} must be a number, e.g. ${example}`;
  return z
    .string({ error: required(label, msg) })
    .trim()
    .regex(pattern, msg)
    .refine((s) => Number(s) > 0, `${label} must be greater than 0`);
}

/** Body of the Edge quote calls (price, price/search, send-select, send-enquiry). */
export const edgeQuotationRule = strict("Edge quote", {
  country: z.record(z.string(), z.unknown(), {
    error: required("Country", "Country must be one of the Edge countries"),
  }),
  bandwidth: numericText("Bandwidth", NUMERIC, "100"),
  bandwidthUnit: oneOf("Bandwidth unit", ["Mbps", "Gbps"], "Mbps or Gbps"),
  "contract-term": numericText("Contract term", WHOLE, "12"),
  contractTermUnit: text("Contract term unit"),
  "formatted-address": text("Address"),
  postCode: z.string({ error: "Postcode must be text" }).trim().nullable().optional(),
  withMetro: bool("Include metro").optional(),
}).superRefine((v, ctx) => {
  if (!isSingapore(v.country)) return;
  const code = v.postCode;
  if (code === undefined || code === null || code === "") {
    fail(ctx, "postCode", "Postcode is required for a Singapore address");
  } else if (typeof code === "string" && !/^\d{6}$/.test(code)) {
    fail(ctx, "postCode", "Singapore postcode must be 6 digits");
  }
}, whenObject);
export type EdgeQuotationRequest = z.infer<typeof edgeQuotationRule>;

export const EDGE_MIN_SPEED_MBPS = 100;
const EDGE_SPEED_MSG = "Edge port speed must be at least 100 Mbps";

/** Body of POST /api/company/{companyName}/ports/edge-orders (Errors rules 2 and 3). */
export const edgePortOrderRule = strict(
  "Edge port order",
  {
    portName: nameField("Port name"),
    speed: z
      .union([z.number(), z.string()], {
        error: required("Speed", "Edge port speed must be a number of Mbps"),
      })
      .superRefine((s, ctx) => {
        const digits = typeof s === "string" ? s.trim() : undefined;
        if (digits !== undefined && !NUMERIC.test(digits)) {
          ctx.addIssue({
            code: "custom",
            message: "Edge port speed must be a number of Mbps",
            input: s,
          });
          return;
        }
        const mbps = Number(digits ?? s);
        if (!Number.isFinite(mbps) || mbps < EDGE_MIN_SPEED_MBPS) {
          ctx.addIssue({ code: "custom", message: EDGE_SPEED_MSG, input: s });
        }
      }),
    // The spec says default invoice, so it may be left out; any other value is refused.
    paymentType: z
      .literal("invoice", { error: "Edge orders support only invoice payment" })
      .optional(),
    // Contents are not shown beyond an object; draftOrderId deletes that draft after the order.
    edgePayload: z.looseObject(
      {
        draftOrderId: z
          .string({ error: "Draft order id must be text" })
          .trim()
          .min(1, "Draft order id can't be empty")
          .optional(),
      },
      { error: EDGE_DETAILS_ERROR },
    ),
  },
  // The spec's own sample names the port `name`; docs/DESIGN.md §4 says send `portName`.
  { name: "portName" },
);
export type EdgePortOrderRequest = z.infer<typeof edgePortOrderRule>;

/** Body of POST /v2/api/draft/orders and PATCH /v2/api/draft/orders/{draftOrderId}. */
export const edgeDraftOrderRule = strict("Draft order", {
  // Left out, the service names it "Draft order DD-MM-YYYY"; an empty name would not.
  name: z
    .string({ error: "Draft name must be text" })
    .trim()
    .min(1, "Draft name can't be empty; leave it out for the default name")
    .max(NAME_MAX, `Draft name must be at most ${NAME_MAX} characters`)
    .refine(hasOnlyVisibleCharacters, NAME_CHARACTERS_MESSAGE)
    .nullable()
    .optional(),
  speed: z
    .number({ error: required("Speed", "Speed must be a number of Mbps") })
    .positive("Speed must be greater than 0"),
  edgePayload: z.record(z.string(), z.unknown(), { error: EDGE_DETAILS_ERROR }),
});
export type EdgeDraftOrderBody = z.infer<typeof edgeDraftOrderRule>;

/** Query of GET /v2/edge-ports/calculate-price. */
export const edgeCalculatePriceQueryRule = strict("Discount request", {
  quoteKey: text("Quote key"),
  discountCode: text("Discount code"),
});
export type EdgeCalculatePriceQuery = z.infer<typeof edgeCalculatePriceQueryRule>;
