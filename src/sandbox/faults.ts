// Fault injection per method and path: error rates, latency, hangs and fixed statuses for the
// next N calls. Draws come from a seeded PRNG, so a seed replays the same failures.
import { z } from "zod";
import { Prng } from "./random.js";

export interface FaultRule {
  /**
   * A glob on the path, optionally after a method: "/v2/edge/**", "POST /v2/edge/price/*"
   * ("*" stays within a path segment, "**" crosses segments); or a RegExp tested against
   * "METHOD /path" (for example /^GET \/api\/company\/[^/]+\/ports$/).
   */
  match: string | RegExp;
  /** Share of matching calls answered 500 (0 to 1). */
  errorRate?: number;
  /** Added before the answer (ms of real time). */
  latencyMs?: number;
  /** Never answer; the connection is closed by sandbox.close(). */
  hang?: boolean;
  /** Answer with this status (and `body`) instead of the real answer. */
  status?: number;
  /** Body for `status` or the injected 500; default: the provider's upstream error envelope. */
  body?: unknown;
  /** The rule applies to the next N matching calls only, then is spent; default: every call. */
  times?: number;
}

export type FaultAction =
  | { kind: "pass" }
  | { kind: "hang" }
  | { kind: "respond"; status: number; body: unknown };

export interface FaultDecision {
  latencyMs: number;
  action: FaultAction;
  /** Short description for the request log. */
  label: string;
}

/** What the provider answers when its external (upstream) provider fails. */
export function upstreamErrorBody(status = 500): unknown {
  return {
    error: {
      message: "Unhandled error of the external provider",
      status,
      statusCode: status,
    },
  };
}

function globToRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        out += ".*";
        i++;
      } else {
        out += "[^/]*";
      }
    } else {
      out += c.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${out}$`);
}

interface CompiledRule {
  rule: FaultRule;
  test: (method: string, path: string) => boolean;
  remaining: number;
}

function compile(rule: FaultRule): CompiledRule {
  let test: CompiledRule["test"];
  if (rule.match instanceof RegExp) {
    const re = rule.match;
    test = (method, path) => {
      re.lastIndex = 0;
      return re.test(`${method} ${path}`);
    };
  } else {
    const spec = rule.match.trim();
    const space = spec.indexOf(" ");
    const method = space > 0 ? spec.slice(0, space).toUpperCase() : undefined;
    const pathRe = globToRegExp(space > 0 ? spec.slice(space + 1).trim() : spec);
    test = (m, path) => (method === undefined || method === m) && pathRe.test(path);
  }
  return { rule, test, remaining: rule.times ?? Number.POSITIVE_INFINITY };
}

export class FaultInjector {
  private rules: CompiledRule[] = [];
  private readonly rng: Prng;

  constructor(seed: number, rules: readonly FaultRule[] = []) {
    this.rng = Prng.derive(seed, "faults");
    this.set(rules);
  }

  /** Replaces all rules. */
  set(rules: readonly FaultRule[]): void {
    this.rules = rules.map(compile);
  }

  add(rule: FaultRule): void {
    this.rules.push(compile(rule));
  }

  clear(): void {
    this.rules = [];
  }

  /** The active rules with what remains of their `times`. */
  list(): Array<FaultRule & { remaining: number | null }> {
    return this.rules.map((r) => ({
      ...r.rule,
      remaining: Number.isFinite(r.remaining) ? r.remaining : null,
    }));
  }

  /** The first live rule matching the call decides; undefined when none matches. */
  decide(method: string, path: string): FaultDecision | undefined {
    const upper = method.toUpperCase();
    const hit = this.rules.find((r) => r.remaining > 0 && r.test(upper, path));
    if (!hit) return undefined;
    hit.remaining -= 1;
    const { rule } = hit;
    const latencyMs = Math.max(0, rule.latencyMs ?? 0);
    const name = String(rule.match);
    if (rule.hang) return { latencyMs, action: { kind: "hang" }, label: `hang ${name}` };
    if (rule.status !== undefined) {
      const body = rule.body ?? upstreamErrorBody(rule.status);
      return {
        latencyMs,
        action: { kind: "respond", status: rule.status, body },
        label: `status ${rule.status} ${name}`,
      };
    }
    if (rule.errorRate !== undefined && this.rng.next() < rule.errorRate) {
      return {
        latencyMs,
        action: { kind: "respond", status: 500, body: rule.body ?? upstreamErrorBody(500) },
        label: `error ${name}`,
      };
    }
    return { latencyMs, action: { kind: "pass" }, label: latencyMs > 0 ? `latency ${name}` : "" };
  }
}

/** A rule as JSON (admin endpoint): `match` is a glob, or `regex` a RegExp source. */
const faultRuleJson = z
  .strictObject({
    match: z.string().min(1).optional(),
    regex: z.string().min(1).optional(),
    errorRate: z.number().min(0).max(1).optional(),
    latencyMs: z.number().int().min(0).max(600_000).optional(),
    hang: z.boolean().optional(),
    status: z.number().int().min(100).max(599).optional(),
    body: z.unknown().optional(),
    times: z.number().int().min(1).optional(),
  })
  .refine((r) => (r.match === undefined) !== (r.regex === undefined), {
    message: "give exactly one of match (a glob) or regex",
  });

const faultRulesJson = z.union([
  z.array(faultRuleJson),
  z.strictObject({ rules: z.array(faultRuleJson) }).transform((o) => o.rules),
  faultRuleJson.transform((r) => [r]),
]);

/** Parses rules sent to the admin endpoint; throws an Error naming the problem. */
export function parseFaultRules(json: unknown): FaultRule[] {
  const parsed = faultRulesJson.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      parsed.error.issues.map((i) => `${i.path.join(".") || "rules"}: ${i.message}`).join("; "),
    );
  }
  return parsed.data.map(({ match, regex, ...rest }) => {
    let pattern: string | RegExp;
    if (regex !== undefined) {
      try {
        pattern = new RegExp(regex);
      } catch {
        throw new Error(`regex is not a valid regular expression: ${regex}`);
      }
    } else {
      pattern = match!;
    }
    const rule: FaultRule = { match: pattern };
    if (rest.errorRate !== undefined) rule.errorRate = rest.errorRate;
    if (rest.latencyMs !== undefined) rule.latencyMs = rest.latencyMs;
    if (rest.hang !== undefined) rule.hang = rest.hang;
    if (rest.status !== undefined) rule.status = rest.status;
    if (rest.body !== undefined) rule.body = rest.body;
    if (rest.times !== undefined) rule.times = rest.times;
    return rule;
  });
}
