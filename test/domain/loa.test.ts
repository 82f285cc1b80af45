import { readFileSync } from "node:fs";
import type { KnownBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import {
  isLoaSettled,
  loaReminderDue,
  nextLoaStep,
  SETTLED_LOA_STATUSES,
} from "../../src/domain/tracking/loa.js";
import { statusEnding } from "../../src/domain/tracking/statuses.js";
import { ORDER_KINDS } from "../../src/orders/kinds.js";
import type { PortOrderRead } from "../../src/provider/api.js";
import { placedNextStepsText } from "../../views/approvals/approvalThread.js";
import { finalText } from "../../views/approvals/trackerMessages.js";
import { portOrderView } from "../../views/lookups/orders.js";

// The LOA rules give one answer in the three places that speak of the LOA: the tracker (its weekly
// reminder while the order goes on, its final message when the order is done), `/connect order`
// ("Next LOA step") and the placement message ("Next:"). Every port order status the provider's
// notes list and every LOA value known is fed through all three.

const NOTES = readFileSync(
  new URL("../../docs/provider/provider-notes.md", import.meta.url),
  "utf8",
);

/** The port order statuses as docs/provider/provider-notes.md lists them. */
function documentedOrderStatuses(): string[] {
  const line = /\*\*Port order `status`\*\*[^:]*:([\s\S]*?)Terminal/.exec(NOTES)?.[1] ?? "";
  return [...line.matchAll(/`([a-z_]+)`/g)].map((m) => m[1] as string);
}

const ORDER_STATUSES = documentedOrderStatuses();

// TODO is the only value the provider's specification shows; the settled ones are the bot's
// reading of the words that plainly mean "nothing to wait for", in the spellings people and
// records use; the rest still wait.
const LOA_VALUES = [
  "TODO",
  ...SETTLED_LOA_STATUSES,
  ...SETTLED_LOA_STATUSES.map((v) => v.toUpperCase()),
  "Not Required",
  "not-required",
  "N/A",
  "pending",
  "requested",
  "Some New Value",
];

const COMPLETE = "None — the LOA step is complete.";
const DID_NOT_GO_THROUGH = "None — the order did not go through.";

function sectionTexts(blocks: KnownBlock[]): string[] {
  return blocks.flatMap((b) => (b.type === "section" && b.text ? [b.text.text] : []));
}

/** What `/connect order` says under "Next LOA step". */
function viewStep(order: PortOrderRead): string {
  const line = sectionTexts(portOrderView(order, "UTC").blocks as KnownBlock[]).find((t) =>
    t.startsWith("*Next LOA step:* "),
  );
  if (!line) throw new Error("the order view has no Next LOA step");
  return line.slice("*Next LOA step:* ".length);
}

/** What the placement message in the request's thread says after "Next:". */
function placementStep(order: PortOrderRead): string {
  const result = {
    providerId: order.id,
    status: order.status,
    resource: "order" as const,
    record: order,
  };
  const text = placedNextStepsText(
    ORDER_KINDS.port.nextSteps({} as ApprovalRequest, result),
    result,
  );
  const next = /\*Next:\* (.*)\n/.exec(text)?.[1];
  if (next === undefined) throw new Error(`no Next: in ${text}`);
  return next;
}

const saysAStep = (step: string) => !step.startsWith("None");

describe("the LOA rules agree in the tracker, /connect order and the placement message", () => {
  it("reads the port order statuses from the provider's notes", () => {
    expect(ORDER_STATUSES).toEqual(expect.arrayContaining(["created", "done", "error"]));
    expect(ORDER_STATUSES.length).toBeGreaterThanOrEqual(8);
  });

  for (const status of ORDER_STATUSES) {
    it(`port order status ${status}: every LOA value`, () => {
      const ending = statusEnding("port-order", status);
      for (const loaStatus of LOA_VALUES) {
        const order = { id: "o-1", status, loaStatus } as PortOrderRead;
        const view = viewStep(order);
        const placement = placementStep(order);
        const why = `${status} / ${loaStatus}`;

        // The view and the placement message say the same words.
        expect(placement, why).toBe(nextLoaStep(order));
        expect(view, why).toBe(placement);

        // Settled, not settled, or no LOA step at all: one answer.
        if (ending === "failed" || ending === "cancelled") {
          expect(view, why).toBe(DID_NOT_GO_THROUGH);
        } else {
          expect(view === COMPLETE, why).toBe(isLoaSettled(loaStatus));
        }

        // The tracker: while the order goes on, it reminds exactly when a step is said...
        const reminds = loaReminderDue("port-order", status, loaStatus);
        if (ending === undefined) expect(reminds, why).toBe(saysAStep(view));
        else expect(reminds, why).toBe(false);

        // ...and when the order is done, its final message asks for the LOA exactly then.
        if (ending === "success") {
          const final = finalText(
            { orderId: order.id, kind: "on-net" },
            { status, loaStatus, port: {} },
          );
          expect(/Next: the LOA/.test(final), why).toBe(saysAStep(view));
        }
      }
    });
  }
});
