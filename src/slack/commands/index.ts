import { listApprovals } from "../approvals.js";
import type { CommandHandlers } from "../connect.js";
import { help, whoami } from "./general.js";
import * as lookups from "./lookups.js";
import { notYetAvailable } from "./notYetAvailable.js";
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
  "port order": notYetAvailable,
  l2: notYetAvailable,
  iod: notYetAvailable,
  "edge quote": notYetAvailable,
  approvals: listApprovals,
};
