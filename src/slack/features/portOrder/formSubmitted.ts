// The port order form submitted: checked again on the server (nothing the client sent is
// trusted), field errors shown next to their fields, else the request goes to approval and the
// requester is told where it is (the kit's submitAndTell).
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs } from "@slack/bolt";
import { PORT_ORDER_BLOCKS, parsePortOrderMetadata } from "../../../../views/portOrderModal.js";
import { newRequestId, withRequestId } from "../../../context.js";
import type { Services } from "../../../services.js";
import { checkPortOrder, requestedPortNames } from "../../../usecases/portOrderCheck.js";
import { portOrderSubmission } from "../../../usecases/portOrderSubmission.js";
import type { Outcome } from "../../connect.js";
import { blockErrors, recordCommand, submitAndTell } from "../../kit/index.js";
import { readPortOrderState } from "./formState.js";

/** The command the audit line and metrics name. */
export const COMMAND_NAME = "port order";

type SubmitArgs = Pick<SlackViewMiddlewareArgs, "ack" | "body" | "view"> &
  Pick<AllMiddlewareArgs, "client">;

export function portOrderFormSubmitted(services: Services) {
  const { logger, provider } = services;
  return async ({ ack, body, view, client }: SubmitArgs) => {
    const started = performance.now();
    const record = (outcome: Outcome) =>
      recordCommand(services, {
        command: COMMAND_NAME,
        userId: body.user.id,
        outcome,
        via: "modal",
        startedAt: started,
      });
    let check: Awaited<ReturnType<typeof checkPortOrder>>;
    try {
      check = await checkPortOrder(
        {
          provider,
          identity: services.identity,
          requestedNames: () => requestedPortNames(services.approvals.store),
        },
        readPortOrderState(view.state?.values),
      );
    } catch (error) {
      logger.error({ err: error }, "port order form check failed");
      check = { ok: false, errors: { dcf: "Something went wrong on our side; submit again" } };
    }
    if (!check.ok) {
      await ack({
        response_action: "errors",
        errors: blockErrors(check.errors, PORT_ORDER_BLOCKS, view, "dcf"),
      });
      record("failed");
      return;
    }
    const where = {
      channelId: parsePortOrderMetadata(view.private_metadata).channelId,
      userId: body.user.id,
    };
    const submission = portOrderSubmission(check.value, where, services.currency);
    await withRequestId(newRequestId(), () =>
      submitAndTell(
        services,
        client,
        COMMAND_NAME,
        submission,
        async (nameError) => {
          if (!nameError) return ack();
          // The name was free when checked above; another request may have taken it since. A
          // form error like the check's, and recorded as one.
          await ack({
            response_action: "errors",
            errors: blockErrors({ portName: nameError }, PORT_ORDER_BLOCKS, view, "portName"),
          });
          record("failed");
        },
        started,
      ),
    );
  };
}
