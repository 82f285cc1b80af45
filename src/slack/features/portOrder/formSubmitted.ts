// The port order form submitted: checked again on the server (nothing the client sent is
// trusted), field errors shown next to their fields, else the request goes to approval and the
// requester is told where it is — the kit's checkThenSubmit, as every order form does.
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from "@slack/bolt";
import {
  PORT_ORDER_BLOCKS,
  parsePortOrderMetadata,
} from "../../../../views/portOrder/portOrderModal.js";
import { checkPortOrder, requestedPortNames } from "../../../usecases/portOrder/check.js";
import { portOrderSubmission } from "../../../usecases/portOrder/submission.js";
import { checkThenSubmit } from "../../kit/index.js";
import { readPortOrderState } from "./formState.js";
import type { PortOrderDeps } from "./index.js";

/** The command the audit line and metrics name. */
export const COMMAND_NAME = "port order";

type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

export function portOrderFormSubmitted(
  services: PortOrderDeps,
): (args: SubmitArgs) => Promise<void> {
  return checkThenSubmit(
    services,
    { command: COMMAND_NAME, what: "port order", blocks: PORT_ORDER_BLOCKS, nameField: "portName" },
    async (view, userId) => {
      const check = await checkPortOrder(
        {
          provider: services.provider,
          identity: services.identity,
          requestedNames: () => requestedPortNames(services.approvals.store),
        },
        readPortOrderState(view.state?.values),
      );
      if (!check.ok) return check;
      const where = { channelId: parsePortOrderMetadata(view.private_metadata).channelId, userId };
      return { ok: true, value: portOrderSubmission(check.value, where, services.currency) };
    },
  );
}
