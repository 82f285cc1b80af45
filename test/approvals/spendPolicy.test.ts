import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import {
  type ApprovalKind,
  parseApprovalPolicy,
  policyApprovers,
  requirementFor,
} from "../../src/approvals/index.js";
import { ConfigError, loadConfig } from "../../src/config.js";

/** The spend-aware approval policy: which rule applies, and a file with mistakes refused. */

const dir = mkdtempSync(join(tmpdir(), "approval-policy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function policyFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const EXAMPLE = readFileSync(
  new URL("../../docs/approval-policy.example.yml", import.meta.url),
  "utf8",
);

function parsed(text: string) {
  const result = parseApprovalPolicy(text);
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.policy;
}

describe("which rule applies", () => {
  const policy = parsed(`
groups:
  network: [S0NETWORK, U0ALEX001]
  finance: [S0FINANCE]
  cfo: [U0CFO0001]
rules:
  - name: Edge off-net
    kinds: [edge]
    approvals: 2
    from: [network]
  - name: Big spend
    monthlyFrom: 10000
    approvals: 3
    from: [network, finance]
    atLeastOneFrom: cfo
  - name: From 1,000 a month
    monthlyFrom: 1000
    monthlyBelow: 10000
    approvals: 2
    from: [network, finance]
    atLeastOneFrom: finance
  - name: Small layer 2
    kinds: [layer2, iod]
    monthlyBelow: 100
    approvals: 1
    from: [U0ALEX001]
  - name: Under 1,000 a month
    approvals: 1
    from: [network]
`);

  const cases: {
    kind: ApprovalKind;
    monthly?: number;
    rule: string;
    approvals: number;
    approvers: string[];
    oneFrom?: string[];
  }[] = [
    // Kinds: an Edge order needs two whatever it costs.
    {
      kind: "edge",
      monthly: 10,
      rule: "Edge off-net",
      approvals: 2,
      approvers: ["S0NETWORK", "U0ALEX001"],
    },
    {
      kind: "edge",
      monthly: 50_000,
      rule: "Edge off-net",
      approvals: 2,
      approvers: ["S0NETWORK", "U0ALEX001"],
    },
    // Thresholds: from is inclusive, below is exclusive.
    {
      kind: "port",
      monthly: 999.99,
      rule: "Under 1,000 a month",
      approvals: 1,
      approvers: ["S0NETWORK", "U0ALEX001"],
    },
    {
      kind: "port",
      monthly: 1000,
      rule: "From 1,000 a month",
      approvals: 2,
      approvers: ["S0NETWORK", "U0ALEX001", "S0FINANCE"],
      oneFrom: ["S0FINANCE"],
    },
    {
      kind: "port",
      monthly: 9999,
      rule: "From 1,000 a month",
      approvals: 2,
      approvers: ["S0NETWORK", "U0ALEX001", "S0FINANCE"],
      oneFrom: ["S0FINANCE"],
    },
    {
      kind: "port",
      monthly: 10000,
      rule: "Big spend",
      approvals: 3,
      approvers: ["S0NETWORK", "U0ALEX001", "S0FINANCE", "U0CFO0001"],
      oneFrom: ["U0CFO0001"],
    },
    // Kind and amount together.
    { kind: "layer2", monthly: 99, rule: "Small layer 2", approvals: 1, approvers: ["U0ALEX001"] },
    {
      kind: "iod",
      monthly: 100,
      rule: "Under 1,000 a month",
      approvals: 1,
      approvers: ["S0NETWORK", "U0ALEX001"],
    },
    {
      kind: "port",
      monthly: 50,
      rule: "Under 1,000 a month",
      approvals: 1,
      approvers: ["S0NETWORK", "U0ALEX001"],
    },
    // No monthly amount: the stricter rule (every monthlyFrom holds, no monthlyBelow does).
    {
      kind: "layer2",
      rule: "Big spend",
      approvals: 3,
      approvers: ["S0NETWORK", "U0ALEX001", "S0FINANCE", "U0CFO0001"],
      oneFrom: ["U0CFO0001"],
    },
  ];

  it.each(cases)("$kind at $monthly a month → $rule", (c) => {
    const requirement = requirementFor(policy, { kind: c.kind, monthly: c.monthly });
    expect(requirement.rule).toBe(c.rule);
    expect(requirement.approvals).toBe(c.approvals);
    expect(requirement.approvers).toEqual(c.approvers);
    expect(requirement.atLeastOneFrom?.ids).toEqual(c.oneFrom);
  });

  it("names every approver the policy has, once", () => {
    expect(policyApprovers(policy).sort()).toEqual(
      ["S0FINANCE", "S0NETWORK", "U0ALEX001", "U0CFO0001"].sort(),
    );
  });

  it("the example in docs/ validates and says: under 1,000 one network approver, from 1,000 two with one from finance, Edge always two", () => {
    const example = parsed(EXAMPLE);
    expect(requirementFor(example, { kind: "port", monthly: 999 })).toMatchObject({
      approvals: 1,
      approvers: ["S0NETWORK"],
    });
    expect(requirementFor(example, { kind: "layer2", monthly: 1000 })).toMatchObject({
      approvals: 2,
      atLeastOneFrom: { name: "finance", ids: ["S0FINANCE"] },
    });
    expect(requirementFor(example, { kind: "edge", monthly: 1 })).toMatchObject({ approvals: 2 });
  });

  it("the README's policy block is the example file, byte for byte, and parses", () => {
    // Comparing a tail of the file once let the README lose the `#` of its first comment line
    // (the tail began at that comment's "groups:"): the whole block is compared now.
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("### Spend-aware approval rules"));
    const block = /```yaml\n([\s\S]*?)```\n/.exec(section)?.[1];
    expect(block).toBe(EXAMPLE);
    expect(parseApprovalPolicy(block ?? "").ok).toBe(true);
  });
});

describe("a policy file with mistakes", () => {
  const MISTAKES = `
groups:
  Network: [S0NETWORK]
  finance: [alice]
rules:
  - name: Edge off-net
    kinds: [edge, satellite]
    approvals: 0
    from: [network]
  - name: Big
    monthlyFrom: 5000
    monthlyBelow: 1000
    approvals: 2
    from: [treasury]
    atLeastOneFrom: auditors
    colour: red
  - name: Two people
    kinds: [port]
    approvals: 3
    from: [U0ALEX001, U0SAM0001]
`;

  it("is refused at start-up with every problem listed: where it is and what is wrong", () => {
    let error: unknown;
    try {
      loadConfig({ APPROVAL_POLICY: policyFile("mistakes.yml", MISTAKES), APPROVERS: "U0ALEX001" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    const expected = [
      /^APPROVERS must not be set with APPROVAL_POLICY/,
      /APPROVAL_POLICY \(.*mistakes\.yml\) groups\.Network: .*lower case/,
      /groups\.finance\[0\]: must be a Slack user \(U…\/W…\) or user group \(S…\) ID/,
      /rules\[0\]\.kinds\[1\]: must be one of port, layer2, iod, edge/,
      /rules\[0\]\.approvals: must be a whole number from 1 to 10/,
      /rules\[1\]: .*colour/,
      /rules\[1\]\.monthlyBelow: must be more than monthlyFrom/,
      /rules\[1\]\.from\[0\]: names no group "treasury"/,
      /rules\[1\]\.atLeastOneFrom: names no group "auditors"/,
      /rules\[2\]\.approvals: asks for 3 distinct approvers, but from names only 2/,
      /rules\[2\]: the last rule must match every request/,
    ];
    for (const pattern of expected)
      expect(problems, String(pattern)).toContainEqual(expect.stringMatching(pattern));
    // rules[0].from names "network", which is undefined too (the group is "Network").
    expect(problems).toContainEqual(
      expect.stringMatching(/rules\[0\]\.from\[0\]: names no group "network"/),
    );
    expect(problems).toHaveLength(expected.length + 1);
    expect((error as ConfigError).message).toMatch(/^Configuration is not valid \(12 problems\):/);
  });

  it("says where a YAML syntax error is, and when the file cannot be read", () => {
    const syntax = parseApprovalPolicy("rules:\n  - name: a\n    approvals: [1\n");
    expect(syntax.ok).toBe(false);
    if (!syntax.ok) expect(syntax.problems[0]).toMatch(/^line \d+, column \d+: /);
    const duplicate = parseApprovalPolicy("rules: []\nrules: []\n");
    expect(duplicate.ok).toBe(false);
    if (!duplicate.ok)
      expect(duplicate.problems.join()).toMatch(/line 2.*[Uu]nique|line 2.*duplicate/i);
    for (const [text, problem] of [
      ["", /the file: must be a mapping with groups and rules/],
      ["rules: []", /rules: must list at least one rule/],
      ["- a\n- b", /the file: must be a mapping/],
    ] as const) {
      const result = parseApprovalPolicy(text);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problems).toContainEqual(expect.stringMatching(problem));
    }
    expect(() => loadConfig({ APPROVAL_POLICY: join(dir, "missing.yml") })).toThrow(
      /APPROVAL_POLICY \(.*missing\.yml\) the file cannot be read \(no such file\)/,
    );
  });

  it("stops the bot's own start-up with the list and no stack trace", async () => {
    const run = promisify(execFile);
    const root = new URL("../..", import.meta.url).pathname;
    const result = await run(join(root, "node_modules/.bin/tsx"), ["src/main.ts"], {
      cwd: root,
      env: { PATH: process.env.PATH, APPROVAL_POLICY: policyFile("bad.yml", MISTAKES) },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Configuration is not valid \(11 problems\):/);
    expect(result.stderr).toContain("rules[1].atLeastOneFrom: names no group");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);
});
