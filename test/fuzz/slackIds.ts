import { ACTION_PAGE, ACTION_SHARE } from "../../src/slack/connect.js";
import { ACTION_APPROVE, ACTION_REJECT, ACTION_RETRY } from "../../views/approvals/approvals.js";
import { EDGE_DRAFT_BUTTONS } from "../../views/edge/edgeDrafts.js";
import { EDGE_QUOTE_INPUTS } from "../../views/edge/edgeModals.js";
import { EDGE_QUOTE_BUTTONS } from "../../views/edge/edgeQuote.js";
import { IOD_ACTIONS, IOD_DISPATCH_FIELDS } from "../../views/iod/iodModal.js";
import { LAYER2_ACTIONS, LAYER2_DISPATCH_FIELDS } from "../../views/layer2/layer2Modal.js";
import { ACTION_ORDER_TRACK } from "../../views/lookups/orders.js";
import { PORT_ORDER_ACTIONS } from "../../views/portOrder/portOrderModal.js";
import { ACTION_PRICE_PICK_DCF } from "../../views/pricing/pricing.js";
import { L2_PRICE_ACTIONS, PORT_PRICE_ACTIONS } from "../../views/pricing/pricingModals.js";

/**
 * The ids the bot registers listeners for (src/slack/**): fuzzing them reaches the handlers;
 * an unknown id only reaches Bolt's 404 after its 2.9-second timeout.
 */
export const ACTION_IDS = [
  ACTION_APPROVE,
  ACTION_REJECT,
  ACTION_RETRY,
  ACTION_SHARE,
  `${ACTION_PAGE}_next`,
  `${ACTION_PAGE}_prev`,
  ACTION_ORDER_TRACK,
  ACTION_PRICE_PICK_DCF,
  PORT_PRICE_ACTIONS.dcf,
  PORT_ORDER_ACTIONS.dcf,
  PORT_ORDER_ACTIONS.speed,
  PORT_ORDER_ACTIONS.term,
  EDGE_QUOTE_INPUTS.country,
  ...Object.values(EDGE_QUOTE_BUTTONS),
  ...Object.values(EDGE_DRAFT_BUTTONS),
  ...IOD_DISPATCH_FIELDS.map((field) => IOD_ACTIONS[field]),
  ...LAYER2_DISPATCH_FIELDS.map((field) => LAYER2_ACTIONS[field]),
];

/** External selects the bot loads options for (block_suggestion). */
export const OPTIONS_IDS = [
  PORT_PRICE_ACTIONS.dcf,
  L2_PRICE_ACTIONS.srcDcf,
  L2_PRICE_ACTIONS.destDcf,
  PORT_ORDER_ACTIONS.dcf,
  EDGE_QUOTE_INPUTS.country,
];

/** Modals the bot handles submissions of: every `app.view(…)` in src/slack. */
export const VIEW_CALLBACK_IDS = [
  "price_port",
  "price_l2",
  "port_order",
  "approval_reject_reason",
  "layer2_request",
  "iod_request",
  "edge_quote",
  "edge_discount",
  "edge_order",
  "edge_draft_rename",
] as const;
