import type { WebClient } from "@slack/web-api";
import type { Services } from "../../services.js";
import { postForApproval, type SubmitOutcome, storeForApproval } from "../approvals.js";

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
  services: Services;
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
