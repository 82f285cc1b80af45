import type { Services } from "../../../services.js";
import { recordedButton } from "./recordedStep.js";

/** Approve (approval message or App Home): counts the clicker's approval, exactly once. */
export function approveButton(services: Services) {
  return recordedButton(services, "approve", "approved", (click) =>
    services.requests.approve(click.decision),
  );
}
