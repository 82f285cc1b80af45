import type { Services } from "../../../services.js";
import { approverAction } from "./approverClick.js";
import { recordedStep } from "./recordedStep.js";

/**
 * The approver's buttons on a placement that went wrong (src/orders/recovery): Retry, Place
 * again (only after a look-up found nothing) and Mark failed. Each moves the request, so each is
 * stored before it is acked.
 */

export function retryButton(services: Services) {
  return approverAction(
    services,
    "retry",
    recordedStep(services, "retry", "retried", (click) =>
      services.orders.retry(click.record.id, click.userId),
    ),
  );
}

export function placeAgainButton(services: Services) {
  return approverAction(
    services,
    "place-again",
    recordedStep(services, "place-again", "placing again", (click) =>
      services.orders.placeAgain(click.record.id, click.userId),
    ),
  );
}

export function markFailedButton(services: Services) {
  return approverAction(
    services,
    "mark-failed",
    recordedStep(services, "mark-failed", "marked failed", (click) =>
      services.orders.markFailed(click.record.id, click.userId),
    ),
  );
}
