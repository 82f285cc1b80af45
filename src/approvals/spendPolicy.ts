import { readFileSync } from "node:fs";
import { parseDocument } from "yaml";
import { z } from "zod";
import { APPROVAL_KINDS, type ApprovalKind, type ApprovalRequirement } from "./types.js";

/**
 * The spend-aware approval policy (APPROVAL_POLICY, a YAML file): rules by order kind and
 * monthly amount that say how many distinct people must approve a request, from which users or
 * user groups, and optionally that at least one of them is from a given group. The first rule
 * that matches a request applies; the last rule must match every request, so none is left
 * without one. Without a file, one approval from APPROVERS (the behaviour before policies).
 *
 * Read once at start-up; every problem in the file is listed at once (config.ts refuses to
 * start with them). A request keeps the requirement it was created under (stored on its
 * record), so changing the file never changes what a request already waiting needs.
 */

const USER_OR_GROUP_ID = /^[UWS][A-Z0-9]{2,}$/;
const GROUP_NAME = /^[a-z][a-z0-9-]{0,39}$/;
/** More distinct approvers than this is a typo, not a policy. */
export const MAX_APPROVALS = 10;

const approverRef = z
  .string({ error: "must be a group name or a Slack user (U…/W…) or user group (S…) ID" })
  .trim()
  .refine((value) => GROUP_NAME.test(value) || USER_OR_GROUP_ID.test(value), {
    error:
      "must be a group name (lower case, e.g. finance) or a Slack user (U…/W…) or user group (S…) ID",
  });

const amount = z
  .number({ error: "must be a number (a monthly amount in the provider's currency)" })
  .finite()
  .min(0, { error: "must not be negative" });

const ruleSchema = z
  .strictObject(
    {
      name: z
        .string({ error: "is required: a short name, shown on every request it applies to" })
        .trim()
        .min(1, { error: "must not be empty" })
        .max(80, { error: "must be at most 80 characters" }),
      kinds: z
        .array(z.enum(APPROVAL_KINDS, { error: `must be one of ${APPROVAL_KINDS.join(", ")}` }), {
          error: `must be a list of order kinds (${APPROVAL_KINDS.join(", ")})`,
        })
        .min(1, { error: "must list at least one kind (leave it out to match every kind)" })
        .optional(),
      monthlyFrom: amount.optional(),
      monthlyBelow: amount.optional(),
      approvals: z
        .number({ error: `must be a whole number from 1 to ${MAX_APPROVALS}` })
        .int({ error: `must be a whole number from 1 to ${MAX_APPROVALS}` })
        .min(1, { error: `must be a whole number from 1 to ${MAX_APPROVALS}` })
        .max(MAX_APPROVALS, { error: `must be a whole number from 1 to ${MAX_APPROVALS}` }),
      from: z
        .array(approverRef, { error: "must be a list of group names or Slack IDs" })
        .min(1, { error: "must name at least one group or person who may approve" }),
      atLeastOneFrom: approverRef.optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `has unknown key(s) ${issue.keys.join(", ")} (a rule has name, kinds, monthlyFrom, monthlyBelow, approvals, from, atLeastOneFrom)`
          : issue.code === "invalid_type"
            ? "must be a mapping with name, approvals, from and optional conditions"
            : undefined,
    },
  )
  .superRefine((rule, ctx) => {
    if (
      rule.monthlyFrom !== undefined &&
      rule.monthlyBelow !== undefined &&
      rule.monthlyFrom >= rule.monthlyBelow
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["monthlyBelow"],
        message: "must be more than monthlyFrom, or no amount matches the rule",
      });
    }
  });

const policySchema = z.strictObject(
  {
    groups: z
      .record(
        z.string().regex(GROUP_NAME),
        z
          .array(
            z
              .string({ error: "must be a Slack user (U…/W…) or user group (S…) ID" })
              .trim()
              .regex(USER_OR_GROUP_ID, {
                error: "must be a Slack user (U…/W…) or user group (S…) ID",
              }),
            { error: "must be a list of Slack user or user group IDs" },
          )
          .min(1, { error: "must list at least one Slack user or user group ID" }),
        {
          error: (issue) =>
            issue.code === "invalid_key"
              ? "is not a group name: lower case letters, digits and dashes (e.g. finance)"
              : issue.code === "invalid_type"
                ? "must map group names to lists of Slack IDs"
                : undefined,
        },
      )
      .optional(),
    rules: z
      .array(ruleSchema, { error: "must be a list of rules" })
      .min(1, { error: "must list at least one rule" }),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `has unknown key(s) ${issue.keys.join(", ")} (a policy has groups and rules)`
        : issue.code === "invalid_type"
          ? "must be a mapping with groups and rules"
          : undefined,
  },
);

/**
 * What the schema cannot see rule by rule: names of groups that are not defined, a rule name
 * used twice, rules never reached, no catch-all, more approvers asked for than named. Runs on
 * the file as written, whatever else is wrong in it, so every problem is listed at once.
 */
function crossReferenceProblems(file: unknown): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  if (!isObject(file) || !Array.isArray(file.rules)) return problems;
  const groups = isObject(file.groups) ? file.groups : {};
  const isId = (ref: unknown) => typeof ref === "string" && USER_OR_GROUP_ID.test(ref.trim());
  const known = (ref: unknown) =>
    isId(ref) || (typeof ref === "string" && Object.hasOwn(groups, ref.trim()));
  const idsOf = (ref: unknown): unknown[] =>
    isId(ref)
      ? [String(ref).trim()]
      : Array.isArray(groups[String(ref).trim()])
        ? (groups[String(ref).trim()] as unknown[])
        : [];
  const names = new Set<string>();
  const rules = file.rules as unknown[];
  rules.forEach((rule, index) => {
    if (!isObject(rule)) return;
    const at = (...rest: (string | number)[]) => ["rules", index, ...rest];
    if (typeof rule.name === "string" && rule.name.trim() !== "") {
      const name = rule.name.trim().toLowerCase();
      if (names.has(name))
        problems.push({
          path: at("name"),
          message: `"${rule.name.trim()}" is used by an earlier rule`,
        });
      names.add(name);
    }
    const from = Array.isArray(rule.from) ? rule.from : [];
    from.forEach((ref, i) => {
      if (typeof ref === "string" && GROUP_NAME.test(ref.trim()) && !known(ref)) {
        problems.push({
          path: at("from", i),
          message: `names no group "${ref.trim()}" (define it under groups)`,
        });
      }
    });
    const oneFrom = rule.atLeastOneFrom;
    if (typeof oneFrom === "string" && GROUP_NAME.test(oneFrom.trim()) && !known(oneFrom)) {
      problems.push({
        path: at("atLeastOneFrom"),
        message: `names no group "${oneFrom.trim()}" (define it under groups)`,
      });
    }
    // Only people named (no user group): they must be enough for the count.
    const refs = [...from, ...(oneFrom === undefined ? [] : [oneFrom])];
    const ids = refs.flatMap(idsOf).map(String);
    const people = new Set(ids).size;
    if (
      typeof rule.approvals === "number" &&
      refs.length > 0 &&
      refs.every(known) &&
      ids.every((id) => !id.startsWith("S")) &&
      people < rule.approvals
    ) {
      problems.push({
        path: at("approvals"),
        message: `asks for ${rule.approvals} distinct approvers, but from names only ${people} person${people === 1 ? "" : "s"}`,
      });
    }
    const catchAll =
      rule.kinds === undefined && rule.monthlyFrom === undefined && rule.monthlyBelow === undefined;
    if (catchAll && index < rules.length - 1) {
      problems.push({
        path: at(),
        message: "matches every request, so the rules after it never apply (make it the last)",
      });
    }
    if (!catchAll && index === rules.length - 1) {
      problems.push({
        path: at(),
        message:
          "the last rule must match every request (no kinds, monthlyFrom or monthlyBelow), so no order is left without a rule",
      });
    }
  });
  return problems;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type PolicyFile = z.output<typeof policySchema>;

export interface PolicyRule {
  name: string;
  kinds?: ApprovalKind[];
  monthlyFrom?: number;
  monthlyBelow?: number;
  approvals: number;
  /** As written: group names and Slack ids. */
  from: string[];
  atLeastOneFrom?: string;
}

export interface ApprovalPolicy {
  /** Named lists of Slack user and user group ids. */
  groups: Record<string, string[]>;
  rules: PolicyRule[];
}

export type PolicyParse = { ok: true; policy: ApprovalPolicy } | { ok: false; problems: string[] };

/** Reads a policy from YAML text: the policy, or every problem (where it is + what is wrong). */
export function parseApprovalPolicy(text: string): PolicyParse {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((error) => {
        const at = error.linePos?.[0];
        const where = at ? `line ${at.line}, column ${at.col}` : "the file";
        // The message ends with " at line …, column …:" and the lines around it.
        return `${where}: ${firstLine(error.message).replace(/ at line \d+, column \d+:?$/, "")}`;
      }),
    };
  }
  const file: unknown = doc.toJS() ?? null;
  const parsed = policySchema.safeParse(file);
  const problems = [...(parsed.success ? [] : parsed.error.issues), ...crossReferenceProblems(file)]
    .sort((a, b) => comparePaths(a.path, b.path))
    .map((issue) => `${pathText(issue.path)}: ${issue.message}`);
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  return { ok: true, policy: toPolicy(parsed.data) };
}

/** Reads the file at `path`; a file that cannot be read is one problem, said plainly. */
export function loadApprovalPolicy(path: string): PolicyParse {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EACCES"
          ? "permission denied"
          : code === "EISDIR"
            ? "it is a directory"
            : "it cannot be read";
    return { ok: false, problems: [`the file cannot be read (${why})`] };
  }
  return parseApprovalPolicy(text);
}

/** The policy before APPROVAL_POLICY: one approval from APPROVERS, shown as no named rule. */
export function defaultPolicy(approvers: readonly string[]): ApprovalPolicy {
  return { groups: {}, rules: [{ name: "", approvals: 1, from: [...approvers] }] };
}

/** What a request of this kind and monthly amount needs (the first rule that matches). */
export function requirementFor(
  policy: ApprovalPolicy,
  request: { kind: ApprovalKind; monthly?: number },
): ApprovalRequirement {
  // The last rule matches everything (validated), so `find` finds one; the fallback keeps
  // a hand-built policy without a catch-all deny-by-default (nobody may approve).
  const rule = policy.rules.find((candidate) => matches(candidate, request)) ?? {
    name: "no rule matched",
    approvals: 1,
    from: [],
  };
  const requirement: ApprovalRequirement = {
    rule: rule.name,
    approvals: rule.approvals,
    from: rule.from,
    approvers: resolve(policy, [
      ...rule.from,
      ...(rule.atLeastOneFrom ? [rule.atLeastOneFrom] : []),
    ]),
  };
  if (rule.atLeastOneFrom) {
    requirement.atLeastOneFrom = {
      name: rule.atLeastOneFrom,
      ids: resolve(policy, [rule.atLeastOneFrom]),
    };
  }
  return requirement;
}

/** Every Slack id the policy names: who could approve something. */
export function policyApprovers(policy: ApprovalPolicy): string[] {
  return resolve(
    policy,
    policy.rules.flatMap((rule) => [
      ...rule.from,
      ...(rule.atLeastOneFrom ? [rule.atLeastOneFrom] : []),
    ]),
  );
}

/**
 * Whether a rule's conditions hold. An unknown monthly amount (a request without one) meets
 * every `monthlyFrom` and no `monthlyBelow`: when the price is not known, the stricter rule
 * applies, never the cheaper one.
 */
function matches(rule: PolicyRule, request: { kind: ApprovalKind; monthly?: number }): boolean {
  if (rule.kinds && !rule.kinds.includes(request.kind)) return false;
  const monthly = request.monthly;
  if (rule.monthlyFrom !== undefined && monthly !== undefined && monthly < rule.monthlyFrom)
    return false;
  if (rule.monthlyBelow !== undefined && (monthly === undefined || monthly >= rule.monthlyBelow))
    return false;
  return true;
}

/** Problems in the order of the file: the top level and groups first, then rule by rule. */
function comparePaths(a: readonly PropertyKey[], b: readonly PropertyKey[]): number {
  const ruleIndex = (path: readonly PropertyKey[]) =>
    path[0] === "rules" && typeof path[1] === "number" ? path[1] : -1;
  return ruleIndex(a) - ruleIndex(b);
}

function resolve(policy: ApprovalPolicy, refs: readonly string[]): string[] {
  const ids = refs.flatMap((ref) =>
    USER_OR_GROUP_ID.test(ref) ? [ref] : (policy.groups[ref] ?? []),
  );
  return [...new Set(ids)];
}

function toPolicy(file: PolicyFile): ApprovalPolicy {
  return {
    groups: file.groups ?? {},
    rules: file.rules.map((rule) => ({
      name: rule.name,
      ...(rule.kinds ? { kinds: [...new Set(rule.kinds)] } : {}),
      ...(rule.monthlyFrom !== undefined ? { monthlyFrom: rule.monthlyFrom } : {}),
      ...(rule.monthlyBelow !== undefined ? { monthlyBelow: rule.monthlyBelow } : {}),
      approvals: rule.approvals,
      from: rule.from,
      ...(rule.atLeastOneFrom ? { atLeastOneFrom: rule.atLeastOneFrom } : {}),
    })),
  };
}

/** `rules[2].approvals`, as a person reads a place in the file. */
function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "the file";
  return path
    .map((part, i) =>
      typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`,
    )
    .join("");
}

function firstLine(message: string): string {
  return message.split("\n")[0] ?? message;
}
