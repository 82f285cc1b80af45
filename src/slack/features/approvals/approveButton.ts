import type { ApprovalDeps } from "./index.js";
import { recordedButton } from "./recordedStep.js";

/** Approve (approval message or App Home): counts the clicker's approval, exactly once. */
export function approveButton(services: ApprovalDeps) {
  return recordedButton(services, "approve", "approved", (click) =>
    services.requests.approve(click.decision),
  );
}
