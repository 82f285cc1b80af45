import type { AppAck } from "../driver/transport.js";
import { isObject } from "../json.js";
import type { StandinView } from "../types.js";
import { viewProblems } from "../webApi/blockKit.js";
import { MAX_MODAL_STACK, type Workspace } from "../workspace.js";

/**
 * What Slack does with the app's answer to a view_submission: `errors` shown next to the
 * inputs, `update` replacing the view, `push` stacking one more, `clear` closing all, an empty
 * ack closing the submitted view, and anything Slack would refuse reported as a problem. Apart
 * from the driver because it is Slack's rule book for one answer, not a person's action.
 */

export interface ViewSubmissionOutcome extends AppAck {
  responseAction?: string;
  errors?: Record<string, string>;
  /** The person's top modal after the ack was applied (none when all closed). */
  currentView?: StandinView;
  /** What Slack would have refused in the app's answer (an invalid view, unknown block ids). */
  problems: string[];
}

/** Applies the app's ack of `submitted` to the person's modals; says what Slack would refuse. */
export function applySubmissionAck(
  workspace: Workspace,
  userId: string,
  submitted: StandinView,
  ack: AppAck,
): ViewSubmissionOutcome {
  const outcome: ViewSubmissionOutcome = { ...ack, problems: [] };
  const done = () => ({ ...outcome, currentView: workspace.currentView(userId) });
  // Slack keeps the modal open and shows a connection error when the app fails to ack.
  if (ack.status !== 200) {
    outcome.problems.push(
      `the app answered HTTP ${ack.status}; Slack would show an error in the modal`,
    );
    return done();
  }
  const body = ack.body;
  if (body === undefined || (isObject(body) && Object.keys(body).length === 0)) {
    workspace.closeView(userId, submitted.view.id);
    return done();
  }
  if (!isObject(body) || typeof body.response_action !== "string") {
    outcome.problems.push(
      `unexpected ack body for view_submission: ${JSON.stringify(body).slice(0, 200)}`,
    );
    return done();
  }
  outcome.responseAction = body.response_action;
  switch (body.response_action) {
    case "errors": {
      const errors = isObject(body.errors) ? (body.errors as Record<string, string>) : {};
      const inputBlocks = new Set(
        (submitted.view.blocks as unknown as Record<string, unknown>[])
          .filter((b) => b.type === "input")
          .map((b) => String(b.block_id)),
      );
      const unknown = Object.keys(errors).filter((id) => !inputBlocks.has(id));
      if (unknown.length > 0) {
        outcome.problems.push(
          `errors name block_id(s) that are no input of the view: ${unknown.join(", ")}`,
        );
      }
      outcome.errors = errors;
      workspace.setViewErrors(submitted.view.id, errors);
      return done();
    }
    case "update":
    case "push": {
      const problems = viewProblems(body.view, "modal");
      if (problems.length > 0) {
        outcome.problems.push(...problems);
        return done();
      }
      const view = body.view as Record<string, unknown>;
      if (body.response_action === "update") {
        workspace.updateView(submitted.view.id, view);
      } else if (workspace.stackDepth(userId) >= MAX_MODAL_STACK) {
        outcome.problems.push("push_limit_reached: Slack stacks at most 3 modals");
      } else {
        workspace.pushView(userId, view);
      }
      return done();
    }
    case "clear":
      workspace.clearModals(userId);
      return done();
    default:
      outcome.problems.push(`unknown response_action "${body.response_action}"`);
      return done();
  }
}
