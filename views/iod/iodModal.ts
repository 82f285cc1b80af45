import type { KnownBlock, ModalView, PlainTextOption } from "@slack/types";
import { remainingCapacity } from "../../src/domain/catalog/connections.js";
import {
  DEFAULT_DURATION_DAYS,
  DEFAULT_IPV4_BLOCK,
  type IodAsnChoice,
  IPV4_BLOCKS,
  IPV4_NONE,
  IPV6_OFF,
  iodBillingText,
  notEnabledText,
  offeredAsnChoices,
  SERVICE_NAME_MAX,
} from "../../src/domain/catalog/iod.js";
import { BGP_KEY_MAX, BGP_KEY_MIN, IOD_IPV6_BLOCK } from "../../src/domain/catalog/requestFacts.js";
import { maxTermText } from "../../src/domain/catalog/terms.js";
import { COMMAND } from "../../src/domain/commands.js";
import type { Port } from "../../src/provider/api.js";
import type { IodField, IodModalData } from "../../src/usecases/iod/form.js";
import { context, escapeMrkdwn, option, section, truncate } from "../blocks.js";
import { formatMbps, formatNumber } from "../format.js";
import {
  inputBlock,
  numberInput,
  plainText,
  radioButtons,
  staticSelect,
  textInput,
} from "../inputs.js";
import {
  type OrderModalMetadata,
  orderFormModal,
  portOption,
  yourPortBlocks,
} from "../orderForms.js";

/**
 * The Internet On-Demand modal (`/connect iod`). It offers only the combinations the spec's IO-D
 * rules allow: STATIC routing hides the ASN and BGP key (rule 5 auto-assigns), a public ASN
 * hides the private ASN auto-assign (rule 2). Rebuilt when the port, routing or ASN choice
 * changes. The BGP key is never put back into a rebuilt view: Slack keeps what was typed.
 */

export const IOD_VIEW = "iod_request";

export const IOD_BLOCKS = {
  accessPort: "iod_access_port",
  routing: "iod_routing",
  asnChoice: "iod_asn",
  privateAsn: "iod_private_asn",
  publicAsn: "iod_public_asn",
  bgpKey: "iod_bgp_key",
  ipBlock: "iod_ipv4_block",
  ipv6: "iod_ipv6",
  rateLimit: "iod_rate_limit",
  duration: "iod_duration",
  geoCountry: "iod_geo_country",
  geoCity: "iod_geo_city",
  name: "iod_name",
} as const satisfies Record<IodField, string>;

/**
 * Typed inputs that change nothing else: Enter there only confirms the field and never submits
 * the order (inputs.ts `inputBlock` says why).
 */
export const IOD_ENTER_ONLY_FIELDS = [
  "privateAsn",
  "bgpKey",
  "rateLimit",
  "duration",
  "geoCountry",
  "geoCity",
  "name",
] as const satisfies readonly IodField[];

export const IOD_ACTIONS = {
  accessPort: "iod_access_port_select",
  routing: "iod_routing_choice",
  asnChoice: "iod_asn_choice",
  privateAsn: "iod_private_asn_input",
  publicAsn: "iod_public_asn_select",
  bgpKey: "iod_bgp_key_input",
  ipBlock: "iod_ipv4_block_select",
  ipv6: "iod_ipv6_select",
  rateLimit: "iod_rate_limit_input",
  duration: "iod_duration_input",
  geoCountry: "iod_geo_country_input",
  geoCity: "iod_geo_city_input",
  name: "iod_name_input",
} as const satisfies Record<IodField, string>;

/** The inputs whose change rebuilds the modal. */
export const IOD_DISPATCH_FIELDS = [
  "accessPort",
  "routing",
  "asnChoice",
] as const satisfies readonly IodField[];

export const IOD_PORT_STATUS_BLOCK = "iod_port_status";
export const IOD_ROUTING_NOTE_BLOCK = "iod_routing_note";

const ROUTING_OPTIONS: PlainTextOption[] = [
  option("Dynamic (BGP)", "DYNAMIC", "You peer with the provider over BGP"),
  option("Static", "STATIC", "No BGP: the provider assigns a private ASN"),
];

function asnOption(choice: IodAsnChoice, suggested: number | undefined): PlainTextOption {
  switch (choice) {
    case "private-requested":
      return option(
        suggested !== undefined
          ? `Private ASN: the suggested AS${suggested}, or your own`
          : "Private ASN: your own",
        choice,
      );
    case "private-auto":
      return option("Private ASN, assigned by the provider", choice);
    case "public":
      return option("Public ASN: one of your verified ASNs", choice);
  }
}

export const IPV4_BLOCK_OPTIONS: PlainTextOption[] = IPV4_BLOCKS.map((length) =>
  option(`/${length}`, String(length), `${formatNumber(2 ** (32 - length))} addresses`),
);

const IPV4_NONE_OPTION = option("None: only my own prefixes", IPV4_NONE);

export const IPV6_OPTIONS: PlainTextOption[] = [
  option("No IPv6", IPV6_OFF),
  option(`/${IOD_IPV6_BLOCK} block`, String(IOD_IPV6_BLOCK), "The only IPv6 size offered"),
];

function portStatusBlocks(data: IodModalData): KnownBlock[] {
  const port = data.port;
  if (!port || !data.capability) return [];
  const name = escapeMrkdwn(port.name?.trim() || port.id);
  const free = remainingCapacity(port);
  let text: string;
  switch (data.capability.kind) {
    case "enabled":
      text = `:white_check_mark: *${name}* is IO-D enabled${free !== undefined ? ` · ${formatMbps(free)} free` : ""}.`;
      break;
    case "not-enabled":
      text = `:no_entry: ${escapeMrkdwn(notEnabledText(port))}`;
      break;
    case "unknown":
      text = `:warning: Couldn't check whether *${name}* is IO-D enabled: ${escapeMrkdwn(data.capability.problem)}`;
      break;
  }
  return [{ ...section(text), block_id: IOD_PORT_STATUS_BLOCK }];
}

/**
 * The access port choices: IO-D enabled ports first, then those not known, then those not
 * enabled, marked as such, so nobody picks one under a hint saying it must be enabled without
 * being told which are (issue 32, item 15).
 */
function accessPortOptions(
  ports: readonly Port[],
  enabled: ReadonlyMap<string, boolean> | undefined,
): PlainTextOption[] {
  const rank = (port: Port) => {
    const known = enabled?.get(port.id);
    return known === true ? 0 : known === undefined ? 1 : 2;
  };
  return [...ports]
    .sort((a, b) => rank(a) - rank(b))
    .map((port) => {
      const shown = portOption(port);
      if (enabled?.get(port.id) !== false) return shown;
      return {
        ...shown,
        text: { ...shown.text, text: truncate(`${shown.text.text} — not IO-D enabled`, 75) },
      };
    });
}

function accessPortBlocks(data: IodModalData): KnownBlock[] {
  const blocks = yourPortBlocks(data.ports, {
    blockId: IOD_BLOCKS.accessPort,
    actionId: IOD_ACTIONS.accessPort,
    label: "Access port",
    chosenId: data.values.accessPortId,
    hint: "Your ports with free capacity, IO-D enabled ones first. IO-D needs an enabled port: the others are marked.",
    options: (ports) => accessPortOptions(ports, data.enabled),
    noPorts: `None of your ports has free capacity, and an IO-D service needs some. Order a port with \`${COMMAND} port order\`.`,
  });
  return data.ports.ok && data.ports.value.length > 0
    ? [...blocks, ...portStatusBlocks(data)]
    : blocks;
}

function dynamicBlocks(data: IodModalData): KnownBlock[] {
  const offered = offeredAsnChoices(data);
  const blocks: KnownBlock[] = [
    inputBlock(
      IOD_BLOCKS.asnChoice,
      "ASN",
      radioButtons(
        IOD_ACTIONS.asnChoice,
        offered.map((c) => asnOption(c, data.suggestedAsn)),
        data.asnChoice,
      ),
      { dispatch_action: true },
    ),
  ];
  if (data.publicAsns && !data.publicAsns.ok) {
    blocks.push(
      context(
        `:warning: Couldn't list your verified ASNs, so a public ASN can't be chosen now: ${escapeMrkdwn(data.publicAsns.problem)}`,
      ),
    );
  } else if (!offered.includes("public")) {
    blocks.push(
      context(
        "You have no verified public ASN, so only a private one is offered. The provider's support adds an ASN when you give it.",
      ),
    );
  }
  if (data.asnChoice === "private-requested") {
    const initial =
      data.values.privateAsn ??
      (data.suggestedAsn !== undefined ? String(data.suggestedAsn) : undefined);
    blocks.push(
      inputBlock(
        IOD_BLOCKS.privateAsn,
        "Private ASN",
        numberInput(IOD_ACTIONS.privateAsn, initial, "e.g. 64512"),
        {
          hint: plainText(
            `${data.suggestedAsn !== undefined ? `The provider suggests ${data.suggestedAsn}. ` : ""}Or your own: 64512–65534 or 4200000000–4294967294`,
          ),
        },
      ),
    );
  } else if (data.asnChoice === "public" && data.publicAsns?.ok) {
    blocks.push(
      inputBlock(
        IOD_BLOCKS.publicAsn,
        "Public ASN",
        staticSelect(
          IOD_ACTIONS.publicAsn,
          data.publicAsns.value.map((a) =>
            option(`AS${a.asn ?? "?"}`, a.id, a.asSet ? a.asSet : undefined),
          ),
          data.values.publicAsnId,
          "Choose a verified ASN",
        ),
        { hint: plainText("Your verified public ASNs") },
      ),
    );
  }
  blocks.push(
    inputBlock(
      IOD_BLOCKS.bgpKey,
      "BGP key",
      // Never an initial value: the key is a secret and is not sent back to Slack.
      textInput(IOD_ACTIONS.bgpKey, undefined, "Leave empty to have one assigned", BGP_KEY_MAX),
      {
        hint: plainText(
          `${BGP_KEY_MIN} to ${BGP_KEY_MAX} characters, or leave empty and the provider assigns one. It is never shown after you submit.`,
        ),
        optional: true,
      },
    ),
    context(
      "Any prefix you advertise through BGP must be registered and signed under your ASN in the regional Internet routing registry.",
    ),
  );
  return blocks;
}

export interface IodModalOptions {
  metadata: OrderModalMetadata;
  sandbox: boolean;
}

/** `/connect iod`: the form for the values it holds now. */
export function iodModal(data: IodModalData, options: IodModalOptions): ModalView {
  const { values } = data;
  const dynamic = values.routing === "DYNAMIC";
  const free = data.port ? remainingCapacity(data.port) : undefined;
  const noneOffered = dynamic && data.asnChoice === "public";
  const blocks: KnownBlock[] = [
    ...accessPortBlocks(data),
    inputBlock(
      IOD_BLOCKS.routing,
      "Routing",
      radioButtons(IOD_ACTIONS.routing, ROUTING_OPTIONS, values.routing),
      { dispatch_action: true },
    ),
    ...(dynamic
      ? dynamicBlocks(data)
      : [
          {
            ...context(
              "Static routing has no BGP session, so there is no ASN or BGP key to choose: the provider assigns a private ASN.",
            ),
            block_id: IOD_ROUTING_NOTE_BLOCK,
          } as KnownBlock,
        ]),
    inputBlock(
      IOD_BLOCKS.ipBlock,
      "IPv4 block",
      staticSelect(
        IOD_ACTIONS.ipBlock,
        noneOffered ? [IPV4_NONE_OPTION, ...IPV4_BLOCK_OPTIONS] : IPV4_BLOCK_OPTIONS,
        values.ipBlock ?? String(DEFAULT_IPV4_BLOCK),
        "Choose a block size",
      ),
      {
        hint: plainText(
          noneOffered
            ? "The prefix length of the IPv4 block the provider assigns, or none when you advertise only your own prefixes"
            : "The prefix length of the IPv4 block the provider assigns",
        ),
      },
    ),
    inputBlock(
      IOD_BLOCKS.ipv6,
      "IPv6",
      staticSelect(IOD_ACTIONS.ipv6, IPV6_OPTIONS, values.ipv6, "IPv6 block"),
      { hint: plainText(`IPv6 comes as a /${IOD_IPV6_BLOCK} block only`) },
    ),
    inputBlock(
      IOD_BLOCKS.rateLimit,
      "Rate limit",
      numberInput(IOD_ACTIONS.rateLimit, values.rateLimit, "e.g. 500"),
      {
        hint: plainText(
          free !== undefined
            ? `In Mbps, up to ${formatMbps(free)} (the port's remaining capacity)`
            : "In Mbps, up to the port's remaining capacity",
        ),
      },
    ),
    inputBlock(
      IOD_BLOCKS.duration,
      "Duration",
      numberInput(
        IOD_ACTIONS.duration,
        values.duration ?? String(DEFAULT_DURATION_DAYS),
        "e.g. 30",
      ),
      { hint: plainText(`In days, up to ${maxTermText("days")}; IO-D is paid as you go`) },
    ),
    inputBlock(
      IOD_BLOCKS.geoCountry,
      "Geo country",
      textInput(IOD_ACTIONS.geoCountry, values.geoCountry, "e.g. SG", 10),
      {
        hint: plainText("Two-letter country code the IP addresses geolocate to"),
        optional: true,
      },
    ),
    inputBlock(
      IOD_BLOCKS.geoCity,
      "Geo city",
      textInput(IOD_ACTIONS.geoCity, values.geoCity, "e.g. Singapore", 100),
      { optional: true },
    ),
    inputBlock(
      IOD_BLOCKS.name,
      "Service name",
      textInput(IOD_ACTIONS.name, values.name, "e.g. sin-internet-1", SERVICE_NAME_MAX),
      {
        hint: plainText(
          "Unique among your services: the order is found again by this name if the provider's answer is lost",
        ),
      },
    ),
    context(iodBillingText()),
  ];
  return orderFormModal(
    IOD_VIEW,
    "Internet On-Demand",
    blocks,
    options.metadata.channelId ? { channelId: options.metadata.channelId } : {},
    options.sandbox,
  );
}
