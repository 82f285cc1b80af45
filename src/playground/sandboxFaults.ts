import { z } from "zod";

/**
 * "Try a failure" on the playground page (issue 32, item 8): the embedded sandbox's fault knobs a
 * newcomer would otherwise find only in src/sandbox/README.md, behind a port shown in a log
 * line. Each knob calls the sandbox's own admin endpoints (`/__sandbox/faults`,
 * `/__sandbox/connections`), so the page can do nothing the README does not describe:
 * - fail the next order: the next order the bot places (port, layer 2, IO-D, Edge) is answered
 *   400 (a refusal), 500 (the provider's upstream error) or never (the bot's request times out
 *   and the outcome is unknown: README's "After a crash");
 * - slow the provider: every provider call waits a few seconds, or no longer;
 * - the partner company accepts or denies the newest layer 2 connection waiting on it.
 * Only ever built for the embedded sandbox.
 */

/** The provider calls that place an order (openapi/provider.yaml): port, layer 2, IO-D, Edge. */
export const ORDER_CALLS =
  "^(PUT /api/company/[^/]+/ports/orders|PUT /api/v2/company/[^/]+/connections/layer2|POST /app-user/[^/]+/gia-service|POST /api/company/[^/]+/ports/edge-orders)$";

/** How the sandbox lists that rule (a RegExp's text, with its slashes escaped). */
const ORDER_RULE_MATCH = String(new RegExp(ORDER_CALLS));

/** What "slow the provider" adds to every provider call. */
export const SLOW_PROVIDER_MS = 3_000;

export const faultBody = z.discriminatedUnion("knob", [
  z.object({
    knob: z.literal("fail-next-order"),
    /** 400: the provider refuses; 500: its upstream fails; timeout: it never answers. */
    outcome: z.enum(["400", "500", "timeout"]),
  }),
  z.object({ knob: z.literal("slow"), on: z.boolean() }),
  z.object({ knob: z.literal("partner"), decision: z.enum(["accept", "deny"]) }),
  z.object({ knob: z.literal("clear") }),
]);
export type FaultKnob = z.infer<typeof faultBody>;

/** A fault rule as the sandbox lists it (`match` is a glob or a RegExp's text). */
interface ListedRule {
  match: string;
  latencyMs?: number;
  hang?: boolean;
  status?: number;
  remaining: number | null;
}

interface ListedConnection {
  id: string;
  kind: string;
  name: string;
  status: string;
  awaitsOtherCompany: boolean;
  createdAt: string;
}

/** What the page shows under the knobs. */
export interface FaultsStatus {
  /** The next order will fail this way (400, 500, timeout), until it is placed. */
  nextOrder?: "400" | "500" | "timeout";
  /** Every provider call is this much slower. */
  slowMs?: number;
}

export class KnobProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface SandboxFaultsOptions {
  /** The embedded sandbox's address. */
  sandboxUrl: string;
  /** Has every open order tracker read its order now (after a partner decision). */
  checkOpenOrders: () => Promise<unknown>;
}

const SLOW_MATCH = "**";

export class SandboxFaults {
  private status: FaultsStatus = {};

  constructor(private readonly options: SandboxFaultsOptions) {}

  /** The knobs' state as last set, with a spent "next order" rule gone (it failed one order). */
  current(): FaultsStatus {
    return this.status;
  }

  /** Reads the sandbox's rules again: a "fail the next order" rule is spent once it failed one. */
  async refresh(): Promise<FaultsStatus> {
    const rules = await this.admin<ListedRule[]>("GET", "faults");
    const next = rules.find((r) => r.match === ORDER_RULE_MATCH && (r.remaining ?? 1) > 0);
    const slow = rules.find((r) => r.match === SLOW_MATCH && (r.latencyMs ?? 0) > 0);
    this.status = {
      ...(next ? { nextOrder: next.hang ? "timeout" : next.status === 400 ? "400" : "500" } : {}),
      ...(slow ? { slowMs: slow.latencyMs } : {}),
    };
    return this.status;
  }

  async turn(knob: FaultKnob): Promise<{ ok: true; said: string; faults: FaultsStatus }> {
    const said = await this.apply(knob);
    return { ok: true, said, faults: await this.refresh() };
  }

  private async apply(knob: FaultKnob): Promise<string> {
    switch (knob.knob) {
      case "fail-next-order":
        await this.replaceRules((rules) => [
          // First, so that a slow provider does not shadow it (the first matching rule decides).
          {
            regex: ORDER_CALLS,
            times: 1,
            ...(knob.outcome === "timeout" ? { hang: true } : { status: Number(knob.outcome) }),
          },
          ...rules.filter((r) => r.regex !== new RegExp(ORDER_CALLS).source),
        ]);
        return knob.outcome === "timeout"
          ? "The next order will get no answer: the bot's request times out and the outcome is unknown (approvers get Look up again)."
          : `The next order will be answered ${knob.outcome === "400" ? "400 (the provider refuses it)" : "500 (the provider's upstream fails)"}.`;
      case "slow":
        await this.replaceRules((rules) => [
          ...rules.filter((r) => r.match !== SLOW_MATCH),
          ...(knob.on ? [{ match: SLOW_MATCH, latencyMs: SLOW_PROVIDER_MS }] : []),
        ]);
        return knob.on
          ? `Every provider call now takes ${SLOW_PROVIDER_MS / 1000} s longer.`
          : "The provider answers at its normal speed.";
      case "partner":
        return this.partnerDecides(knob.decision);
      case "clear":
        await this.admin("DELETE", "faults");
        return "No faults: the sandbox answers normally.";
    }
  }

  /** The other company's answer to the newest layer 2 connection waiting on it. */
  private async partnerDecides(decision: "accept" | "deny"): Promise<string> {
    const connections = await this.admin<ListedConnection[]>("GET", "connections");
    const waiting = connections
      .filter((c) => c.kind === "LAYER2" && c.awaitsOtherCompany && c.status === "PENDING")
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
    const newest = waiting[0];
    if (!newest) {
      throw new KnobProblem(
        409,
        "No layer 2 connection is waiting on the other company. Order one to globex-cloud (/connect l2), have it approved, then +1 hour: it is PENDING until the partner answers.",
      );
    }
    // Accepting ends where the sandbox's own timeline ends (ACTIVE); denying is for good.
    const status = decision === "accept" ? "ACTIVE" : "DENIED";
    await this.admin("POST", `connections/${encodeURIComponent(newest.id)}`, { status });
    await this.options.checkOpenOrders();
    return decision === "accept"
      ? `The partner accepted ${newest.name}: it is ACTIVE.`
      : `The partner denied ${newest.name}.`;
  }

  private async replaceRules(
    change: (rules: Array<Record<string, unknown>>) => Array<Record<string, unknown>>,
  ): Promise<void> {
    const listed = await this.admin<ListedRule[]>("GET", "faults");
    // Spent rules are left out; a RegExp comes back as its text between slashes.
    const live = listed
      .filter((r) => r.remaining === null || r.remaining > 0)
      .map(({ remaining, match, ...rest }) => {
        const regex = /^\/(.*)\/[a-z]*$/s.exec(match);
        return {
          ...rest,
          ...(regex ? { regex: regex[1] } : { match }),
          ...(remaining !== null ? { times: remaining } : {}),
        };
      });
    await this.admin("PUT", "faults", change(live));
  }

  private async admin<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.options.sandboxUrl}/__sandbox/${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(5_000),
      });
    } catch {
      throw new KnobProblem(502, "The sandbox did not answer.");
    }
    const answer = (await response.json().catch(() => undefined)) as unknown;
    if (!response.ok) {
      const message = (answer as { message?: unknown } | undefined)?.message;
      throw new KnobProblem(
        502,
        `The sandbox refused: ${typeof message === "string" ? message : `HTTP ${response.status}`}`,
      );
    }
    return answer as T;
  }
}
