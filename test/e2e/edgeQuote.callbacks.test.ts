import { describe, expect, it } from "vitest";
import { classifyQuoteFailure, type QuoteContext } from "../../src/jobs/index.js";
import { createLogger } from "../../src/log.js";
import { edgeQuoteCallbacks } from "../../src/orders/edge/callbacks.js";
import type { ProviderApi } from "../../src/provider/api.js";
import { EDGE_QUOTE_BUTTONS, parseQuoteRef } from "../../views/edge/edgeQuote.js";

/**
 * The quote poller's Edge callbacks with a fake provider and notifier: what counts as ready,
 * and what is posted (once per key) in the quote's thread.
 */

const request = {
  country: { id: "de1", name: "Germany", code: "DE" },
  bandwidth: "500",
  bandwidthUnit: "Mbps",
  "contract-term": "24",
  contractTermUnit: "month",
  "formatted-address": "Unter den Linden 1, Berlin",
};

interface Posted {
  op: "post" | "update";
  scope: string;
  key: string;
  channel: string;
  threadTs?: string;
  ts?: string;
  text: string;
  blocks?: unknown[];
}

function setup(answers: unknown[]) {
  const reads: string[] = [];
  const provider = {
    getEdgeQuoteResult: async (id: string) => {
      reads.push(id);
      return answers.shift();
    },
  } as Partial<ProviderApi> as ProviderApi;
  const logger = createLogger({ level: "silent" });
  const callbacks = edgeQuoteCallbacks({ provider, logger, sandbox: true, currency: "USD" });
  const posted: Posted[] = [];
  const ctx = (overrides: Partial<QuoteContext> = {}): QuoteContext => ({
    responseId: "r1",
    channel: "C0GENERAL1",
    threadTs: "1700000000.000100",
    userId: "U0REQUEST1",
    request,
    notifyScope: "quote:r1",
    notifyKey: "outcome",
    polls: 3,
    notifier: {
      post: async (input) => {
        posted.push({ op: "post", ...input });
        return { queued: true };
      },
      update: async (input) => {
        posted.push({ op: "update", ...input } as Posted);
        return { queued: true };
      },
    },
    ...overrides,
  });
  return { callbacks, reads, posted, ctx };
}

describe("edgeQuoteCallbacks", () => {
  it("reads PENDING as not ready and COMPLETED as ready", async () => {
    const completed = { status: "COMPLETED", data: [{ quoteKey: "k", monthlyPrice: 10 }] };
    const { callbacks, reads } = setup([{ status: "PENDING", data: [] }, completed]);
    expect(await callbacks.readQuote("r1")).toEqual({ ready: false });
    expect(await callbacks.readQuote("r1")).toEqual({ ready: true, result: completed });
    expect(reads).toEqual(["r1", "r1"]);
  });

  it("posts the offers in the thread with the job's key, then marks the thread root", async () => {
    const { callbacks, posted, ctx } = setup([]);
    await callbacks.onReady(
      {
        status: "COMPLETED",
        data: [{ quoteKey: "k", vendor: { name: "Lumina" }, monthlyPrice: 900 }],
      },
      ctx(),
    );
    expect(posted.map((p) => [p.op, p.scope, p.key])).toEqual([
      ["post", "quote:r1", "outcome"],
      ["update", "quote:r1", "outcome:root"],
    ]);
    const [reply, root] = posted;
    expect(reply?.threadTs).toBe("1700000000.000100");
    expect(reply?.text).toBe("Edge quote ready: Germany · 500 Mbps · 24 months: 1 offer");
    const blocks = JSON.stringify(reply?.blocks);
    expect(blocks).toContain("Lumina");
    expect(blocks).toContain("Sandbox");
    const order = (
      (reply?.blocks ?? []) as Array<{ elements?: Array<{ action_id?: string; value?: string }> }>
    )
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === EDGE_QUOTE_BUTTONS.order);
    expect(parseQuoteRef(order?.value)).toMatchObject({
      responseId: "r1",
      form: { country: "de1" },
    });
    expect(root?.ts).toBe("1700000000.000100");
    expect(root?.text).toMatch(/^Edge quote ready/);
  });

  it("explains a quote the partners could not price (a failed status)", async () => {
    const { callbacks, posted, ctx } = setup([]);
    await callbacks.onReady({ status: "FAILED", data: [] }, ctx());
    expect(posted[0]?.text).toContain("could not quote this Edge port (status FAILED)");
    expect(JSON.stringify(posted[0]?.blocks)).toContain(EDGE_QUOTE_BUTTONS.retry);
    expect(posted[1]?.text).toMatch(/^Edge quote failed/);
  });

  it("posts the poller's explanation (400, timeout) with a button to ask again", async () => {
    const { callbacks, posted, ctx } = setup([]);
    await callbacks.onFailed(classifyQuoteFailure(400)!, ctx());
    expect(posted[0]?.text).toContain("external pricing provider is not configured (HTTP 400)");
    expect(JSON.stringify(posted[0]?.blocks)).toContain(EDGE_QUOTE_BUTTONS.retry);

    await callbacks.onFailed(
      { kind: "timeout", afterMs: 10 * 60_000 },
      ctx({ threadTs: undefined }),
    );
    const timeout = posted.at(-1);
    expect(timeout?.op).toBe("post");
    expect(timeout?.threadTs).toBeUndefined();
    expect(timeout?.text).toContain("not ready after 10 minutes");
  });

  it("still posts the offers (without buttons) when the job's request can't be read", async () => {
    const { callbacks, posted, ctx } = setup([]);
    await callbacks.onReady(
      { status: "COMPLETED", data: [{ quoteKey: "k", monthlyPrice: 1 }] },
      ctx({ request: { broken: true } }),
    );
    expect(posted).toHaveLength(1);
    expect(JSON.stringify(posted[0]?.blocks)).not.toContain(EDGE_QUOTE_BUTTONS.order);
  });
});
