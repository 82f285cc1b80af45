// The IO-D submission: the form checked against fresh provider data (load.ts) and the
// provider's IO-D rules (giaServiceRule), only the fields of the chosen routing and ASN read;
// what passes becomes the order handed to approval. The BGP key goes into the provider call and
// nowhere else: the summary says "set (hidden)".

import { remainingCapacity } from "../../domain/catalog/connections.js";
import { isCountryCode } from "../../domain/catalog/countries.js";
import {
  type IodAsnChoice,
  IPV4_BLOCKS,
  IPV4_NONE,
  IPV6_OFF,
  iodBillingText,
  notEnabledText,
  offeredAsnChoices,
} from "../../domain/catalog/iod.js";
import { IOD_IPV6_BLOCK } from "../../domain/catalog/requestFacts.js";
import { MAX_TERM_DAYS, maxTermText } from "../../domain/catalog/terms.js";
import { BEFORE_ACK_BUDGET_MS } from "../../domain/slackBudget.js";
import { formatMbps, formatNumber } from "../../domain/units.js";
import type { OrderSubmission } from "../../orders/index.js";
import type { Asn, Port } from "../../provider/api.js";
import {
  giaServiceRule,
  IOD_DURATION_UNIT,
  IOD_PAYMENT_TYPE,
  IOD_STATIC_PRIVATE_ASN,
} from "../../provider/rules/iod.js";
import {
  addRuleErrors,
  loadForCheck,
  oneLine,
  portLabel,
  SLOW_PROVIDER,
  takenName,
} from "../shared/orderForms.js";
import {
  asnChoiceOf,
  GEO_CITY_MAX,
  type IodDeps,
  type IodField,
  type IodForm,
  type IodModalData,
  type IodRouting,
  whole,
} from "./form.js";
import { loadIodModal } from "./load.js";

export type IodErrors = Partial<Record<IodField, string>>;

export type IodCheck =
  | { kind: "invalid"; errors: IodErrors }
  | { kind: "ready"; submission: OrderSubmission; data: IodModalData };

/** Slack waits 3 s for a submission's answer; the provider gets 2 of them. */
export const IOD_SUBMIT_DEADLINE_MS = BEFORE_ACK_BUDGET_MS;

function rulePathToField(path: string, routing: IodRouting): IodField {
  switch (path.split(".")[0]) {
    case "accessPortId":
      return "accessPort";
    case "name":
      return "name";
    case "rateLimit":
      return "rateLimit";
    case "type":
      return "routing";
    case "privateAsn":
    case "privateAsnAutoAssign":
      return routing === "STATIC" ? "routing" : "asnChoice";
    case "privateAsnRequested":
      return "privateAsn";
    case "asnId":
      return "publicAsn";
    case "ipBlock":
      return "ipBlock";
    case "enableIpv6":
    case "ipv6Block":
      return "ipv6";
    case "autoAssignBgpKey":
    case "bgpKey":
      return routing === "STATIC" ? "routing" : "bgpKey";
    case "duration":
      return "duration";
    case "ipGeoCountry":
      return "geoCountry";
    case "ipGeoCity":
      return "geoCity";
    default:
      return "name";
  }
}

function placeOf(port: Port): string | undefined {
  const parts = [port.dataCenterFacility?.name, port.metro?.name].filter(
    (p): p is string => typeof p === "string" && p !== "",
  );
  return parts.length > 0 ? parts.join(", ") : undefined;
}

function asnText(asn: Asn): string {
  return [`AS${asn.asn ?? "?"}`, asn.asSet ?? undefined].filter(Boolean).join(" · ");
}

interface Checked {
  body: Record<string, unknown>;
  summary: OrderSubmission["summary"];
  port: Port;
}

function checkValues(
  data: IodModalData,
  form: IodForm,
  taken: ReadonlySet<string>,
): { errors: IodErrors } | Checked {
  const errors: IodErrors = {};
  const { values } = data;

  let port: Port | undefined;
  if (!data.ports.ok) errors.accessPort = data.ports.problem;
  else if (!values.accessPortId) errors.accessPort = "Choose the access port";
  else if (!data.port)
    errors.accessPort = "Pick one of your ports with free capacity from the list";
  else if (data.capability?.kind === "not-enabled") errors.accessPort = notEnabledText(data.port);
  else if (data.capability?.kind !== "enabled") {
    errors.accessPort = `Couldn't check whether this port is IO-D enabled: ${data.capability?.kind === "unknown" ? data.capability.problem : "try again"}`;
  } else port = data.port;

  if (form.routing !== "DYNAMIC" && form.routing !== "STATIC") {
    errors.routing = "Choose dynamic (BGP) or static routing";
  }
  const dynamic = values.routing === "DYNAMIC";

  // Only the fields of the chosen combination are read: the others are not shown, and a forged
  // value for a hidden field is never sent.
  const asn: Record<string, unknown> = {};
  let asnLine = "";
  let bgpLine = "";
  let chosenAsn: IodAsnChoice | undefined;
  if (dynamic) {
    chosenAsn = asnChoiceOf(form.asnChoice);
    if (!chosenAsn || !offeredAsnChoices(data).includes(chosenAsn)) {
      errors.asnChoice = "Choose a private or a public ASN";
    } else if (chosenAsn === "private-auto") {
      Object.assign(asn, { privateAsn: true, privateAsnAutoAssign: true });
      asnLine = "Private, assigned by the provider";
    } else if (chosenAsn === "private-requested") {
      const requested = whole(form.privateAsn, 10);
      if (requested === undefined) {
        errors.privateAsn = "Enter the private ASN as a whole number, e.g. 64512";
      } else {
        Object.assign(asn, { privateAsn: true, privateAsnRequested: requested });
        asnLine = `Private AS${requested}${requested === data.suggestedAsn ? " (the provider's suggestion)" : ""}`;
      }
    } else {
      const record = data.publicAsns?.ok
        ? data.publicAsns.value.find((a) => a.id === values.publicAsnId)
        : undefined;
      if (!values.publicAsnId)
        errors.publicAsn = "A public ASN needs one of your verified ASNs: choose it";
      else if (!record) errors.publicAsn = "Pick one of your verified ASNs from the list";
      else {
        Object.assign(asn, { privateAsn: false, asnId: record.id });
        asnLine = `Public ${asnText(record)} (verified ASN record ${record.id})`;
      }
    }
    // An empty key means "assign one"; a typed key is sent exactly as typed (it is a secret).
    const key =
      typeof form.bgpKey === "string" && form.bgpKey.trim() !== "" ? form.bgpKey : undefined;
    if (form.bgpKey !== undefined && form.bgpKey !== null && typeof form.bgpKey !== "string") {
      errors.bgpKey = "BGP key must be text";
    } else if (key === undefined) {
      asn.autoAssignBgpKey = true;
      bgpLine = "Assigned by the provider";
    } else {
      asn.bgpKey = key;
      bgpLine = "set (hidden)";
    }
  } else {
    Object.assign(asn, { privateAsn: IOD_STATIC_PRIVATE_ASN, privateAsnAutoAssign: true });
    asnLine = "Private, assigned by the provider (static routing)";
    bgpLine = "None: static routing has no BGP session";
  }

  // IPv4 block: rules 1 and 5 require one; with a public ASN the company may announce only its
  // own prefixes, so "none" is offered there (and only there).
  const noneAllowed = dynamic && chosenAsn === "public";
  let ipBlock: number | undefined;
  if (values.ipBlock === undefined) errors.ipBlock = "Choose the IPv4 block size";
  else if (values.ipBlock === IPV4_NONE) {
    if (!noneAllowed) {
      errors.ipBlock = `${dynamic ? "A private ASN" : "Static routing"} needs an IPv4 block: the provider assigns it, so choose its size`;
    }
  } else {
    const n = whole(values.ipBlock, 2);
    if (n === undefined || !(IPV4_BLOCKS as readonly number[]).includes(n)) {
      errors.ipBlock = "Pick an IPv4 block size from the list";
    } else ipBlock = n;
  }

  // IPv6: off, or a block the rule checks (only /48 is offered; anything else is refused there).
  let ipv6: Record<string, unknown> = {};
  if (form.ipv6 !== undefined && form.ipv6 !== null && form.ipv6 !== IPV6_OFF) {
    const block = whole(form.ipv6, 3);
    if (block === undefined) errors.ipv6 = "Pick IPv6 off or a /48 block from the list";
    else ipv6 = { enableIpv6: true, ipv6Block: block };
  }

  const rateLimit = whole(form.rateLimit);
  const free = port ? remainingCapacity(port) : undefined;
  const upTo = free !== undefined ? `up to ${formatMbps(free)}` : "up to the port's free capacity";
  if (rateLimit === undefined || rateLimit < 1) {
    errors.rateLimit = `Rate limit must be a whole number of Mbps, from 1 ${upTo}`;
  } else if (free !== undefined && rateLimit > free) {
    errors.rateLimit = `The port has ${formatMbps(free)} left; choose ${formatMbps(free)} or less`;
  }
  const days = whole(form.duration);
  if (days === undefined || days < 1) {
    errors.duration = `Duration must be a whole number of days, from 1 to ${formatNumber(MAX_TERM_DAYS)}`;
  } else if (days > MAX_TERM_DAYS) {
    errors.duration = `Duration must be at most ${maxTermText("days")}`;
  }

  const countryRaw = typeof form.geoCountry === "string" ? form.geoCountry.trim() : undefined;
  const country = countryRaw ? countryRaw.toUpperCase() : undefined;
  // The provider's rule asks for two capitals; a code that names no country is caught here.
  if (country && /^[A-Z]{2}$/.test(country) && !isCountryCode(country)) {
    errors.geoCountry = `Geo country ${country} is not a country code: use the country's two letters, e.g. SG or NL`;
  }
  const cityRaw = typeof form.geoCity === "string" ? form.geoCity.trim() : undefined;
  if (cityRaw !== undefined && cityRaw.length > GEO_CITY_MAX) {
    errors.geoCity = `Geo city must be at most ${GEO_CITY_MAX} characters`;
  }
  const name = takenName(form.name, taken);
  if (name) {
    errors.name = `A connection, service or request named "${name}" already exists: choose another name`;
  }

  const body: Record<string, unknown> = {
    accessPortId: port?.id ?? values.accessPortId,
    name: typeof form.name === "string" ? form.name.trim() : form.name,
    rateLimit,
    type: values.routing,
    ...asn,
    ...(ipBlock !== undefined ? { ipBlock } : {}),
    ...ipv6,
    duration: { quantity: days, unit: IOD_DURATION_UNIT },
    paymentType: IOD_PAYMENT_TYPE,
    ...(country ? { ipGeoCountry: country } : {}),
    ...(cityRaw ? { ipGeoCity: cityRaw } : {}),
  };
  const rule = giaServiceRule.safeParse(body);
  if (!rule.success) {
    addRuleErrors(errors, rule.error, (path) => rulePathToField(path, values.routing), "name");
  }
  if (Object.keys(errors).length > 0 || !rule.success || !port) return { errors };

  const checked = rule.data;
  const summary: OrderSubmission["summary"] = [
    { label: "Service name", value: checked.name },
    { label: "Access port", value: [portLabel(port), placeOf(port)].filter(Boolean).join(" · ") },
    {
      label: "Routing",
      value: checked.type === "DYNAMIC" ? "Dynamic (BGP)" : "Static",
    },
    { label: "ASN", value: asnLine },
    { label: "BGP key", value: bgpLine },
    {
      label: "IPv4 block",
      value: checked.ipBlock !== undefined ? `/${checked.ipBlock}` : "None (your own prefixes)",
    },
    {
      label: "IPv6",
      value: checked.enableIpv6 ? `On, a /${checked.ipv6Block ?? IOD_IPV6_BLOCK} block` : "Off",
    },
    { label: "Rate limit", value: formatMbps(checked.rateLimit) },
    { label: "Term", value: `${checked.duration.quantity} days` },
    { label: "Billing", value: `Pay as you go (payg), ${checked.duration.quantity}-day term` },
    {
      label: "IP geolocation",
      value: [checked.ipGeoCountry, checked.ipGeoCity].filter(Boolean).join(", ") || "Not set",
    },
  ];
  if (checked.type === "STATIC") {
    summary.push({
      label: "Private ASN flag",
      value: `Sent as ${IOD_STATIC_PRIVATE_ASN}: the provider's rule for static routing says so (its own static example sends false)`,
    });
  } else {
    summary.push({
      label: "Prefixes",
      value:
        "Any prefix advertised through BGP must be registered and signed under your ASN in the regional Internet routing registry.",
    });
  }
  return { body: checked, summary, port };
}

/** The term's days of a checked body's `duration` ({quantity, unit d}). */
function termDays(duration: unknown): number | undefined {
  const quantity = (duration as { quantity?: unknown } | undefined)?.quantity;
  return typeof quantity === "number" ? quantity : undefined;
}

/**
 * IO-D's price as recorded: no amount (pay as you go), its billing in words and its term in
 * days, so App Home and `/connect spend` know when it ends (src/orders/readModel.ts).
 */
function iodPrice(days: number | undefined) {
  const known = days !== undefined && Number.isSafeInteger(days) && days > 0;
  return { text: iodBillingText(days), ...(known ? { termDays: days } : {}) };
}

/** Checks a submitted IO-D form against fresh provider data, within `deadlineMs`. */
export async function checkIodSubmission(
  deps: IodDeps,
  input: { form: IodForm; requester: OrderSubmission["requester"]; deadlineMs?: number },
): Promise<IodCheck> {
  const fresh = await loadForCheck(deps, input.deadlineMs ?? IOD_SUBMIT_DEADLINE_MS, (signal) =>
    loadIodModal(deps, input.form, { signal }),
  );
  if (!fresh) return { kind: "invalid", errors: { accessPort: SLOW_PROVIDER } };
  const { data, taken } = fresh;
  const checked = checkValues(data, input.form, taken);
  if ("errors" in checked) return { kind: "invalid", errors: checked.errors };
  const { body, port } = checked;
  const name = String(body.name);
  return {
    kind: "ready",
    data,
    submission: {
      kind: "iod",
      title: oneLine(
        // The approval message's header puts "IO-D service: " in front: no second colon here.
        `${name} — ${formatMbps(Number(body.rateLimit))} ${body.type === "STATIC" ? "static" : "BGP"} on ${port.name ?? port.id}`,
      ),
      summary: checked.summary,
      call: {
        operation: "createGiaService",
        pathParams: { companyId: data.identity.companyId },
        body,
      },
      reconcileKey: name,
      price: iodPrice(termDays(body.duration)),
      requester: input.requester,
    },
  };
}
