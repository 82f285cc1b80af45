// The IO-D form submitted: checked again against fresh provider data and the IO-D rules; the
// order goes to approval and the requester hears where it is.
import { IOD_BLOCKS } from "../../../../views/iod/iodModal.js";
import { parseOrderMetadata } from "../../../../views/orderForms.js";
import { checkIodSubmission } from "../../../usecases/iod/submission.js";
import { checkThenSubmit, whereFormOpened } from "../../kit/index.js";
import { readIodForm } from "./form.js";
import type { IodDeps } from "./index.js";

export function iodFormSubmitted(services: IodDeps) {
  return checkThenSubmit(
    services,
    { command: "iod", what: "IO-D", blocks: IOD_BLOCKS, nameField: "name" },
    async (view, userId) => {
      const metadata = parseOrderMetadata(view.private_metadata);
      const check = await checkIodSubmission(services, {
        form: readIodForm(view.state?.values),
        requester: whereFormOpened(userId, metadata),
      });
      return check.kind === "invalid"
        ? { ok: false, errors: check.errors }
        : { ok: true, value: check.submission };
    },
  );
}
