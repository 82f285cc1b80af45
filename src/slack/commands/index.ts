import type { CommandHandlers } from "../connect.js";
import { listApprovals } from "../features/approvals/command.js";
import { edgeQuote } from "../features/edge/command.js";
import { help, policy, whoami } from "../features/general/command.js";
import { iod } from "../features/iod/command.js";
import { layer2 } from "../features/layer2/command.js";
import * as lookups from "../features/lookups/command.js";
import { portOrder } from "../features/portOrder/command.js";
import { priceL2, pricePort } from "../features/pricing/command.js";
import { spend } from "../features/spend/command.js";
import { withdrawCommand } from "../features/withdraw/command.js";

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
  "price port": pricePort,
  "price l2": priceL2,
  "port order": portOrder,
  // With an id argument these two look a connection or service up instead of opening the form.
  l2: lookups.formOrLookup(layer2, "layer2"),
  iod: lookups.formOrLookup(iod, "iod"),
  "edge quote": edgeQuote,
  track: lookups.track,
  approvals: listApprovals,
  policy,
  withdraw: withdrawCommand,
  spend,
};
