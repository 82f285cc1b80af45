import { type CommandHandlers, withDeps } from "./connect.js";
import { approvalCommands } from "./features/approvals/command.js";
import type { ApprovalDeps } from "./features/approvals/index.js";
import { edgeCommands } from "./features/edge/command.js";
import type { EdgeDeps } from "./features/edge/index.js";
import { type GeneralDeps, generalCommands } from "./features/general/command.js";
import { iod } from "./features/iod/command.js";
import type { IodDeps } from "./features/iod/index.js";
import { layer2 } from "./features/layer2/command.js";
import type { Layer2Deps } from "./features/layer2/index.js";
import { formOrLookup, lookupCommands } from "./features/lookups/command.js";
import type { LookupDeps } from "./features/lookups/index.js";
import { portOrderCommands } from "./features/portOrder/command.js";
import type { PortOrderDeps } from "./features/portOrder/index.js";
import { pricingCommands } from "./features/pricing/command.js";
import type { PricingDeps } from "./features/pricing/index.js";
import { spendCommands } from "./features/spend/command.js";
import type { SpendDeps } from "./features/spend/index.js";
import { withdrawCommands } from "./features/withdraw/command.js";
import type { WithdrawDeps } from "./features/withdraw/index.js";

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

/** What the commands use: each feature's own deps, all handed over from one object. */
export type CommandDeps = GeneralDeps &
  LookupDeps &
  PricingDeps &
  PortOrderDeps &
  EdgeDeps &
  ApprovalDeps &
  WithdrawDeps &
  SpendDeps &
  Layer2Deps &
  IodDeps;

/**
 * Every subcommand of the registry has exactly one handler (the type makes it so), each given
 * what its feature uses from `deps` (src/bot.ts builds it; structural typing, no shared bag).
 */
export function commandHandlers(deps: CommandDeps): CommandHandlers {
  return {
    ...withDeps(generalCommands, deps),
    ...withDeps(lookupCommands, deps),
    ...withDeps(pricingCommands, deps),
    ...withDeps(portOrderCommands, deps),
    ...withDeps(edgeCommands, deps),
    ...withDeps(approvalCommands, deps),
    ...withDeps(withdrawCommands, deps),
    ...withDeps(spendCommands, deps),
    // With an id argument these two look a connection or service up instead of opening the
    // form: the layer 2 and IO-D forms composed with the look-ups, so neither feature imports
    // the other.
    ...withDeps(
      {
        l2: formOrLookup((ctx) => layer2(ctx, deps), "layer2"),
        iod: formOrLookup((ctx) => iod(ctx, deps), "iod"),
      },
      deps,
    ),
  };
}
