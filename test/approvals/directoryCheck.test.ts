import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkDirectory,
  type Directory,
  type DirectoryGroup,
  parseApprovalPolicy,
} from "../../src/approvals/index.js";
import { slackDirectory } from "../../src/slackDirectory.js";
import { type SlackStandin, STANDIN_IDS, startSlackStandin } from "../../src/standin/index.js";

/** The check of every id the approval configuration names against Slack (issue 32, item 2). */

function directory(
  groups: DirectoryGroup[],
  users: Record<string, { deleted: boolean }>,
): Directory {
  return {
    userGroups: async () => groups,
    user: async (id) => users[id],
  };
}

function policy(text: string) {
  const parsed = parseApprovalPolicy(text);
  if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
  return parsed.policy;
}

describe("checkDirectory", () => {
  const groups: DirectoryGroup[] = [
    { id: "S0NETWORK", handle: "network", disabled: false, members: ["U0ALEX001", "U0GRACE01"] },
    { id: "S0EMPTY01", handle: "empty", disabled: false, members: [] },
    { id: "S0OLD0001", handle: "old-team", disabled: true, members: ["U0ALEX001"] },
  ];
  const users = { U0ALEX001: { deleted: false }, U0GONE001: { deleted: true } };

  it("finds nothing wrong when every id exists and every rule can be met, and keeps the handles", async () => {
    const report = await checkDirectory(
      { approvers: ["U0ALEX001", "S0NETWORK"] },
      directory(groups, users),
    );
    expect(report.problems).toEqual([]);
    expect(report.warning).toBeUndefined();
    expect(report.handles).toMatchObject({ S0NETWORK: "network" });
  });

  it("lists missing, disabled and deactivated ids by where they are named, and rules nobody can meet", async () => {
    const report = await checkDirectory(
      {
        approvers: [],
        policy: policy(`
groups:
  network: [S0NETWORK, S0OLD0001]
  finance: [S0EMPTY01, U0GONE001]
rules:
  - name: Three
    monthlyFrom: 5000
    approvals: 3
    from: [network]
  - name: Finance too
    monthlyFrom: 1000
    approvals: 2
    from: [network, finance]
    atLeastOneFrom: finance
  - name: Rest
    approvals: 1
    from: [network, S0MISSING1]
`),
        spendViewers: ["U0NOBODY1"],
      },
      directory(groups, users),
    );
    expect(report.problems).toEqual([
      "APPROVAL_POLICY groups.network names the user group S0OLD0001 (@old-team), which is disabled",
      "APPROVAL_POLICY groups.finance names the user U0GONE001, whose account is deactivated",
      "APPROVAL_POLICY rules[2] names the user group S0MISSING1, which does not exist in this Slack workspace",
      "SPEND_VIEWERS names the user U0NOBODY1, who does not exist in this Slack workspace",
      'APPROVAL_POLICY rules[0] ("Three") can never be satisfied: it needs 3 distinct approvers, and only 2 people in Slack can approve under it',
      'APPROVAL_POLICY rules[1] ("Finance too") can never be satisfied: one approval must come from finance, which has nobody in Slack',
    ]);
  });

  it("warns, and finds no problem, when Slack cannot be asked", async () => {
    const report = await checkDirectory(
      { approvers: ["S0NETWORK"] },
      {
        userGroups: async () => {
          throw new Error("connect ECONNREFUSED 127.0.0.1:9");
        },
        user: async () => undefined,
      },
    );
    expect(report.problems).toEqual([]);
    expect(report.warning).toContain("Slack did not answer (connect ECONNREFUSED");
  });

  it("asks nothing when nothing is named (ordering not configured)", async () => {
    let asked = 0;
    const report = await checkDirectory(
      { approvers: [] },
      {
        userGroups: async () => {
          asked += 1;
          return [];
        },
        user: async () => {
          asked += 1;
          return undefined;
        },
      },
    );
    expect(report).toMatchObject({ problems: [] });
    expect(asked).toBe(0);
  });
});

describe("the Slack stand-in's directory", () => {
  let standin: SlackStandin;
  let client: WebClient;
  beforeAll(async () => {
    standin = await startSlackStandin();
    client = new WebClient(standin.botToken, {
      slackApiUrl: standin.apiUrl,
      retryConfig: { retries: 0 },
    });
  });
  afterAll(async () => {
    await standin?.close();
  });

  it("passes the playground's default approvers, and lists its groups as usergroups.users.list answers", async () => {
    // src/bot.ts's local default: Alex by id and the S0APPROVERS group.
    const report = await checkDirectory(
      { approvers: [STANDIN_IDS.approver, STANDIN_IDS.approverGroup] },
      slackDirectory(client),
    );
    expect(report).toMatchObject({ problems: [], handles: { S0APPROVERS: "network-approvers" } });
    const listed = await client.usergroups.list({ include_users: true });
    const members = await client.usergroups.users.list({ usergroup: STANDIN_IDS.approverGroup });
    expect(listed.usergroups?.find((g) => g.id === STANDIN_IDS.approverGroup)?.users).toEqual(
      members.users,
    );
  });

  it("leaves a disabled group out unless asked, and answers no_such_subteam for its members", async () => {
    const group = standin.workspace.userGroups.get(STANDIN_IDS.approverGroup)!;
    standin.workspace.userGroups.set(group.id, { ...group, disabled: true });
    try {
      expect((await client.usergroups.list({})).usergroups).toEqual([]);
      const all = await client.usergroups.list({ include_disabled: true });
      expect(all.usergroups?.[0]).toMatchObject({ id: group.id, date_delete: 1 });
      await expect(client.usergroups.users.list({ usergroup: group.id })).rejects.toMatchObject({
        data: { error: "no_such_subteam" },
      });
      const report = await checkDirectory({ approvers: [group.id] }, slackDirectory(client));
      expect(report.problems).toEqual([
        "APPROVERS names the user group S0APPROVERS (@network-approvers), which is disabled",
        "APPROVERS can never be satisfied: it needs 1 distinct approver, and nobody in Slack can approve under it",
      ]);
    } finally {
      standin.workspace.userGroups.set(group.id, group);
    }
  });
});
