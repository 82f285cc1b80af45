import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { MAX_TERM_MONTHS } from "../domain/catalog/terms.js";
import { SLACK_USER_ID } from "../domain/slackIds.js";
import { formatTerm } from "../domain/units.js";
import type { SlackAppDriver } from "../standin/driver/driver.js";
import type { SlackStandin } from "../standin/server.js";
import type { StepExecution } from "../standin/webApi/functions.js";
import { RequestProblem } from "./apiRequests.js";
import { checkSameOrigin, sendProblem } from "./apiRoutes.js";

/**
 * The playground's **Workflows** panel (issue 30): a sample Workflow Builder workflow run against
 * the bot's real custom steps, so a newcomer sees them without a paid workspace. Its four steps
 * are what a person would build in Workflow Builder:
 *
 *   1. a form asking for the data center, the speed and the term (the panel's form);
 *   2. *Price a port* (`price_port`), with the form's answers;
 *   3. *Request a port order* (`request_port_order`), by the person who ran it, its card in
 *      #general; it waits while an approver decides in #network-approvals;
 *   4. *Send a message* to #general with the order id (Slack's own step: the stand-in posts it).
 *
 * Steps 2 and 3 go to the bot as Slack sends them (a signed `function_executed` with a
 * step-scoped token, through the stand-in's driver); a step's end is what the bot's
 * `functions.completeSuccess` / `completeError` said. Runs live in memory (a playground restart
 * starts afresh, as the sandbox does).
 */

const RUNS_KEPT = 20;
const WATCH_EVERY_MS = 300;
const WORKFLOW_CHANNEL = "C0GENERAL1";

export type WorkflowStepState = "waiting" | "running" | "done" | "failed";

export interface WorkflowStepView {
  title: string;
  state: WorkflowStepState;
  /** What the step said: its summary, its error, or what it waits for. */
  detail?: string;
  outputs?: Record<string, unknown>;
}

export interface WorkflowRunView {
  id: string;
  startedBy: string;
  startedAt: number;
  steps: WorkflowStepView[];
}

const runBody = z.object({
  userId: z.string().regex(SLACK_USER_ID),
  dataCenter: z.string().trim().min(1, "Enter a data center").max(100),
  speedMbps: z.coerce.number().int("Speed must be a whole number of Mbps").min(1).max(400_000),
  termMonths: z.coerce.number().int().min(1).max(MAX_TERM_MONTHS),
});

export class SampleWorkflow {
  private readonly runs: WorkflowRunView[] = [];
  private counter = 0;

  constructor(
    private readonly standin: SlackStandin,
    private readonly driver: () => SlackAppDriver | undefined,
  ) {}

  list(): { ok: true; runs: WorkflowRunView[] } {
    return { ok: true, runs: structuredClone(this.runs) };
  }

  /** Starts a run with the form's answers; it goes on in the background. */
  start(body: unknown): { ok: true; run: WorkflowRunView } {
    const parsed = runBody.safeParse(body);
    if (!parsed.success) {
      throw new RequestProblem(400, parsed.error.issues[0]?.message ?? "Fill in the form");
    }
    const driver = this.driver();
    if (!driver) throw new RequestProblem(503, "The bot is still starting; try again in a moment.");
    if (!this.standin.workspace.users.has(parsed.data.userId)) {
      throw new RequestProblem(400, "Pick a person from the list");
    }
    this.counter += 1;
    const run: WorkflowRunView = {
      id: `run-${this.counter}`,
      startedBy: parsed.data.userId,
      startedAt: Date.now(),
      steps: [
        {
          title: "Form: data center, speed and term",
          state: "done",
          detail: `${parsed.data.dataCenter}, ${parsed.data.speedMbps} Mbps, ${formatTerm(parsed.data.termMonths, "m")}`,
        },
        { title: "Price a port", state: "waiting" },
        { title: "Request a port order", state: "waiting" },
        { title: "Send a message to #general", state: "waiting" },
      ],
    };
    this.runs.unshift(run);
    this.runs.splice(RUNS_KEPT);
    void this.carryOut(run, driver, parsed.data).catch((error: unknown) => {
      const open = run.steps.find((s) => s.state === "running" || s.state === "waiting");
      if (open) {
        open.state = "failed";
        open.detail = error instanceof Error ? error.message : "The step could not run.";
      }
    });
    return { ok: true, run: structuredClone(run) };
  }

  private async carryOut(
    run: WorkflowRunView,
    driver: SlackAppDriver,
    input: z.infer<typeof runBody>,
  ): Promise<void> {
    const [, price, request, message] = run.steps as [
      WorkflowStepView,
      WorkflowStepView,
      WorkflowStepView,
      WorkflowStepView,
    ];
    price.state = "running";
    const priced = await this.runStep(driver, price, "price_port", {
      data_center: input.dataCenter,
      speed_mbps: input.speedMbps,
      term_months: input.termMonths,
    });
    if (!priced) return;

    request.state = "running";
    request.detail =
      "Waiting for approval: switch to Alex, open #network-approvals and click Approve.";
    const portName = `wf-port-${run.id.slice(4)}-${Date.now().toString(36).slice(-4)}`;
    const ordered = await this.runStep(driver, request, "request_port_order", {
      requester: run.startedBy,
      data_center: input.dataCenter,
      speed_mbps: input.speedMbps,
      term_months: input.termMonths,
      port_name: portName,
      channel: WORKFLOW_CHANNEL,
    });
    if (!ordered) return;

    const orderId = String(ordered.order_id ?? "");
    this.standin.postAsUser(
      run.startedBy,
      WORKFLOW_CHANNEL,
      `⚡ Workflow "Order a port": port order ${orderId} is placed (${String(ordered.summary ?? "")})`,
    );
    message.state = "done";
    message.detail = `Posted: port order ${orderId} is placed`;
  }

  /** Runs one of the bot's steps and follows it to its end; the outputs, or undefined. */
  private async runStep(
    driver: SlackAppDriver,
    step: WorkflowStepView,
    callbackId: string,
    inputs: Record<string, unknown>,
  ): Promise<Record<string, unknown> | undefined> {
    const sent = await driver.runStep(callbackId, inputs);
    const end = await this.ended(sent.run.executionId);
    if (end.end.state === "completed") {
      step.state = "done";
      step.outputs = end.end.outputs;
      step.detail = String(end.end.outputs.summary ?? "");
      return end.end.outputs;
    }
    step.state = "failed";
    step.detail = end.end.state === "failed" ? end.end.error : "Slack ended the step.";
    return undefined;
  }

  /** A step may wait for approvers for as long as they take: watched without a deadline. */
  private ended(executionId: string): Promise<StepExecution> {
    return new Promise((resolve) => {
      const check = () => {
        const run = this.standin.stepRun(executionId);
        if (run && run.end.state !== "running") {
          clearInterval(timer);
          resolve(run);
        }
      };
      const timer = setInterval(check, WATCH_EVERY_MS);
      timer.unref();
      check();
    });
  }
}

/** `GET /playground/api/workflows` (the runs) and `POST /playground/api/workflows/run`. */
export function registerWorkflowRoutes(server: FastifyInstance, workflow: SampleWorkflow): void {
  const routes = [
    ["GET", "/playground/api/workflows", () => workflow.list()],
    ["POST", "/playground/api/workflows/run", (body: unknown) => workflow.start(body)],
  ] as const;
  for (const [method, url, work] of routes) {
    server.route({
      method,
      url,
      handler: async (request, reply) => {
        reply.header("cache-control", "no-store");
        const refused = checkSameOrigin(request, reply);
        if (refused) return refused;
        try {
          return reply.send(work(request.body));
        } catch (error) {
          return sendProblem(reply, error);
        }
      },
    });
  }
}
