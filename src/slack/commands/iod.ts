// Slack glue for `/connect iod`: open the Internet On-Demand form, rebuild it when the port,
// routing or ASN choice changes, check the submission and hand it to approval. The work is in
// src/usecases/iod.ts; what people see is in views/iodModal.ts. The BGP key is read from the
// submission into the provider call only: it is never logged nor put back into a view.
import type { BlockAction } from "@slack/bolt";
import {
  IOD_ACTIONS,
  IOD_BLOCKS,
  IOD_DISPATCH_FIELDS,
  IOD_ENTER_ONLY_FIELDS,
  IOD_VIEW,
  iodModal,
} from "../../../views/iodModal.js";
import { parseOrderMetadata } from "../../../views/layer2Modal.js";
import { newRequestId, withRequestId } from "../../context.js";
import type { Services } from "../../services.js";
import {
  checkIodSubmission,
  type IodCheck,
  type IodForm,
  loadIodModal,
} from "../../usecases/iod.js";
import type { CommandHandler } from "../connect.js";
import {
  acknowledgeEnterIn,
  approvalsUnavailable,
  blockErrors,
  openThenFill,
  rebuildOnChange,
  selectedValue,
  submitAndTell,
  typedValue,
} from "../kit/index.js";
import type { ListenerRegistry } from "../listenerTable.js";

const TITLE = "Internet On-Demand";
const USAGE = "Run `/connect iod` to open the Internet On-Demand form.";

export function readIodForm(values: unknown): IodForm {
  const sel = (field: keyof typeof IOD_BLOCKS) =>
    selectedValue(values, IOD_BLOCKS[field], IOD_ACTIONS[field]);
  const typed = (field: keyof typeof IOD_BLOCKS) =>
    typedValue(values, IOD_BLOCKS[field], IOD_ACTIONS[field]);
  return {
    accessPort: sel("accessPort"),
    routing: sel("routing"),
    asnChoice: sel("asnChoice"),
    privateAsn: typed("privateAsn"),
    publicAsn: sel("publicAsn"),
    bgpKey: typed("bgpKey"),
    ipBlock: sel("ipBlock"),
    ipv6: sel("ipv6"),
    rateLimit: typed("rateLimit"),
    duration: typed("duration"),
    geoCountry: typed("geoCountry"),
    geoCity: typed("geoCity"),
    name: typed("name"),
  };
}

/** `/connect iod`: the Internet On-Demand service form. */
export const iod: CommandHandler = async (ctx) => {
  const metadata = { channelId: ctx.channelId };
  await openThenFill(
    ctx,
    { callbackId: IOD_VIEW, title: TITLE, loading: "your ports", usage: USAGE },
    async () =>
      iodModal(await loadIodModal(ctx.services, {}), {
        metadata,
        sandbox: ctx.services.sandbox,
      }),
  );
};

/** Listeners (modal submissions, options loads, buttons) of this command. */
export function registerIodListeners(app: ListenerRegistry, services: Services): void {
  const rebuild = rebuildOnChange(
    services,
    { callbackId: IOD_VIEW, what: "IO-D" },
    async (view) => {
      const data = await loadIodModal(services, readIodForm(view.state));
      return iodModal(data, {
        metadata: parseOrderMetadata(view.private_metadata),
        sandbox: services.sandbox,
      });
    },
  );
  for (const field of IOD_DISPATCH_FIELDS) {
    app.action<BlockAction>(IOD_ACTIONS[field], rebuild);
  }
  acknowledgeEnterIn(
    app,
    IOD_ENTER_ONLY_FIELDS.map((field) => IOD_ACTIONS[field]),
  );

  app.view(IOD_VIEW, async ({ ack, body, view, client }) => {
    const metadata = parseOrderMetadata(view.private_metadata);
    const unavailable = approvalsUnavailable(services);
    if (unavailable) {
      await ack({
        response_action: "errors",
        errors: blockErrors({ name: unavailable }, IOD_BLOCKS, view, "name"),
      });
      return;
    }
    let check: IodCheck;
    try {
      check = await checkIodSubmission(services, {
        form: readIodForm(view.state?.values),
        requester: {
          userId: body.user.id,
          ...(metadata.channelId ? { channelId: metadata.channelId } : {}),
        },
      });
    } catch (error) {
      services.logger.error({ err: error }, "IO-D form check failed");
      check = {
        kind: "invalid",
        errors: { name: "Something went wrong on our side; press Submit again." },
      };
    }
    if (check.kind === "invalid") {
      await ack({
        response_action: "errors",
        errors: blockErrors(check.errors, IOD_BLOCKS, view, "name"),
      });
      return;
    }
    const { submission } = check;
    await withRequestId(newRequestId(), () =>
      submitAndTell(services, client, "iod", submission, (nameError) =>
        nameError
          ? ack({
              response_action: "errors",
              errors: blockErrors({ name: nameError }, IOD_BLOCKS, view, "name"),
            })
          : ack(),
      ),
    );
  });
}
