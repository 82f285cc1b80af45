import type { CommandHandlers } from "./connect.js";
import { approvalCommands } from "./features/approvals/command.js";
import { edgeCommands } from "./features/edge/command.js";
import { generalCommands } from "./features/general/command.js";
import { iod } from "./features/iod/command.js";
import { layer2 } from "./features/layer2/command.js";
import { formOrLookup, lookupCommands } from "./features/lookups/command.js";
import { portOrderCommands } from "./features/portOrder/command.js";
import { pricingCommands } from "./features/pricing/command.js";
import { spendCommands } from "./features/spend/command.js";
import { withdrawCommands } from "./features/withdraw/command.js";

/**
 * Each feature's own table of the subcommands it answers, so adding a command to a feature
 * touches that feature's command.ts and not this file. A name in two tables is refused by
 * test/slack/commandTable.test.ts (a spread would let the later one win silently).
 */
export const FEATURE_COMMANDS = {
  general: generalCommands,
  lookups: lookupCommands,
  pricing: pricingCommands,
  portOrder: portOrderCommands,
  edge: edgeCommands,
  approvals: approvalCommands,
  withdraw: withdrawCommands,
  spend: spendCommands,
} as const;

/** Every subcommand of the registry has exactly one handler (the type makes it so). */
export const commandHandlers: CommandHandlers = {
  ...generalCommands,
  ...lookupCommands,
  ...pricingCommands,
  ...portOrderCommands,
  ...edgeCommands,
  ...approvalCommands,
  ...withdrawCommands,
  ...spendCommands,
  // With an id argument these two look a connection or service up instead of opening the form:
  // the layer 2 and IO-D forms composed with the look-ups, so neither feature imports the other.
  l2: formOrLookup(layer2, "layer2"),
  iod: formOrLookup(iod, "iod"),
};
