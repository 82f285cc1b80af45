// A data center picked among several for an inline price ("AMS 10G 1y" matched three): the
// button re-runs the inline command with that data center through the main router, replacing
// the choices with the price.
import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { parsePricePick } from "../../../../views/pricing/pricing.js";
import { newRequestId, withRequestId } from "../../../context.js";
import { portPriceCommandText } from "../../../domain/catalog/portTerms.js";
import { readPortTerm } from "../../../usecases/shared/portTermReading.js";
import type { RunCommand } from "./reinvoke.js";

type Args = Pick<
  SlackActionMiddlewareArgs<BlockAction<ButtonAction>>,
  "ack" | "body" | "action" | "respond"
> & { client: WebClient };

export function pricePickButton(run: RunCommand) {
  return async ({ ack, body, action, respond, client }: Args): Promise<void> => {
    await ack();
    const pick = parsePricePick(action.value);
    if (!pick) return;
    let crossConnect = false;
    try {
      crossConnect = (JSON.parse(action.value ?? "{}") as { xc?: unknown }).xc === true;
    } catch {
      // parsePricePick already accepted it as JSON
    }
    const term = readPortTerm(`${pick.term.value}${pick.term.unit}`);
    if (term?.kind !== "term") return;
    await withRequestId(newRequestId(), () =>
      run({
        text: portPriceCommandText({
          dcf: pick.dcf,
          speedMbps: pick.speed,
          term: term.term,
          includeCrossConnect: crossConnect,
        }),
        page: 0,
        userId: body.user.id,
        channelId: body.channel?.id ?? body.container?.channel_id ?? "",
        triggerId: body.trigger_id,
        respond,
        client,
        mode: "replace",
      }),
    );
  };
}
