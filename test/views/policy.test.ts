import { describe, expect, it } from "vitest";
import { defaultPolicy, parseApprovalPolicy } from "../../src/approvals/index.js";
import { policyView } from "../../views/general/policy.js";
import { readable } from "./support.js";

/** `/connect policy` (issue 32, items 2 and 14): groups by their handle, and what the check found. */

const parsed = parseApprovalPolicy(`
groups:
  network: [S0APPROVERS, U0APPROVE1]
  finance: [S0FINANCE]
rules:
  - name: Big
    monthlyFrom: 1000
    approvals: 2
    from: [network, finance]
    atLeastOneFrom: finance
  - name: Rest
    approvals: 1
    from: [network, S0OTHER01]
`);
if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
const policy = parsed.policy;
const base = { fromFile: true, allowSelfApproval: false };

describe("policyView", () => {
  it("shows user groups as Slack renders them, by handle (<!subteam^…>), never a raw id", () => {
    const shown = readable(policyView(policy, base).blocks);
    expect(shown).toContain("*network*: <!subteam^S0APPROVERS>, <@U0APPROVE1>");
    expect(shown).toContain("from *network* or <!subteam^S0OTHER01>");
    expect(shown).not.toContain("user group `S0APPROVERS`");
    const plain = readable(
      policyView(defaultPolicy(["U0APPROVE1", "S0APPROVERS"]), { ...base, fromFile: false }).blocks,
    );
    expect(plain).toContain("from <@U0APPROVE1>, <!subteam^S0APPROVERS>");
  });

  it("says what the last check against Slack found, and marks a group Slack does not have", () => {
    const shown = readable(
      policyView(policy, {
        ...base,
        directory: {
          checkedAt: new Date(),
          problems: [
            "APPROVAL_POLICY groups.finance names the user group S0FINANCE, which does not exist",
          ],
          handles: { S0APPROVERS: "network-approvers", S0OTHER01: "other" },
        },
      }).blocks,
    );
    expect(shown).toContain("approvals could not work as written");
    expect(shown).toContain("names the user group S0FINANCE, which does not exist");
    expect(shown).toContain("*finance*: user group `S0FINANCE` (not found in Slack)");
    expect(shown).toContain("<!subteam^S0APPROVERS>");
  });

  it("repeats the warning when Slack could not be asked", () => {
    const shown = readable(
      policyView(policy, {
        ...base,
        directory: {
          checkedAt: new Date(),
          problems: [],
          handles: {},
          warning: "could not be checked: Slack did not answer",
        },
      }).blocks,
    );
    expect(shown).toContain(":warning: could not be checked: Slack did not answer");
    // Nothing is known, so no group is called missing.
    expect(shown).not.toContain("not found in Slack");
  });
});
