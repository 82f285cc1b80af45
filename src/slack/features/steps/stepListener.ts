// What every step's listener shares: Bolt has acked the `function_executed` event already
// (`app.function`'s autoAcknowledge); the inputs are read (a problem ends the step with it), the
// work runs, and the step ends with `complete` / `fail` — Bolt's helpers, which call
// functions.completeSuccess / completeError with the step-scoped token of the event (the
// listener's `client` carries it). A request step ends later instead (requestSteps.ts).
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from "@slack/bolt";
import type { z } from "zod";
import { escapeMrkdwn } from "../../../../views/blocks.js";
import { NO_STEP_NAMES, plainStepText, type StepNames } from "../../../../views/steps/steps.js";
import { newRequestId, withRequestId } from "../../../context.js";
import { readStepInputs } from "../../../usecases/steps/inputs.js";
import type { StepAnswer } from "../../../usecases/steps/pricing.js";
import type { StepDeps } from "./index.js";

export type StepArgs = SlackEventMiddlewareArgs<"function_executed"> & AllMiddlewareArgs;

/** Looks up the names an error refers to (src/stepWiring.ts stepNamesOf). */
export type StepNamesLookup = (text: string) => Promise<StepNames>;

/** No look-up: the price and status steps' errors name nobody, so ids would do. */
const NO_LOOKUP: StepNamesLookup = async () => NO_STEP_NAMES;

/**
 * A step ended with an error, never thrown into Bolt. The run history shows it as plain text:
 * people and groups the error refers to read as @names (looked up with `names`), and hostile
 * text is made inert (plainStepText) rather than escaped, which would read as `&lt;…&gt;`.
 */
export async function failStep(
  services: StepDeps,
  args: Pick<StepArgs, "fail" | "event">,
  error: string,
  names: StepNamesLookup = NO_LOOKUP,
): Promise<void> {
  services.logger.info(
    {
      audit: "step",
      step: args.event.function.callback_id,
      executionId: args.event.function_execution_id,
      error,
    },
    "workflow step refused",
  );
  // A workflow may post the error anywhere: what a person typed or the provider said must not
  // ping a channel (`<!channel>`) there.
  const known = await names(error).catch(() => NO_STEP_NAMES);
  await args
    .fail({ error: plainStepText(error, known, 1_000) })
    .catch((failure: unknown) =>
      services.logger.warn(
        { err: failure, executionId: args.event.function_execution_id },
        "could not end the workflow step with its error",
      ),
    );
}

/** A step that answers at once: read, run, then complete or fail. */
export function immediateStep<I, O extends Record<string, unknown>>(
  services: StepDeps,
  schema: z.ZodType<I>,
  run: (inputs: I) => Promise<StepAnswer<O>>,
): (args: StepArgs) => Promise<void> {
  return (args) =>
    withRequestId(newRequestId(), async () => {
      const read = readStepInputs(schema, args.inputs);
      if (!read.ok) return failStep(services, args, read.error);
      let answer: StepAnswer<O>;
      try {
        answer = await run(read.value);
      } catch (error) {
        services.logger.error(
          { err: error, step: args.event.function.callback_id },
          "workflow step failed",
        );
        answer = { ok: false, error: "Something went wrong on our side; run the step again." };
      }
      if (!answer.ok) return failStep(services, args, answer.error);
      await args
        .complete({ outputs: escapedOutputs(answer.outputs) })
        .catch((error: unknown) =>
          services.logger.warn(
            { err: error, executionId: args.event.function_execution_id },
            "could not complete the workflow step",
          ),
        );
    });
}

/** Text outputs escaped for Slack (a later step may post them); numbers as they are. */
function escapedOutputs(outputs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(outputs).map(([key, value]) => [
      key,
      typeof value === "string" ? escapeMrkdwn(value) : value,
    ]),
  );
}
