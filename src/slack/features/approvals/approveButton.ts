import type { Services } from "../../../services.js";
import { approverAction } from "./approverClick.js";
import { approveAs } from "./approvers.js";
import { recordedStep } from "./recordedStep.js";

/** Approve (approval message or App Home): counts the clicker's approval, exactly once. */
export function approveButton(services: Services) {
  return approverAction(
    services,
    "approve",
    recordedStep(services, "approve", "approved", (click) =>
      approveAs(services, click.client, click.record, click.userId),
    ),
  );
}
