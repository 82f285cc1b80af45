// Request rules: zod schemas for every body the bot sends to the provider, enforcing what
// docs/provider/provider-api.md states. Messages are shown next to a Slack modal field, so each one names
// the field in human words and says what is wrong; every issue's `path` names the field.
import { z } from "zod";
import {
  BGP_KEY_MAX,
  BGP_KEY_MIN,
  CLASSES_OF_SERVICE,
  dcfSpeedsMbps,
  IOD_IPV6_BLOCK,
  isPrivateAsn,
  isSingapore,
  speedMbps,
} from "../domain/requestFacts.js";

// ---------------------------------------------------------------------------------------------
// Shared pieces

type Issue = { input?: unknown };
type RefineCtx = z.core.$RefinementCtx<unknown>;

export {
  BGP_KEY_MAX,
  BGP_KEY_MIN,
  CLASSES_OF_SERVICE,
  dcfSpeedsMbps,
  IOD_IPV6_BLOCK,
  isPrivateAsn,
  isSingapore,
  PRIVATE_ASN_RANGES,
  speedMbps,
} from "../domain/requestFacts.js";

type Record_ = Readonly<Record<string, unknown>>;

const isRecord = (x: unknown): x is Record_ =>
  typeof x === "object" && x !== null && !Array.isArray(x);

// Cross-field rules also run when some other field has the wrong type, so a person sees
// every problem in one submission rather than one round trip per mistake.
const whenObject = { when: (payload: z.core.ParsePayload) => isRecord(payload.value) };

const present = (v: Record_, key: string): boolean => v[key] !== undefined;

function fail(ctx: RefineCtx, path: string, message: string): void {
  ctx.addIssue({ code: "custom", message, path: [path] });
}

/** Error map: "<label> is required" when the value is missing, otherwise `otherwise`. */
const required =
  (label: string, otherwise: string, missing = `${label} is required`) =>
  (iss: Issue): string =>
    iss.input === undefined ? missing : otherwise;

/** A strict object: unknown keys are refused with a message naming them. */
function strict<S extends z.core.$ZodLooseShape>(
  label: string,
  shape: S,
  hints: Readonly<Record<string, string>> = {},
) {
  return z.strictObject(shape, {
    error: (iss) => {
      if (iss.code === "unrecognized_keys") {
        const named = iss.keys.map((k) => (hints[k] ? `${k} (use ${hints[k]})` : k));
        return `Not a field of this request: ${named.join(", ")}`;
      }
      return required(label, `${label} must be an object`)(iss);
    },
  });
}

/** Longest name the bot sends (the spec gives no limit; a longer one is a paste mistake). */
const PORT_NAME_MAX = 100;

// Names appear in Slack messages and the provider's listings, where a line break, tab or other
// control character is a paste mistake, not intent.
const PRINTABLE = /^[^\p{Cc}\p{Zl}\p{Zp}]*$/u;

// Invisible and direction-changing characters: every Unicode format character (Cf) — zero-width
// space, non-joiner and joiner (U+200B–U+200D), word joiner (U+2060), BOM (U+FEFF), soft hyphen,
// the bidirectional marks (U+200E/F, U+061C), embeddings and overrides (U+202A–U+202E) and
// isolates (U+2066–U+2069) — plus private-use and lone surrogate code points. In a name they make
// a title that shows as nothing, or one that reads differently from what it is ("gro.elpmaxe"
// shown as "example.org"): an approver must see exactly what will be ordered.
const INVISIBLE = /[\p{Cf}\p{Co}\p{Cs}]/u;
export const NAME_CHARACTERS_MESSAGE =
  "Names can't contain invisible or right-to-left control characters";

/** True when a name holds none of the characters above. One rule for every name field. */
export function hasOnlyVisibleCharacters(name: string): boolean {
  return !INVISIBLE.test(name);
}

function text(label: string) {
  return z
    .string({ error: required(label, `${label} must be text`) })
    .trim()
    .min(1, `${label} is required`);
}

// The spec types a name as a string and says no more. A name becomes the port's label in the
// provider's portal and in every listing and command line ("/connect port ams-core-01"): a space
// splits it into two words there, and an emoji shows as a picture in one place and as a code or
// a box in another (the provider's portal, a terminal, an invoice). One word of visible
// characters is what every name in the provider's own samples is.
const SPACE = /\s/u;
// Pictographs (emoji and their modifiers, flags, keycaps and the variation selector that turns a
// character into its emoji form).
const EMOJI = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u20E3|\uFE0F/u;

/** What a valid name is, said next to the field when a name is not one. */
export function nameRuleMessage(label: string, max = PORT_NAME_MAX): string {
  return `${label} must be one word: letters, digits and signs such as - _ . but no spaces or emoji, at most ${max} characters (e.g. ams-core-01)`;
}

/** True when the text holds an emoji (or a flag, keycap or emoji modifier). */
export function hasEmoji(text: string): boolean {
  return EMOJI.test(text);
}

/** True when a name is one word without emoji: the rule every name field shares. */
export function isOneWordName(name: string): boolean {
  return !SPACE.test(name) && !hasEmoji(name);
}

function nameField(label: string, max = PORT_NAME_MAX) {
  return text(label)
    .regex(PRINTABLE, `${label} can't contain line breaks, tabs or control characters`)
    .refine(hasOnlyVisibleCharacters, NAME_CHARACTERS_MESSAGE)
    .refine(isOneWordName, nameRuleMessage(label, max))
    .max(max, `${label} must be at most ${max} characters`);
}

function bool(label: string) {
  return z.boolean({ error: required(label, `${label} must be true or false`) });
}

function positiveInt(label: string, unit?: string) {
  const msg = `${label} must be a whole number${unit ? ` of ${unit}` : ""}`;
  return z
    .number({ error: required(label, msg) })
    .int(msg)
    .positive(`${label} must be greater than 0`);
}

function oneOf<const T extends readonly [string, ...string[]]>(
  label: string,
  values: T,
  described = values.join(", "),
) {
  return z.enum(values, { error: required(label, `${label} must be ${described}`) });
}

function literal<const T extends string>(label: string, value: T, msg: string) {
  return z.literal(value, { error: required(label, msg) });
}

/** A field that must not be sent in this variant; the message says what it conflicts with. */
function absent(msg: string) {
  return z.undefined({ error: msg }).optional();
}

const NUMERIC = /^\d+(\.\d+)?$/;
const WHOLE = /^\d+$/;

/** Key used by `fieldErrors` for issues about the whole body rather than one field. */
export const ROOT_FIELD = "_";

// ---------------------------------------------------------------------------------------------
// Speeds

// ---------------------------------------------------------------------------------------------
// 1. Port order body (PUT /api/company/{companyUsername}/ports/orders)

function portOrderShape(dataCenterFacility: z.ZodType<string>, speed: z.ZodType<string>) {
  return strict("Port order", {
    dataCenterFacility,
    speed,
    durationUnit: oneOf("Term unit", ["y", "m"], "y (years) or m (months)"),
    portName: nameField("Port name", PORT_NAME_MAX),
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

// ---------------------------------------------------------------------------------------------
// 2. Pricing request (POST /api/pricing/calculate)

const classOfService = () => oneOf("Class of service", CLASSES_OF_SERVICE);

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

// ---------------------------------------------------------------------------------------------
// 3. Layer 2 connection request (PUT /api/v2/company/{companyUsername}/connections/layer2)

const layer2Common = {
  name: nameField("Connection name", PORT_NAME_MAX),
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

// ---------------------------------------------------------------------------------------------
// 4. IO-D service request (POST /app-user/{companyId}/gia-service)

/**
 * Spec gap: Rule 5 says STATIC sends privateAsn true while the spec's STATIC sample sends
 * false. docs/DESIGN.md §4: send what the rule text says; the rule accepts either on input.
 */
export const IOD_STATIC_PRIVATE_ASN = true;
/** Values the spec shows; other units and payment types are not shown, so none is sent. */
export const IOD_DURATION_UNIT = "d";
export const IOD_PAYMENT_TYPE = "payg";
// "must not be present" is read literally: a key sent as false is still present.
function giaRules(v: Record_, ctx: RefineCtx): void {
  const mustBeAbsent = (key: string, msg: string) => {
    if (present(v, key)) fail(ctx, key, msg);
  };

  if (v.type === "DYNAMIC" && v.privateAsn === true) {
    const auto = v.privateAsnAutoAssign === true;
    const requested = present(v, "privateAsnRequested");
    if (!auto && !requested) {
      fail(ctx, "privateAsnRequested", `Choose private ASN auto-assign or enter one`);
    } else if (auto && requested) {
      // Both would leave it unclear which ASN the service gets.
      fail(ctx, "privateAsnRequested", `Choose auto-assign or a private ASN, not both`);
    } else if (
      requested &&
      typeof v.privateAsnRequested === "number" &&
      !isPrivateAsn(v.privateAsnRequested)
    ) {
      fail(
        ctx,
        "privateAsnRequested",
        `Private ASN must be in 64512–65534 or 4200000000–4294967294`,
      );
    }
    if (!present(v, "ipBlock"))
      fail(ctx, "ipBlock", "A private ASN needs an IPv4 block: choose its size");
    mustBeAbsent("asnId", "Public ASN can't be used with a private ASN");
  }

  if (v.type === "DYNAMIC" && v.privateAsn === false) {
    if (!present(v, "asnId")) {
      fail(ctx, "asnId", `Public ASN is required when not using a private ASN`);
    }
    mustBeAbsent("privateAsnRequested", "Private ASN can't be used with a public ASN");
    mustBeAbsent("privateAsnAutoAssign", "Private ASN auto-assign can't be used with a public ASN");
  }

  if (v.type === "DYNAMIC") {
    const auto = v.autoAssignBgpKey === true;
    const key = v.bgpKey;
    if (!auto && key === undefined) {
      fail(ctx, "bgpKey", `Enter a BGP key (6 to 24 characters) or choose auto-assign`);
    } else if (auto && key !== undefined) {
      fail(ctx, "bgpKey", `Choose BGP key auto-assign or enter a key, not both`);
    } else if (typeof key === "string" && (key.length < BGP_KEY_MIN || key.length > BGP_KEY_MAX)) {
      fail(ctx, "bgpKey", `BGP key must be 6 to 24 characters`);
    }
  }

  if (v.enableIpv6 === true && !present(v, "ipv6Block")) {
    fail(ctx, "ipv6Block", `IPv6 block is required when IPv6 is on; it can only be /48`);
  } else if (typeof v.ipv6Block === "number" && v.ipv6Block !== IOD_IPV6_BLOCK) {
    fail(ctx, "ipv6Block", `IPv6 block can only be /48`);
  }

  if (v.type === "STATIC") {
    if (v.privateAsnAutoAssign !== true) {
      fail(ctx, "privateAsnAutoAssign", `Static routing needs private ASN auto-assign on`);
    }
    if (!present(v, "ipBlock")) {
      fail(ctx, "ipBlock", "Static routing needs an IPv4 block: choose its size");
    }
    mustBeAbsent("asnId", "Public ASN can't be used with static routing");
    mustBeAbsent("privateAsnRequested", "A chosen private ASN can't be used with static routing");
    mustBeAbsent("bgpKey", "BGP key can't be used with static routing");
    mustBeAbsent("autoAssignBgpKey", "BGP key auto-assign can't be used with static routing");
  }
}

// The spec has no "required" column for IO-D; what every IO-D service needs (port, name, rate,
// routing type, ASN choice, term, payment) is required, the rest optional and ruled above.
export const giaServiceRule = strict("IO-D service", {
  accessPortId: text("Port"),
  name: nameField("Service name", PORT_NAME_MAX),
  rateLimit: positiveInt("Rate limit", "Mbps"),
  type: oneOf("Routing type", ["DYNAMIC", "STATIC"], "DYNAMIC or STATIC"),
  privateAsn: bool("Private ASN"),
  privateAsnAutoAssign: bool("Private ASN auto-assign").optional(),
  privateAsnRequested: z
    .number({ error: "Private ASN must be a whole number" })
    .int("Private ASN must be a whole number")
    .optional(),
  // z.guid, not z.uuid: ids only need the 8-4-4-4-12 hex form, not RFC 9562 version bits.
  asnId: z.guid({ error: "Public ASN must be the id of a verified ASN record" }).optional(),
  ipBlock: z
    .number({ error: "IP block must be a prefix length from 0 to 32, e.g. 28" })
    .int("IP block must be a prefix length from 0 to 32, e.g. 28")
    .min(0, "IP block must be a prefix length from 0 to 32, e.g. 28")
    .max(32, "IP block must be a prefix length from 0 to 32, e.g. 28")
    .optional(),
  enableIpv6: bool("Enable IPv6").optional(),
  ipv6Block: z
    .number({ error: "IPv6 block can only be /48" })
    .int("IPv6 block can only be /48")
    .optional(),
  autoAssignBgpKey: bool("BGP key auto-assign").optional(),
  bgpKey: z.string({ error: "BGP key must be text" }).optional(),
  defaultOriginate: bool("Default route (IPv4)").optional(),
  defaultOriginateIpv6: bool("Default route (IPv6)").optional(),
  duration: strict("Term", { quantity: positiveInt("Term"), unit: text("Term unit") }),
  paymentType: text("Payment type"),
  ipGeoCountry: z
    .string({ error: "IP geolocation country must be a two-letter code, e.g. SG" })
    .regex(/^[A-Z]{2}$/, "IP geolocation country must be a two-letter code in capitals, e.g. SG")
    .optional(),
  ipGeoCity: z.string({ error: "IP geolocation city must be text" }).optional(),
}).superRefine(giaRules, whenObject);
export type GiaServiceRequest = z.infer<typeof giaServiceRule>;

// ---------------------------------------------------------------------------------------------
// 5. Edge

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
    portName: nameField("Port name", PORT_NAME_MAX),
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
      {
        error: required(
          "Edge order details",
          "Edge order details must be an object",
          "Edge order details are required",
        ),
      },
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
    .max(PORT_NAME_MAX, `Draft name must be at most ${PORT_NAME_MAX} characters`)
    .refine(hasOnlyVisibleCharacters, NAME_CHARACTERS_MESSAGE)
    .nullable()
    .optional(),
  speed: z
    .number({ error: required("Speed", "Speed must be a number of Mbps") })
    .positive("Speed must be greater than 0"),
  edgePayload: z.record(z.string(), z.unknown(), {
    error: required(
      "Edge order details",
      "Edge order details must be an object",
      "Edge order details are required",
    ),
  }),
});
export type EdgeDraftOrderBody = z.infer<typeof edgeDraftOrderRule>;

/** Query of GET /v2/edge-ports/calculate-price. */
export const edgeCalculatePriceQueryRule = strict("Discount request", {
  quoteKey: text("Quote key"),
  discountCode: text("Discount code"),
});
export type EdgeCalculatePriceQuery = z.infer<typeof edgeCalculatePriceQueryRule>;

// ---------------------------------------------------------------------------------------------
// 6. Slack modal errors

/**
 * Maps a ZodError to {field path joined with "." → first message}, for Slack's
 * `response_action: "errors"`. Unknown keys are reported under each key's own path; issues
 * about the whole body go under ROOT_FIELD.
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (path: readonly PropertyKey[], message: string) => {
    const key = path.length === 0 ? ROOT_FIELD : path.map((p) => String(p)).join(".");
    if (!(key in out)) out[key] = message;
  };
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const k of issue.keys) put([...issue.path, k], issue.message);
    } else {
      put(issue.path, issue.message);
    }
  }
  return out;
}
