import { WebClient } from "@slack/web-api";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { storeForApproval } from "../../src/slack/kit/index.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { portOrderRequest } from "../harness/portOrders.js";
import { waitFor } from "../harness/waitFor.js";

/**
 * What the maintenance reconcilers' end-to-end suites share (approvalMessageReconcile,
 * requestCardReconcile): a real bot whose reconciler has no grace period (a request stored a
 * moment ago counts as one whose form died), a Web API client on its Slack stand-in, requests
 * stored through the lifecycle API as a form stores them, and maintenance run until a place is
 * kept on the record.
 */
export interface ReconcilerBot {
  env: TestBot;
  /** The bot's own token on the stand-in, no retries: what a form's listener posts with. */
  client: WebClient;
  /** The request as stored now. */
  record: (id: string) => Promise<ApprovalRequest | null>;
  /** Stored (its name reserved) as a form stores it, and not posted anywhere yet. */
  stored: (
    portName: string,
    at?: {
      companyUsername?: string;
      dataCenterFacility?: string;
      speed?: string;
      channelId?: string;
    },
  ) => Promise<ApprovalRequest>;
  /** Runs the maintenance until `kept` reads a value off the record (a place kept). */
  maintainUntil: <T>(
    kept: (record: ApprovalRequest | null) => T | undefined,
    description: string,
    timeoutMs?: number,
  ) => (id: string) => Promise<T>;
  close: () => Promise<void>;
}

export async function startReconcilerBot(): Promise<ReconcilerBot> {
  const env = await startTestBot({ jobs: { approvalMessageSettings: { graceMs: 0 } } });
  const client = new WebClient(env.standin.botToken, {
    slackApiUrl: env.standin.apiUrl,
    retryConfig: { retries: 0 },
  });
  const record = (id: string) => env.bot.services.approvals.store.get(id);
  return {
    env,
    client,
    record,
    stored: async (portName, at = {}) => {
      const stored = await storeForApproval({
        services: env.bot.services,
        client,
        submission: portOrderRequest({
          portName,
          companyUsername: at.companyUsername ?? "acme",
          dataCenterFacility: at.dataCenterFacility ?? "dcf-1",
          speed: at.speed ?? "1000",
          requester: {
            userId: STANDIN_IDS.requester,
            channelId: at.channelId ?? STANDIN_IDS.general,
          },
        }),
      });
      if (!stored.ok) throw new Error(stored.message);
      return stored.approval;
    },
    maintainUntil:
      (kept, description, timeoutMs = 10_000) =>
      (id) =>
        waitFor(
          async () => {
            await env.bot.jobs.runMaintenance();
            return kept(await record(id));
          },
          { timeoutMs, description },
        ),
    close: () => env.close(),
  };
}
