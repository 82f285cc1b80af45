// Request rules the provider enforces beyond the shape of a body. Each check returns the
// message of the first broken rule, naming it, or undefined. They read raw (unvalidated) bodies,
// so they run before the schema's own errors are reported and give the clearer message.

type Body = Readonly<Record<string, unknown>>;

const has = (body: Body, key: string) => body[key] !== undefined;

export function isObject(x: unknown): x is Body {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** Private ASN ranges (RFC 6996). */
export function isPrivateAsn(asn: number): boolean {
  return (asn >= 64512 && asn <= 65534) || (asn >= 4200000000 && asn <= 4294967294);
}

/** IO-D rules 1-5 of docs/provider/provider-api.md ("Rules for the IO-D request"). */
export function ioDRuleViolation(body: Body): string | undefined {
  const type = body.type;
  const dynamic = type === "DYNAMIC";
  if (dynamic) {
    if (typeof body.privateAsn !== "boolean") {
      return "IO-D rules 1 and 2: privateAsn (true for a private ASN, false for a public one) is required with DYNAMIC routing";
    }
    if (body.privateAsn) {
      if (body.privateAsnAutoAssign !== true && !has(body, "privateAsnRequested")) {
        return "IO-D rule 1: with a private ASN, set privateAsnAutoAssign true or give privateAsnRequested";
      }
      if (has(body, "privateAsnRequested")) {
        const asn = body.privateAsnRequested;
        if (typeof asn !== "number" || !Number.isInteger(asn) || !isPrivateAsn(asn)) {
          return "IO-D rule 1: privateAsnRequested must be a private ASN (64512-65534 or 4200000000-4294967294)";
        }
      }
      if (!has(body, "ipBlock")) return "IO-D rule 1: ipBlock is required with a private ASN";
      if (has(body, "asnId")) return "IO-D rule 1: asnId must not be sent with a private ASN";
    } else {
      if (!has(body, "asnId")) return "IO-D rule 2: asnId is required with a public ASN";
      const extra = ["privateAsnRequested", "privateAsnAutoAssign"].filter((k) => has(body, k));
      if (extra.length > 0) {
        return `IO-D rule 2: ${extra.join(" and ")} must not be sent with a public ASN`;
      }
    }
    if (body.autoAssignBgpKey !== true && !has(body, "bgpKey")) {
      return "IO-D rule 3: with DYNAMIC routing, set autoAssignBgpKey true or give a bgpKey (6 to 24 characters)";
    }
    if (has(body, "bgpKey")) {
      const key = body.bgpKey;
      if (typeof key !== "string" || key.length < 6 || key.length > 24) {
        return "IO-D rule 3: bgpKey must be 6 to 24 characters";
      }
    }
  }
  if (body.enableIpv6 === true) {
    if (!has(body, "ipv6Block"))
      return "IO-D rule 4: ipv6Block is required when enableIpv6 is true";
  }
  if (has(body, "ipv6Block") && body.ipv6Block !== 48) {
    return "IO-D rule 4: ipv6Block must be 48 (its only valid value)";
  }
  if (type === "STATIC") {
    // The rule text asks for privateAsn true while the spec's STATIC sample sends false: both pass.
    if (body.privateAsnAutoAssign !== true) {
      return "IO-D rule 5: STATIC routing needs privateAsnAutoAssign true";
    }
    if (!has(body, "ipBlock")) return "IO-D rule 5: ipBlock is required with STATIC routing";
    const forbidden = ["asnId", "privateAsnRequested", "bgpKey", "autoAssignBgpKey"].filter((k) =>
      has(body, k),
    );
    if (forbidden.length > 0) {
      return `IO-D rule 5: ${forbidden.join(", ")} must not be sent with STATIC routing`;
    }
  }
  return undefined;
}

/** Port-to-port sends destPortId only; business-to-business sends destDcf and destRegionId only. */
export function layer2ModeViolation(body: Body): string | undefined {
  const p2p = has(body, "destPortId");
  const b2bFields = ["destDcf", "destRegionId"].filter((k) => has(body, k));
  if (p2p && b2bFields.length > 0) {
    return `Layer 2 port-to-port: destPortId must not be sent with ${b2bFields.join(" and ")} (business-to-business sends destDcf and destRegionId and no destPortId)`;
  }
  if (!p2p && b2bFields.length === 0) {
    return "Layer 2: send destPortId (port-to-port) or destDcf and destRegionId (business-to-business)";
  }
  if (!p2p && b2bFields.length === 1) {
    return "Layer 2 business-to-business: destDcf and destRegionId are both required (and no destPortId)";
  }
  if (body.type !== undefined && body.type !== "LAYER2") {
    return "Layer 2: type must be LAYER2";
  }
  return undefined;
}

/** Reads a speed in Mbps from a number or a string of digits (optionally with Mbps/Gbps). */
export function speedMbps(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(mbps|m|gbps|g)?\s*$/i.exec(value);
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2]?.toLowerCase().startsWith("g") ? n * 1000 : n;
}

export const EDGE_MIN_SPEED_MBPS = 100;

/** Edge port order rules: speed of at least 100 Mbps, paymentType invoice, a port name. */
export function edgeOrderViolation(body: Body): string | undefined {
  if (has(body, "speed")) {
    const speed = speedMbps(body.speed);
    if (speed === undefined) return "Edge port order: speed must be a number of Mbps";
    if (speed < EDGE_MIN_SPEED_MBPS) {
      return `Edge port order: speed must be at least ${EDGE_MIN_SPEED_MBPS} Mbps (got ${speed})`;
    }
  }
  if (has(body, "paymentType") && body.paymentType !== "invoice") {
    return `Edge port order: paymentType ${JSON.stringify(body.paymentType)} is not supported; invoice is the only supported value`;
  }
  const name = body.portName ?? body.name;
  if (name === undefined) return "Edge port order: portName (or name) is required";
  if (typeof name !== "string" || name.trim() === "") {
    return "Edge port order: portName must be non-empty text";
  }
  return undefined;
}
