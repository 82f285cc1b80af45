// `/connect l2`: the layer 2 connection form (port-to-port or business-to-business), opened at
// once with a loading modal and filled when the company's ports are loaded.
import { loadLayer2Modal } from "../../../usecases/layer2/load.js";
import type { CommandOf } from "../../connect.js";
import { openThenFill } from "../../kit/index.js";
import { LAYER2_FORM, layer2View } from "./form.js";
import type { Layer2Deps } from "./index.js";

export const layer2: CommandOf<Layer2Deps> = async (ctx, deps) => {
  await openThenFill({ ...ctx, sandbox: deps.sandbox }, LAYER2_FORM, async () =>
    layer2View(deps, await loadLayer2Modal(deps, {}), {
      channelId: ctx.channelId,
    }),
  );
};
