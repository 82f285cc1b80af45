import type { Services } from "../../../services.js";
import { approveAs } from "../../kit/approvers.js";
import { recordedButton } from "./recordedStep.js";

/** Approve (approval message or App Home): counts the clicker's approval, exactly once. */
export function approveButton(services: Services) {
  return recordedButton(services, "approve", "approved", (click) =>
    approveAs(services, click.client, click.record, click.userId),
  );
}
