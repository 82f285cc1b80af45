import { randomBytes } from "node:crypto";
import type { SlackArgs, SlackResult } from "../types.js";
import { type WaitOptions, waitForMatch } from "../waiters.js";

/**
 * Workflow Builder custom steps as Slack runs them (issue 30): a step's run (function execution)
 * starts with a step-scoped token (`bot_access_token` of `function_executed`), and ends once,
 * by `functions.completeSuccess` or `functions.completeError` called with that very token —
 * another step's token, the bot token or none is refused (`invalid_auth`), as is a second end
 * (`execution_not_in_running_state`) or an unknown execution (`function_execution_not_found`).
 * `endBySlack` plays Slack ending a run itself (the workflow stopped or timed out).
 */

export type ExecutionState =
  | { state: "running" }
  | { state: "completed"; outputs: Record<string, unknown> }
  | { state: "failed"; error: string }
  | { state: "ended-by-slack" };

export interface StepExecution {
  executionId: string;
  workflowExecutionId: string;
  callbackId: string;
  inputs: Record<string, unknown>;
  token: string;
  startedAt: number;
  end: ExecutionState;
  /** Every functions.complete* call made for it, answered or refused (ok, error). */
  completions: Array<{ method: string; ok: boolean; error?: string }>;
}

const METHODS = new Set(["functions.completeSuccess", "functions.completeError"]);

function id(prefix: string): string {
  return `${prefix}${randomBytes(6).toString("hex").toUpperCase()}`;
}

export class FunctionExecutions {
  private readonly runs = new Map<string, StepExecution>();
  private readonly listeners = new Set<(run: StepExecution) => void>();

  static handles(method: string): boolean {
    return METHODS.has(method);
  }

  /** A new run of the step `callbackId`, with its own token. */
  start(callbackId: string, inputs: Record<string, unknown>): StepExecution {
    const run: StepExecution = {
      executionId: id("Fx"),
      workflowExecutionId: id("Wx"),
      callbackId,
      inputs,
      // Slack's step tokens are `xwfp-`: neither a bot token nor an app-level one.
      token: `xwfp-standin-${randomBytes(12).toString("hex")}`,
      startedAt: Date.now(),
      end: { state: "running" },
      completions: [],
    };
    this.runs.set(run.executionId, run);
    return run;
  }

  /** Whether `token` is a running step's token (it may call other methods, as Slack allows). */
  isStepToken(token: string): boolean {
    for (const run of this.runs.values()) {
      if (run.token === token && run.end.state === "running") return true;
    }
    return false;
  }

  execution(executionId: string): StepExecution | undefined {
    const run = this.runs.get(executionId);
    return run ? structuredClone(run) : undefined;
  }

  all(): StepExecution[] {
    return [...this.runs.values()].map((run) => structuredClone(run));
  }

  /** Slack ends the run itself (the workflow was stopped, or timed out). */
  endBySlack(executionId: string): void {
    const run = this.runs.get(executionId);
    if (run && run.end.state === "running") {
      run.end = { state: "ended-by-slack" };
      this.changed(run);
    }
  }

  /** Answers functions.completeSuccess / completeError. */
  answer(method: string, args: SlackArgs, token: string | undefined): SlackResult {
    const executionId = args.function_execution_id;
    const run = typeof executionId === "string" ? this.runs.get(executionId) : undefined;
    const refuse = (error: string) => {
      run?.completions.push({ method, ok: false, error });
      if (run) this.changed(run);
      return { ok: false, error };
    };
    if (!run) return { ok: false, error: "function_execution_not_found" };
    if (!token || token !== run.token) return refuse("invalid_auth");
    if (run.end.state !== "running") return refuse("execution_not_in_running_state");
    if (method === "functions.completeSuccess") {
      const outputs = args.outputs;
      if (typeof outputs !== "object" || outputs === null || Array.isArray(outputs)) {
        return refuse("parameter_validation_failed");
      }
      run.end = { state: "completed", outputs: outputs as Record<string, unknown> };
    } else {
      if (typeof args.error !== "string" || args.error === "") {
        return refuse("invalid_arguments");
      }
      run.end = { state: "failed", error: args.error };
    }
    run.completions.push({ method, ok: true });
    this.changed(run);
    return { ok: true };
  }

  /** Resolves once the run has ended (completed, failed, or ended by Slack). */
  waitForEnd(executionId: string, options: WaitOptions = {}): Promise<StepExecution> {
    return waitForMatch({
      existing: () => this.all(),
      source: {
        subscribe: (listener) => {
          this.listeners.add(listener);
          return () => this.listeners.delete(listener);
        },
      },
      predicate: (run) => run.executionId === executionId && run.end.state !== "running",
      timeoutMs: options.timeoutMs,
      what: `the end of step run ${executionId}`,
      seen: () => this.all().map((run) => `${run.executionId} ${run.callbackId} ${run.end.state}`),
    });
  }

  private changed(run: StepExecution): void {
    const copy = structuredClone(run);
    for (const listener of this.listeners) listener(copy);
  }
}
