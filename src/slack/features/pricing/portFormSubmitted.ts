// The port price form submitted: checked again (a forged payload is no different from a real
// one), field errors keep the form open; a good one closes it and the inline command it stands
// for runs through the main router, answered privately where the command was typed.
import type { SlackViewMiddlewareArgs } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { PORT_PRICE_BLOCKS, parseMetadata } from "../../../../views/pricing/pricingModals.js";
import { newRequestId, withRequestId } from "../../../context.js";
import { portPriceCommandText } from "../../../domain/catalog/portTerms.js";
import { checkPortPriceForm } from "../../../usecases/pricing/portPrice.js";
import type { DcfDirectory } from "../../../usecases/shared/dcfDirectory.js";
import { blockErrors } from "../../kit/index.js";
import { dcfKey } from "./command.js";
import type { PricingDeps } from "./index.js";
import { readPortPriceForm } from "./readForms.js";
import { privateResponder, type RunCommand } from "./reinvoke.js";

type Args = Pick<SlackViewMiddlewareArgs, "ack" | "body" | "view"> & {
  client: WebClient;
};

export function portFormSubmitted(directory: DcfDirectory, services: PricingDeps, run: RunCommand) {
  const { logger } = services;
  return async ({ ack, body, view, client }: Args): Promise<void> => {
    let check: Awaited<ReturnType<typeof checkPortPriceForm>>;
    try {
      check = await checkPortPriceForm(directory, readPortPriceForm(view.state?.values));
    } catch (error) {
      logger.error({ err: error }, "port price form check failed");
      check = { ok: false, errors: { dcf: "Something went wrong on our side; submit again" } };
    }
    if (!check.ok) {
      await ack({
        response_action: "errors",
        errors: blockErrors(check.errors, PORT_PRICE_BLOCKS, view, "dcf"),
      });
      return;
    }
    await ack();
    const { dcf, speedMbps, term, includeCrossConnect } = check.value;
    const where = {
      channelId: parseMetadata(view.private_metadata).channelId,
      userId: body.user.id,
    };
    await withRequestId(newRequestId(), () =>
      run({
        text: portPriceCommandText({ dcf: dcfKey(dcf), speedMbps, term, includeCrossConnect }),
        page: 0,
        userId: body.user.id,
        channelId: where.channelId ?? "",
        respond: privateResponder(client, where, services),
        client,
        mode: "ephemeral",
      }),
    );
  };
}
