// `/connect iod`: the Internet On-Demand service form, opened at once with a loading modal and
// filled when the company's ports are loaded.
import { loadIodModal } from "../../../usecases/iod/load.js";
import type { CommandHandler } from "../../connect.js";
import { openThenFill } from "../../kit/index.js";
import { IOD_FORM, iodView } from "./form.js";

export const iod: CommandHandler = async (ctx) => {
  await openThenFill({ ...ctx, sandbox: ctx.services.sandbox }, IOD_FORM, async () =>
    iodView(ctx.services, await loadIodModal(ctx.services, {}), { channelId: ctx.channelId }),
  );
};
