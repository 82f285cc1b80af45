import type {
  AllMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewOutput,
  ViewSubmitAction,
} from "@slack/bolt";
import type { KnownBlock, ModalView } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { escapeMrkdwn } from "../../../views/blocks.js";
import type { ApprovalSettings } from "../../approvals/index.js";
import { newRequestId, withRequestId } from "../../context.js";
import type { Logger } from "../../log.js";
import type { Metrics } from "../../metrics.js";
import type { OrderSubmission } from "../../orders/index.js";
import type { OrderLifecycle } from "../../orders/lifecycle.js";
import type { OrderRequests } from "../../orders/requests.js";
import type { ProviderApi } from "../../provider/api.js";
import type { IdentityLookup } from "../../provider/identity.js";
import type { FormCheck } from "../../usecases/shared/formChecks.js";
import type { Outcome } from "../connect.js";
import {
  postForApproval,
  type SubmitDeps,
  type SubmitOutcome,
  storeForApproval,
  submittedReply,
} from "./approvalRequest.js";
import { recordCommand } from "./audit.js";
import { blockErrors } from "./fieldErrors.js";
import { approvalsUnavailable } from "./requireApprovals.js";
import { tellPrivately } from "./tellPrivately.js";

/** The order a form submits, as the approvals take it (wherever the order types live). */
type FormSubmission = Parameters<typeof storeForApproval>[0]["submission"];

/**
 * Submits an order form's request and answers the form at the right moment: the request is
 * stored (its name reserved atomically) *before* the form is answered, because only the
 * answer to a view_submission can put an error next to a field. So when another request took
 * the name between the form's own check and now (two people, or one double submit), the form
 * stays open with the error at its name field and nothing is stored. Any other outcome closes
 * the form first and is then posted; the caller tells the requester, as before.
 *
 * `answerForm(nameError)` acks the view submission: with the message as the name field's error,
 * or plainly (closing the form) when there is none. It is called exactly once, also when storing
 * throws (the error is rethrown after it).
 */
export async function submitFromForm(input: {
  services: SubmitDeps;
  client: WebClient;
  submission: FormSubmission;
  answerForm: (nameError?: string) => Promise<void>;
}): Promise<SubmitOutcome> {
  const { services, client, submission, answerForm } = input;
  let stored: Awaited<ReturnType<typeof storeForApproval>>;
  try {
    stored = await storeForApproval({ services, client, submission });
  } catch (error) {
    await answerForm();
    throw error;
  }
  if (!stored.ok && stored.field === "name") {
    await answerForm(stored.message);
    return stored;
  }
  await answerForm();
  if (!stored.ok) return stored;
  return postForApproval({ services, client, approval: stored.approval });
}

/**
 * The checked form goes to approval (see submitFromForm: a name taken meanwhile is answered
 * next to the form's name field, and the form stays open) and the requester hears where it is.
 * Only ids and the outcome are logged, never the call body (an IO-D body carries the BGP key).
 */
/** What submitting a checked form and telling the requester use. */
export type SubmitFormDeps = SubmitDeps & {
  approvals: ApprovalSettings;
  metrics: Metrics;
};

/**
 * What an order form's listeners (port, layer 2, IO-D) use: its checks reach the provider, and it
 * submits through the kit. Each feature's deps type is this, plus what only it needs.
 */
export interface OrderFormDeps extends SubmitFormDeps {
  provider: ProviderApi;
  identity: IdentityLookup;
  logger: Logger;
  requests: OrderRequests;
  orders: OrderLifecycle;
  sandbox: boolean;
}

export async function submitAndTell(
  services: SubmitFormDeps,
  client: WebClient,
  command: string,
  submission: OrderSubmission,
  answerForm: (nameError?: string) => Promise<void>,
  /** `performance.now()` when the submission came in: its latency is recorded with it. */
  startedAt?: number,
): Promise<void> {
  const where = submission.requester;
  let outcome: Outcome = "succeeded";
  let text: string;
  let blocks: KnownBlock[] | undefined;
  try {
    const submitted = await submitFromForm({ services, client, submission, answerForm });
    // Answered next to the name field, like the form's other errors (the form stays open).
    if (!submitted.ok && submitted.field === "name") return;
    if (submitted.ok) ({ text, blocks } = submittedReply(submitted));
    else {
      outcome = "blocked";
      text = `:no_entry: ${submitted.message}`;
    }
  } catch (error) {
    outcome = "errored";
    services.logger.error({ err: error, command }, "could not submit the request for approval");
    text = `:warning: Your request *${escapeMrkdwn(submission.title)}* could not be sent for approval; nothing was ordered. Try again in a minute.`;
  }
  try {
    await tellPrivately(client, services, where, { text, ...(blocks ? { blocks } : {}) });
  } catch (error) {
    services.logger.error({ err: error, command }, "could not tell the requester");
  }
  recordCommand(services, {
    command,
    userId: where.userId,
    outcome,
    via: "modal",
    ...(startedAt !== undefined ? { startedAt } : {}),
  });
}

/**
 * What an order form's check answers the kit: the use cases' one FormCheck (field errors, or the
 * order to submit), or a view to show instead (a price to review before the order goes).
 */
export type OrderFormCheck<F extends string> =
  | FormCheck<OrderSubmission, F>
  | { update: ModalView };

type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/**
 * An order form's submit: refused inside the form while approvals are not set up; else checked
 * (`check`, against fresh data), its errors answered next to their fields (a check that throws
 * reads "press Submit again" at the name), and a ready order submitted (submitAndTell).
 * `form.what` names the form in the log; `form.command` in the audit line.
 */
export function checkThenSubmit<F extends string>(
  services: SubmitFormDeps,
  form: { command: string; what: string; blocks: Readonly<Record<F, string>>; nameField: F },
  check: (view: ViewOutput, userId: string) => Promise<OrderFormCheck<F>>,
): (args: ViewArgs) => Promise<void> {
  return async ({ ack, body, view, client }) => {
    const answerErrors = (errors: Partial<Record<F, string>>) =>
      ack({
        response_action: "errors",
        errors: blockErrors(errors, form.blocks, view, form.nameField),
      });
    const atName = (message: string) =>
      ({ [form.nameField]: message }) as Partial<Record<F, string>>;
    const unavailable = approvalsUnavailable(services);
    if (unavailable) {
      await answerErrors(atName(unavailable));
      return;
    }
    let checked: OrderFormCheck<F>;
    try {
      checked = await check(view, body.user.id);
    } catch (error) {
      services.logger.error({ err: error }, `${form.what} form check failed`);
      checked = {
        ok: false,
        errors: atName("Something went wrong on our side; press Submit again."),
      };
    }
    if ("update" in checked) {
      await ack({ response_action: "update", view: checked.update });
      return;
    }
    if (!checked.ok) {
      await answerErrors(checked.errors);
      return;
    }
    const submission = checked.value;
    await withRequestId(newRequestId(), () =>
      submitAndTell(services, client, form.command, submission, (nameError) =>
        nameError ? answerErrors(atName(nameError)) : ack(),
      ),
    );
  };
}
