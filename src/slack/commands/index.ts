import { listApprovals } from "../approvals.js";

import type { CommandHandlers } from "../connect.js";
import { edgeQuote } from "../features/edge/command.js";
import { track } from "../tracking.js";
import { showPolicy, withdrawCommand } from "../withdraw.js";

import { help, whoami } from "./general.js";

import { iod } from "./iod.js";

import { layer2 } from "./layer2.js";

import * as lookups from "./lookups.js";
import { portOrder } from "./portOrder.js";

import * as pricing from "./pricing.js";
import { spend } from "./spend.js";

/** Every subcommand of the registry has exactly one handler (the type makes it so). */
export const commandHandlers: CommandHandlers = {
  help,
  whoami,
  dcf: lookups.dcf,
  ports: lookups.ports,
  port: lookups.port,
  order: lookups.order,
  asn: lookups.asn,
  routers: lookups.routers,
  "edge locations": lookups.edgeLocations,
  "edge orders": lookups.edgeOrders,
  "edge drafts": lookups.edgeDrafts,
  "price port": pricing.pricePort,
  "price l2": pricing.priceL2,
  "port order": portOrder,
  // With an id argument these two look a connection or service up instead of opening the form.
  l2: lookups.formOrLookup(layer2, "layer2"),
  iod: lookups.formOrLookup(iod, "iod"),
  "edge quote": edgeQuote,
  track,
  approvals: listApprovals,
  policy: showPolicy,
  withdraw: withdrawCommand,
  spend,
};
