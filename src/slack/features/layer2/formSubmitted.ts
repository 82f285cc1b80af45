// The layer 2 form submitted: checked again against fresh provider data; a price the person has
// not seen (or that changed) is shown first (the form is updated in review), else the order
// goes to approval and the requester hears where it is.
import { LAYER2_BLOCKS } from "../../../../views/layer2/layer2Modal.js";
import { parseOrderMetadata } from "../../../../views/orderForms.js";
import { checkLayer2Submission } from "../../../usecases/layer2/submission.js";
import { checkThenSubmit, whereFormOpened } from "../../kit/index.js";
import { layer2View, readLayer2Form } from "./form.js";
import type { Layer2Deps } from "./index.js";

export function layer2FormSubmitted(services: Layer2Deps) {
  return checkThenSubmit(
    services,
    { command: "l2", what: "layer 2", blocks: LAYER2_BLOCKS, nameField: "name" },
    async (view, userId) => {
      const metadata = parseOrderMetadata(view.private_metadata);
      const check = await checkLayer2Submission(services, {
        form: readLayer2Form(view.state?.values),
        currency: services.currency,
        ...(metadata.priceKey ? { shownPrice: metadata.priceKey } : {}),
        requester: whereFormOpened(userId, metadata),
      });
      switch (check.kind) {
        case "review":
          return { update: layer2View(services, check.data, metadata, true) };
        case "invalid":
          return { ok: false, errors: check.errors };
        case "ready":
          return { ok: true, value: check.submission };
      }
    },
  );
}
