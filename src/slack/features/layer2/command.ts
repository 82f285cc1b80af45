// `/connect l2`: the layer 2 connection form (port-to-port or business-to-business), opened at
// once with a loading modal and filled when the company's ports are loaded.
import { loadLayer2Modal } from "../../../usecases/layer2/load.js";
import type { CommandHandler } from "../../connect.js";
import { openThenFill } from "../../kit/index.js";
import { LAYER2_FORM, layer2View } from "./form.js";

export const layer2: CommandHandler = async (ctx) => {
  await openThenFill({ ...ctx, sandbox: ctx.services.sandbox }, LAYER2_FORM, async () =>
    layer2View(ctx.services, await loadLayer2Modal(ctx.services, {}), {
      channelId: ctx.channelId,
    }),
  );
};
