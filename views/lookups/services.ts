import type { KnownBlock } from "@slack/types";
import { COMMAND } from "../../src/domain/commands.js";
import type { BgpSession } from "../../src/provider/serviceRecords.js";
import type { PartnerEnd, PortEnd, ServiceDetail } from "../../src/usecases/services.js";
import { context, escapeMrkdwn, fields, header, section } from "../blocks.js";
import { code, formatMbps, formatTerm, statusBadge, statusHint, yesNo } from "../format.js";
import { fallbackText, fitBlocks } from "../list.js";
import type { Reply } from "../reply.js";
import { formatWhen } from "../time.js";

/** `/connect l2 <connectionId>` and `/connect iod <serviceId>`: one connection or IO-D service. */

const KIND_NAMES = {
  layer2: "Layer 2 connection",
  iod: "IO-D service",
  other: "Connection",
} as const;

/** "lon-core-01 `id` · Equinix LD5 (`equinix-ld5`) · London (LON)". */
function portEndText(end: PortEnd): string {
  const place = [
    end.dcfName ? escapeMrkdwn(end.dcfName) : undefined,
    end.dcfUsername
      ? `(${code(end.dcfUsername)})`
      : end.dcfId && !end.dcfName
        ? `DCF ${code(end.dcfId)}`
        : undefined,
  ]
    .filter(Boolean)
    .join(" ");
  const metro =
    end.metroName && end.metroCode
      ? `${escapeMrkdwn(end.metroName)} (${escapeMrkdwn(end.metroCode)})`
      : end.metroName || end.metroCode
        ? escapeMrkdwn((end.metroName ?? end.metroCode) as string)
        : undefined;
  return [
    `${end.portName ? `*${escapeMrkdwn(end.portName)}* ` : ""}${code(end.portId)}`,
    place || undefined,
    metro,
  ]
    .filter(Boolean)
    .join("\n");
}

function named(what: string, name: string | undefined, id: string | undefined): string | undefined {
  if (name) return `${what} ${escapeMrkdwn(name)}`;
  return id ? `${what} ${code(id)}` : undefined;
}

function partnerText(partner: PartnerEnd): string {
  return [
    partner.company ? `Company ${code(partner.company)}` : "Another company",
    partner.portId ? `port ${code(partner.portId)}` : undefined,
    // Names where the request said them; a bare id only when nothing names it.
    named("data center", partner.dcfName, partner.dcfId),
    named("metro", partner.metroName, partner.metroId),
    named("region", partner.regionName, partner.regionId),
  ]
    .filter(Boolean)
    .join("\n");
}

function destinationText(service: ServiceDetail): string {
  if (service.destination) return portEndText(service.destination);
  if (service.partner) return partnerText(service.partner);
  return "Not one of your ports (another company's port or a business-to-business end)";
}

function bgpLine(session: BgpSession): string {
  return [
    session.state ? statusBadge(session.state) : undefined,
    session.peerIp ? `peer ${code(session.peerIp)}` : undefined,
    session.peerAsn ? `AS${escapeMrkdwn(session.peerAsn)}` : undefined,
    session.localIp ? `local ${code(session.localIp)}` : undefined,
    session.localAsn ? `local AS${escapeMrkdwn(session.localAsn)}` : undefined,
  ]
    .filter(Boolean)
    .join(" · ");
}

function addressText(
  blocksList: readonly string[],
  prefixLength: number | undefined,
): string | undefined {
  if (blocksList.length > 0) return blocksList.map((b) => code(b)).join(", ");
  // Only the requested size is known until the provider reports the block it assigned.
  return prefixLength !== undefined
    ? `a /${prefixLength} (requested; not reported yet)`
    : undefined;
}

function iodFields(service: ServiceDetail): KnownBlock[] {
  const asn =
    service.asn !== undefined
      ? `AS${escapeMrkdwn(service.asn)}${service.privateAsn === true ? " (private)" : service.privateAsn === false ? " (public)" : ""}`
      : undefined;
  const sessions = service.bgpSessions.map(bgpLine).filter((l) => l !== "");
  const out: KnownBlock[] = [
    fields([
      [
        "IPv4 block",
        addressText(service.ipv4Blocks, service.ipv4PrefixLength) ?? "Not reported by the provider",
      ],
      ["IPv6 block", addressText(service.ipv6Blocks, service.ipv6PrefixLength) ?? "None reported"],
      ["ASN", asn ?? "Not reported by the provider"],
      ["Routing", service.routing ? escapeMrkdwn(service.routing) : undefined],
    ]),
  ];
  if (sessions.length > 0)
    out.push(section(`*BGP session${sessions.length > 1 ? "s" : ""}*\n${sessions.join("\n")}`));
  return out;
}

/** The look-up's answer. Only id and status are sure to be there; the rest shows when known. */
export function serviceDetailView(
  service: ServiceDetail,
  timeZone: string | undefined,
  now: Date = new Date(),
): Reply {
  const kindName = KIND_NAMES[service.kind] ?? KIND_NAMES.other;
  const hint = statusHint(service.status);
  const title = `${kindName} ${service.name ?? service.id}`;
  const speed = service.speedMbps !== undefined ? formatMbps(service.speedMbps) : undefined;
  const blocks: KnownBlock[] = [
    header(title),
    section(
      `${statusBadge(service.status ?? "status not reported")}${hint ? ` — ${hint}` : ""}${service.typeLabel ? `  ·  ${escapeMrkdwn(service.typeLabel)}` : ""}`,
    ),
  ];
  if (service.kind === "iod") {
    blocks.push(
      fields([
        ["Service ID", code(service.id)],
        ["Rate limit", speed],
        ["Access port", service.source ? portEndText(service.source) : undefined],
        ["Term", service.term ? formatTerm(service.term.value, service.term.unit) : undefined],
      ]),
      ...iodFields(service),
    );
  } else {
    blocks.push(
      fields([
        ["Connection ID", code(service.id)],
        ["Bandwidth", speed],
        ["Source", service.source ? portEndText(service.source) : undefined],
        ["Destination", destinationText(service)],
        [
          "Class of service",
          service.classOfService ? escapeMrkdwn(service.classOfService) : undefined,
        ],
        ["Term", service.term ? formatTerm(service.term.value, service.term.unit) : undefined],
        ["Evergreen", yesNo(service.evergreen)],
      ]),
    );
  }
  const created = formatWhen(service.createdAt, timeZone, now);
  const notes = [
    created ? `Created ${created}` : undefined,
    service.approval
      ? `Requested by <@${service.approval.requesterId}> through this bot`
      : undefined,
    service.source
      ? `Its port: \`${COMMAND} port ${escapeMrkdwn(service.source.portId)}\``
      : undefined,
  ].filter((n): n is string => n !== undefined);
  if (notes.length > 0) blocks.push(context(notes.join(" · ")));
  return {
    text: fallbackText(
      `${kindName} ${service.name ?? service.id}: ${service.status ?? "status not reported"}${speed ? `, ${speed}` : ""}`,
    ),
    blocks: fitBlocks(blocks),
  };
}

/** What a look-up says when no port of the company carries the id. */
export function serviceNotFoundText(kind: "layer2" | "iod", id: string): string {
  return kind === "layer2"
    ? `No layer 2 connection with id ${code(id)} on your ports. The connections of a port and their ids: \`${COMMAND} port &lt;portId&gt;\` (port ids: \`${COMMAND} ports\`).`
    : `No IO-D service with id ${code(id)} on your ports. The services of a port and their ids: \`${COMMAND} port &lt;portId&gt;\` (port ids: \`${COMMAND} ports\`).`;
}
