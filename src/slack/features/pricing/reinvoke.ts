// "Prompt, then re-invoke": the pick buttons and the port price form do not price themselves,
// they re-run the inline `/connect price port ...` through the main router, so the answer, its
// Share button, the sandbox label, the failure wording and the audit line are those of typing it.
import type { RespondFn } from "@slack/bolt";
import type { KnownBlock } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import type { createConnectRouter } from "../../connect.js";
import { tellPrivately, type Where } from "../../kit/index.js";
import type { PricingDeps } from "./index.js";

/** The main `/connect` router's `run` (src/slack/listeners.ts injects it). */
export type RunCommand = ReturnType<typeof createConnectRouter>["run"];

/** A RespondFn for the router after a modal (which has no response_url): tellPrivately. */
export function privateResponder(
  client: WebClient,
  where: Where,
  services: Pick<PricingDeps, "logger" | "sandbox">,
): RespondFn {
  return async (message) => {
    const m = typeof message === "string" ? { text: message } : message;
    const blocks = "blocks" in m && Array.isArray(m.blocks) ? (m.blocks as unknown[]) : undefined;
    await tellPrivately(client, services, where, {
      text: m.text ?? "",
      ...(blocks ? { blocks: blocks as KnownBlock[] } : {}),
    });
    return new Response(null, { status: 200 });
  };
}
