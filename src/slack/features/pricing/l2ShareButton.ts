// *Share in channel* under a layer 2 price (issue 32, item 20): the port price's button, for a
// price that came from a form rather than a command. The price is read again (the button carries
// what was priced, as *Order this* does) and posted in the channel for everyone, with who shared
// it, the way the command router shares an answer.
import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import { capBlocks, withSandboxLabel } from "../../../../views/blocks.js";
import { describeFailure } from "../../../../views/failures.js";
import { parseLayer2OrderThis } from "../../../../views/orderThis.js";
import { connectionPriceView } from "../../../../views/pricing/pricing.js";
import { sharedByContext } from "../../../../views/reply.js";
import { COMMAND } from "../../../domain/commands.js";
import { pricingConnectionConfigRule } from "../../../provider/rules/pricing.js";
import { priceConnection } from "../../../usecases/shared/prices.js";
import { dcfKey } from "./command.js";
import type { PricingDeps } from "./index.js";

type ShareClick = Pick<
  SlackActionMiddlewareArgs<BlockAction<ButtonAction>>,
  "ack" | "body" | "action" | "respond"
>;

export function l2PriceShareButton(services: PricingDeps) {
  return async ({ ack, body, action, respond }: ShareClick): Promise<void> => {
    await ack();
    const tell = (text: string) =>
      respond({ response_type: "ephemeral", replace_original: false, text }).catch(
        (error: unknown) =>
          services.logger.warn({ err: error }, "layer 2 price: could not answer the share click"),
      );
    const pick = parseLayer2OrderThis(action.value);
    if (!pick) {
      await tell(`This button carries no price. Price it again: \`${COMMAND} price l2\`.`);
      return;
    }
    try {
      const [[src], [dest]] = await Promise.all([
        services.provider.listDcfs({ where: { id: pick.srcDcfId } }),
        services.provider.listDcfs({ where: { id: pick.destDcfId } }),
      ]);
      if (!src || !dest) {
        await tell(`A data center of this price is gone. Price it again: \`${COMMAND} price l2\`.`);
        return;
      }
      // What the button carries is checked as the form's values are, before the provider sees it.
      const config = pricingConnectionConfigRule.safeParse({
        bandwidth: pick.bandwidthMbps,
        classOfService: pick.classOfService,
        duration: pick.duration,
        srcDcf: src.id,
        destDcf: dest.id,
      });
      if (!config.success) {
        await tell(`This price can't be read again. Price it again: \`${COMMAND} price l2\`.`);
        return;
      }
      const result = await priceConnection(services.provider, config.data);
      const answer = connectionPriceView(
        {
          srcDcf: { name: src.name, username: dcfKey(src) },
          destDcf: { name: dest.name, username: dcfKey(dest) },
          bandwidthMbps: pick.bandwidthMbps,
          classOfService: pick.classOfService,
          term: pick.duration,
        },
        result,
        services.currency,
      );
      await respond({
        response_type: "in_channel",
        replace_original: false,
        text: answer.text,
        blocks: capBlocks(
          withSandboxLabel(
            [...answer.blocks, sharedByContext(body.user.id, `${COMMAND} price l2`, [])],
            services.sandbox,
          ),
        ),
      });
    } catch (error) {
      services.logger.warn({ err: error }, "layer 2 price: share failed");
      await tell(describeFailure(error));
    }
  };
}
