import type { KnownBlock } from "@slack/types";
import type { DirectoryReport } from "../../src/approvals/directoryCheck.js";
import type { ApprovalPolicy, PolicyRule } from "../../src/approvals/spendPolicy.js";
import { isSlackUserGroupId, isSlackUserId } from "../../src/domain/slackIds.js";
import { ORDER_KIND_LABEL, requirementWords } from "../approvals/approvals.js";
import { capBlocks, context, escapeMrkdwn, header, section } from "../blocks.js";
import type { Reply } from "../reply.js";

/**
 * `/connect policy`: the approval policy in words — each rule in the order it is tried, what
 * it matches and what it asks for, and who is in each group. Without a policy file: one
 * approval from APPROVERS.
 */
export function policyView(
  policy: ApprovalPolicy,
  options: {
    fromFile: boolean;
    allowSelfApproval: boolean;
    /** The latest check of the named users and groups against Slack (problems, a warning). */
    directory?: DirectoryReport;
  },
): Reply {
  const approverRefText = (ref: string) => policyRefText(ref, options.directory);
  const checked = directoryBlocks(options.directory);
  const self = options.allowSelfApproval
    ? "A requester may approve their own request."
    : "Nobody approves their own request.";
  if (!options.fromFile) {
    const approvers = policy.rules[0]?.from ?? [];
    const who =
      approvers.length > 0
        ? approvers.map(approverRefText).join(", ")
        : "nobody yet (APPROVERS is not set)";
    const text = `Every order needs *1 approval* from ${who}. ${self}`;
    return {
      text,
      keepPrivate: POLICY_STAYS_PRIVATE,
      blocks: [
        header("Approval policy"),
        ...checked,
        section(text),
        context("An admin can set rules by order kind and monthly amount with APPROVAL_POLICY."),
      ],
    };
  }
  const blocks: KnownBlock[] = [
    header("Approval policy"),
    ...checked,
    section(
      `The first rule that matches a request applies; every approval is by a different person, and anyone a rule names may also reject. ${self}`,
    ),
  ];
  policy.rules.forEach((rule, index) => {
    blocks.push(
      section(
        `*${index + 1}. ${escapeMrkdwn(rule.name)}*\n${conditionWords(rule)}: ${requirementWords(
          {
            rule: rule.name,
            approvals: rule.approvals,
            from: rule.from,
            approvers: [],
            ...(rule.atLeastOneFrom
              ? { atLeastOneFrom: { name: rule.atLeastOneFrom, ids: [] } }
              : {}),
          },
          approverRefText,
        )}.`,
      ),
    );
  });
  const groups = Object.entries(policy.groups);
  if (groups.length > 0) {
    blocks.push(
      context(
        ...groups
          .slice(0, 10)
          .map(([name, ids]) => `*${escapeMrkdwn(name)}*: ${ids.map(approverRefText).join(", ")}`),
      ),
    );
  }
  const count = `${policy.rules.length} rule${policy.rules.length === 1 ? "" : "s"}`;
  blocks.push(
    context(
      `${count}: the first that matches applies. A request keeps the rule it was created under.`,
    ),
  );
  const text = `Approval policy: ${count}, the first that matches applies`;
  return { text, blocks: capBlocks(blocks), keepPrivate: POLICY_STAYS_PRIVATE };
}

/** "Edge port orders of 1,000 a month or more", "Every other request". */
export function conditionWords(rule: PolicyRule): string {
  const kinds = rule.kinds
    ? rule.kinds.map((kind) => `${ORDER_KIND_LABEL[kind]}s`).join(" and ")
    : undefined;
  const amounts: string[] = [];
  if (rule.monthlyFrom !== undefined)
    amounts.push(`${amountText(rule.monthlyFrom)} a month or more`);
  if (rule.monthlyBelow !== undefined)
    amounts.push(`under ${amountText(rule.monthlyBelow)} a month`);
  if (!kinds && amounts.length === 0) return "Every other request";
  const amount =
    amounts.length > 0 ? `${kinds ? " of " : "Requests of "}${amounts.join(" and ")}` : "";
  const unknown = rule.monthlyFrom !== undefined ? " (or with no monthly price)" : "";
  return `${kinds ?? ""}${amount}${unknown}`;
}

function amountText(value: number): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** Posted in a channel, the policy's mentions would notify every approver and group it names. */
export const POLICY_STAYS_PRIVATE =
  "The policy is not shared in the channel: its mentions would notify every approver it names. Anyone can run `/connect policy` to read it.";

/**
 * A group name in bold, a user as a mention, a user group as Slack shows it (`<!subteam^S…>`
 * renders its handle, @network-approvers, as refusals name it; this answer is private, so
 * nobody is notified). A group the last check did not find in Slack is shown by its id, said so.
 */
function policyRefText(ref: string, directory: DirectoryReport | undefined): string {
  if (isSlackUserId(ref)) return `<@${ref}>`;
  if (isSlackUserGroupId(ref)) {
    const missing = directory && !directory.warning && directory.handles[ref] === undefined;
    return missing ? `user group \`${ref}\` (not found in Slack)` : `<!subteam^${ref}>`;
  }
  return `*${escapeMrkdwn(ref)}*`;
}

/** What the last check against Slack found: problems, or that Slack could not be asked. */
function directoryBlocks(directory: DirectoryReport | undefined): KnownBlock[] {
  if (!directory) return [];
  if (directory.warning) return [section(`:warning: ${escapeMrkdwn(directory.warning)}`)];
  if (directory.problems.length === 0) return [];
  const lines = directory.problems.slice(0, 10).map((problem) => `• ${escapeMrkdwn(problem)}`);
  const more = directory.problems.length - lines.length;
  return [
    section(
      `:warning: *When this was last checked against Slack, approvals could not work as written:*\n${lines.join("\n")}${more > 0 ? `\n…and ${more} more (see the log)` : ""}`,
    ),
  ];
}
