// The layer 2 price form submitted: checked again, then priced. A price that comes within
// Slack's 3 seconds is answered before the form closes, so a connection the provider refuses (no
// layer 2 in that metro) is said next to the data center and the form stays open; otherwise the
// form closes and the price (with its Order this button) is told privately when it comes.
import type { SlackViewMiddlewareArgs } from "@slack/bolt";
import type { KnownBlock } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { capBlocks, withSandboxLabel } from "../../../../views/blocks.js";
import { describeFailure } from "../../../../views/failures.js";
import {
  ACTION_ORDER_THIS_L2,
  encodeLayer2OrderThis,
  shareLayer2PriceButton,
  withOrderThisButton,
} from "../../../../views/orderThis.js";
import { connectionPriceView } from "../../../../views/pricing/pricing.js";
import { L2_PRICE_BLOCKS, parseMetadata } from "../../../../views/pricing/pricingModals.js";
import { newRequestId, withRequestId } from "../../../context.js";
import { within } from "../../../domain/deadline.js";
import { ProviderError } from "../../../provider/errors.js";
import { checkConnectionPriceForm } from "../../../usecases/pricing/connectionPrice.js";
import type { DcfDirectory } from "../../../usecases/shared/dcfDirectory.js";
import { priceConnection } from "../../../usecases/shared/prices.js";
import type { Outcome } from "../../connect.js";
import { blockErrors, recordCommand, tellPrivately } from "../../kit/index.js";
import { dcfKey } from "./command.js";
import type { PricingDeps } from "./index.js";
import { readConnectionPriceForm } from "./readForms.js";

type Args = Pick<SlackViewMiddlewareArgs, "ack" | "body" | "view"> & {
  client: WebClient;
};

/** Slack waits 3 s for a submission's answer: what is not known by then is answered after. */
const L2_PRICE_ANSWER_BY_MS = 2_500;

/** The provider refused what was asked (not our credentials, not its load): the person's to fix. */
function isRefusal(error: unknown): error is ProviderError {
  return (
    error instanceof ProviderError &&
    error.kind === "http" &&
    error.httpStatus !== undefined &&
    error.httpStatus >= 400 &&
    error.httpStatus < 500 &&
    ![401, 403, 408, 429].includes(error.httpStatus)
  );
}

/** The promise's value if it settles within `ms`, else undefined (it keeps running). */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return within(promise, ms, () => undefined);
}

export function l2FormSubmitted(directory: DcfDirectory, services: PricingDeps) {
  const { logger } = services;
  return async ({ ack, body, view, client }: Args): Promise<void> => {
    const started = Date.now();
    let check: Awaited<ReturnType<typeof checkConnectionPriceForm>>;
    try {
      check = await checkConnectionPriceForm(
        directory,
        readConnectionPriceForm(view.state?.values),
      );
    } catch (error) {
      logger.error({ err: error }, "layer 2 price form check failed");
      check = { ok: false, errors: { srcDcf: "Something went wrong on our side; submit again" } };
    }
    if (!check.ok) {
      await ack({
        response_action: "errors",
        errors: blockErrors(check.errors, L2_PRICE_BLOCKS, view, "srcDcf"),
      });
      return;
    }
    const { srcDcf, destDcf, config } = check.value;
    // Priced before the answer when it comes in time, so a connection the provider refuses
    // (no layer 2 in that metro) is said next to the data center and the form stays open.
    const pricing = priceConnection(services.provider, config).then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const early = await settledWithin(
      pricing,
      Math.max(0, L2_PRICE_ANSWER_BY_MS - (Date.now() - started)),
    );
    if (early && !early.ok && isRefusal(early.error)) {
      const provider = early.error.userMessage;
      // The provider's words name the data center it refuses; else the source's field.
      const field =
        destDcf.name && provider.includes(destDcf.name) && !provider.includes(srcDcf.name ?? "")
          ? "destDcf"
          : "srcDcf";
      await ack({
        response_action: "errors",
        errors: blockErrors(
          { [field]: `The provider can't price this connection: ${provider}` },
          L2_PRICE_BLOCKS,
          view,
          "srcDcf",
        ),
      });
      recordCommand(services, {
        command: "price l2",
        userId: body.user.id,
        outcome: "failed",
        via: "modal",
      });
      return;
    }
    await ack();
    const where = {
      channelId: parseMetadata(view.private_metadata).channelId,
      userId: body.user.id,
    };
    await withRequestId(newRequestId(), async () => {
      let outcome: Outcome = "succeeded";
      let message: { text: string; blocks?: KnownBlock[] };
      try {
        const priced = await pricing;
        if (!priced.ok) throw priced.error;
        const result = priced.result;
        const answer = connectionPriceView(
          {
            srcDcf: { name: srcDcf.name, username: dcfKey(srcDcf) },
            destDcf: { name: destDcf.name, username: dcfKey(destDcf) },
            bandwidthMbps: config.bandwidth,
            classOfService: config.classOfService,
            term: config.duration,
          },
          result,
          services.currency,
        );
        const pick = encodeLayer2OrderThis({
          srcDcfId: srcDcf.id,
          destDcfId: destDcf.id,
          bandwidthMbps: config.bandwidth,
          classOfService: config.classOfService,
          duration: config.duration,
        });
        // Shared as the port price is (issue 32, item 20): the button re-prices what was priced.
        const reply = withOrderThisButton(
          answer,
          ACTION_ORDER_THIS_L2,
          pick,
          shareLayer2PriceButton(pick),
        );
        message = {
          text: reply.text,
          blocks: capBlocks(withSandboxLabel(reply.blocks, services.sandbox)),
        };
      } catch (error) {
        outcome = error instanceof ProviderError ? "failed" : "errored";
        (outcome === "failed" ? logger.warn : logger.error).call(
          logger,
          { err: error, command: "price l2" },
          "command failed",
        );
        message = { text: describeFailure(error) };
      }
      try {
        await tellPrivately(client, services, where, message);
      } catch (error) {
        outcome = "errored";
        logger.error({ err: error }, "could not answer the layer 2 price");
      }
      recordCommand(services, {
        command: "price l2",
        userId: body.user.id,
        outcome: outcome,
        via: "modal",
      });
    });
  };
}
