import { listApprovals } from "../approvals.js";
import type { CommandHandlers } from "../connect.js";
import { track } from "../tracking.js";
import { edgeQuote } from "./edgeQuote.js";
import { help, whoami } from "./general.js";
import { iod } from "./iod.js";
import { layer2 } from "./layer2.js";
import * as lookups from "./lookups.js";
import { portOrder } from "./portOrder.js";
import * as pricing from "./pricing.js";

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
  l2: layer2,
  iod,
  "edge quote": edgeQuote,
  track,
  approvals: listApprovals,
};
