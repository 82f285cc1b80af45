// `/connect iod`: the Internet On-Demand service form, opened at once with a loading modal and
// filled when the company's ports are loaded.
import { loadIodModal } from "../../../usecases/iod/load.js";
import type { CommandOf } from "../../connect.js";
import { openThenFill } from "../../kit/index.js";
import { IOD_FORM, iodView } from "./form.js";
import type { IodDeps } from "./index.js";

export const iod: CommandOf<IodDeps> = async (ctx, deps) => {
  await openThenFill({ ...ctx, sandbox: deps.sandbox }, IOD_FORM, async () =>
    iodView(deps, await loadIodModal(deps, {}), { channelId: ctx.channelId }),
  );
};
