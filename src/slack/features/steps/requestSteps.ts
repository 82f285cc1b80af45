// `request_port_order` and `request_layer2_connection`: checked as the forms are, submitted
// through the OrderSubmitter with the step's run, and then left open: the step ends when the
// request does (src/orders/stepCompletions.ts), through the notifier's outbox.
import type { z } from "zod";
import { newRequestId, withRequestId } from "../../../context.js";
import {
  readStepInputs,
  requestLayer2Inputs,
  requestPortOrderInputs,
} from "../../../usecases/steps/inputs.js";
import {
  checkLayer2Step,
  checkPortOrderStep,
  type StepCheck,
} from "../../../usecases/steps/requests.js";
import type { StepDeps } from "./index.js";
import type { OrderSubmitter } from "./orderSubmitter.js";
import { failStep, type StepArgs, type StepNamesLookup } from "./stepListener.js";

export function requestStep<I>(
  services: StepDeps,
  submitter: OrderSubmitter,
  schema: z.ZodType<I>,
  check: (inputs: I) => Promise<StepCheck>,
  names: StepNamesLookup,
): (args: StepArgs) => Promise<void> {
  const fail = (args: StepArgs, error: string) => failStep(services, args, error, names);
  return (args) =>
    withRequestId(newRequestId(), async () => {
      const read = readStepInputs(schema, args.inputs);
      if (!read.ok) return fail(args, read.error);
      const { event } = args;
      try {
        const checked = await check(read.value);
        if (!checked.ok) return fail(args, checked.error);
        const submitted = await submitter.submit(checked.submission, {
          callbackId: event.function.callback_id,
          executionId: event.function_execution_id,
          token: event.bot_access_token,
        });
        // A refused requester's error lists the requesters: read as names in the run history.
        if (!submitted.ok) return fail(args, submitted.error);
        services.logger.info(
          {
            audit: "step",
            step: event.function.callback_id,
            executionId: event.function_execution_id,
            approvalId: submitted.requestId,
          },
          "workflow step waits for its request",
        );
      } catch (error) {
        services.logger.error(
          { err: error, step: event.function.callback_id },
          "workflow step could not submit its request",
        );
        await fail(
          args,
          "The request could not be sent for approval; nothing was ordered. Run the step again.",
        );
      }
    });
}

export function requestPortOrderListener(
  services: StepDeps,
  submitter: OrderSubmitter,
  names: StepNamesLookup,
) {
  return requestStep(
    services,
    submitter,
    requestPortOrderInputs,
    (inputs) => checkPortOrderStep(services, inputs),
    names,
  );
}

export function requestLayer2Listener(
  services: StepDeps,
  submitter: OrderSubmitter,
  names: StepNamesLookup,
) {
  return requestStep(
    services,
    submitter,
    requestLayer2Inputs,
    (inputs) => checkLayer2Step(services, inputs),
    names,
  );
}
