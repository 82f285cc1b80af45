import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { WITHDRAWN_NOTE } from "../../src/domain/withdrawal.js";
import type { OrderProgress } from "../../src/orders/progress.js";
import { readRequest } from "../../src/orders/readModel.js";
import { ACTION_WITHDRAW, approvalMessageView } from "../../views/approvals/approvals.js";
import { approvalsListView } from "../../views/approvals/approvalsList.js";
import {
  CARD_FOOTER_FINISHED,
  CARD_FOOTER_STOPPED,
  requestCardView,
} from "../../views/approvals/requestCard.js";
import { stateLine } from "../../views/requestState.js";
import { readable } from "./support.js";

/** The state line every surface shows, for a record and what tracking said of it. */
const requestStateLine = (record: ApprovalRequest, progress: OrderProgress | undefined) =>
  stateLine(readRequest(record, { progress }));

const base: ApprovalRequest = {
  id: "apr_abcdefghijklmnop",
  kind: "port",
  title: "ams-core-9",
  summary: [{ label: "Port name", value: "ams-core-9" }],
  call: { operation: "createPortOrder", pathParams: { companyUsername: "acme" }, body: {} },
  price: { total: 100, text: "1,200.00 for 12 months" },
  requester: { userId: "U0REQUEST1", channelId: "C0GENERAL1" },
  slack: { approvalChannel: "C0APPROVALS", approvalTs: "1700000000.000100" },
  sandbox: false,
  status: "pending",
  attempts: 0,
  history: [],
  createdAt: "2026-11-12T13:05:00.000Z",
  updatedAt: "2026-11-12T13:05:00.000Z",
};
const placed: ApprovalRequest = {
  ...base,
  status: "placed",
  decision: { by: "U0APPROVE1", at: "2026-11-12T13:06:00.000Z", action: "approve" },
  attempts: 1,
  result: { providerId: "po-1", status: "created", record: {} },
};
const LINK = "https://slack.example/archives/C0APPROVALS/p1700000000000100";

describe("the request card", () => {
  it("says each state in words, the latest tracked status and how it ended", () => {
    expect(requestStateLine(base, undefined)).toContain("Waiting for approval");
    expect(requestStateLine({ ...placed, status: "approved" }, undefined)).toMatch(
      /placing the order\* · approved by <@U0APPROVE1>/,
    );
    expect(requestStateLine(placed, undefined)).toContain(
      "*Ordered* · approved by <@U0APPROVE1> · order `po-1`",
    );
    expect(requestStateLine(placed, { status: "PROVISIONING" })).toContain(
      "*Ordered · now PROVISIONING*",
    );
    expect(
      requestStateLine(placed, { status: "ERROR", outcome: "failed", detail: "no slot" }),
    ).toContain("*Failed at the provider (ERROR)* · approved by <@U0APPROVE1> · no slot");
    const rejected = {
      ...base,
      status: "rejected" as const,
      decision: { by: "U0APPROVE1", at: base.createdAt, action: "reject" as const, reason: "no" },
    };
    expect(requestStateLine(rejected, undefined)).toContain(
      "*Rejected* · rejected by <@U0APPROVE1> · reason: no",
    );
    const withdrawn = {
      ...base,
      status: "cancelled" as const,
      history: [
        {
          at: base.createdAt,
          actor: "U0REQUEST1",
          from: "pending" as const,
          to: "cancelled" as const,
          note: WITHDRAWN_NOTE,
        },
      ],
    };
    expect(requestStateLine(withdrawn, undefined)).toContain("Withdrawn by the requester");
    // Cancelled by the bot for the requester (its message could not be posted): not a withdrawal.
    const notPosted = {
      ...withdrawn,
      history: withdrawn.history.map((h) => ({ ...h, note: "the approval message failed" })),
    };
    expect(requestStateLine(notPosted, undefined)).toContain("Cancelled");
  });

  it("ends by saying the order is no longer followed when tracking stopped, not that it is finished", () => {
    const stopped = requestCardView(
      readRequest(placed, { progress: { status: "created", outcome: "stopped" } }),
    );
    const text = readable(stopped.blocks);
    expect(text).toContain(CARD_FOOTER_STOPPED);
    expect(text).not.toContain(CARD_FOOTER_FINISHED);
    const done = readable(
      requestCardView(readRequest(placed, { progress: { status: "done", outcome: "done" } }))
        .blocks,
    );
    expect(done).toContain(CARD_FOOTER_FINISHED);
  });

  it("shows what, who, the price; links to the approval message; never the decision's buttons", () => {
    const view = requestCardView(readRequest(base), { approvalLink: LINK });
    const shown = readable(view.blocks);
    for (const expected of ["ams-core-9", "U0REQUEST1", "1,200.00 for 12 months", "Waiting"]) {
      expect(shown).toContain(expected);
    }
    const json = JSON.stringify(view.blocks);
    expect(json).toContain(LINK);
    expect(json).not.toContain("approval_approve");
    expect(json).not.toContain("approval_reject");
  });

  it("offers Withdraw (with its confirmation) only while pending", () => {
    const pending = JSON.stringify(requestCardView(readRequest(base)).blocks);
    expect(pending).toContain(`"action_id":"${ACTION_WITHDRAW}"`);
    expect(pending).toContain("Withdraw the request?");
    expect(JSON.stringify(requestCardView(readRequest(placed)).blocks)).not.toContain(
      ACTION_WITHDRAW,
    );
  });
});

describe("the final outcome (issue 23 item 6)", () => {
  it("the approval message and the audit trail say how a placed order ended, with the card's state key", () => {
    const progress = { status: "done", outcome: "done" as const };
    const model = readRequest(placed, { progress });
    const message = approvalMessageView(model);
    expect(readable(message.blocks)).toContain("Done");
    expect(readable(message.blocks)).not.toContain("Ordered");
    // The provider's status is said with the outcome only when it is another word.
    expect(readable(message.blocks)).not.toContain("Done (done)");
    expect(
      stateLine(readRequest(placed, { progress: { status: "ACTIVE", outcome: "done" } })),
    ).toMatch(/^:tada: \*Done \(ACTIVE\)\*/);
    const card = requestCardView(model);
    const key = (blocks: unknown) =>
      (blocks as Array<{ block_id?: string }>)
        .map((b) => b.block_id)
        .find((id) => id?.startsWith("state_"));
    expect(key(message.blocks)).toBe("state_placed:done");
    expect(key(card.blocks)).toBe(key(message.blocks));
    const list = approvalsListView([model], new Map(), "all");
    expect(readable(list.blocks)).toContain("Done");
    // Without progress it is still "Ordered" (tracking has not said anything yet).
    expect(readable(approvalMessageView(readRequest(placed)).blocks)).toContain("Ordered");
  });
});
