import type { ApprovalDeps } from "./index.js";
import { recordedButton } from "./recordedStep.js";

/**
 * The approver's buttons on a placement that went wrong (src/orders/lifecycle.ts): Retry, Place
 * again (only after a look-up found nothing) and Mark failed. Each moves the request, so each is
 * stored before it is acked.
 */

export const retryButton = (services: ApprovalDeps) =>
  recordedButton(services, "retry", "retried", (click) => services.requests.retry(click.decision));

export const placeAgainButton = (services: ApprovalDeps) =>
  recordedButton(services, "place-again", "placing again", (click) =>
    services.requests.placeAgain(click.decision),
  );

export const markFailedButton = (services: ApprovalDeps) =>
  recordedButton(services, "mark-failed", "marked failed", (click) =>
    services.requests.markFailed(click.decision),
  );
