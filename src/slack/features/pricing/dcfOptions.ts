// The data center selects' options loads (the port form's, the layer 2 form's two ends):
// bounded so Slack's 3 seconds are never missed, a hint option when there is no answer.
import type { SlackOptionsMiddlewareArgs } from "@slack/bolt";
import { dcfSuggestionOptions } from "../../../../views/dcfOptions.js";
import type { Services } from "../../../services.js";
import { type DcfDirectory, suggestDcfs } from "../../../usecases/shared/dcfDirectory.js";

export function dcfOptionsLoad(directory: DcfDirectory, services: Pick<Services, "logger">) {
  return async ({
    ack,
    payload,
  }: Pick<SlackOptionsMiddlewareArgs<"block_suggestion">, "ack" | "payload">): Promise<void> => {
    const typed = typeof payload.value === "string" ? payload.value : "";
    const suggestions = await suggestDcfs(directory, typed);
    if (suggestions.kind === "timeout" || suggestions.kind === "failed") {
      services.logger.warn(
        { suggestions: suggestions.kind },
        "data center options load had no answer",
      );
    }
    await ack({ options: dcfSuggestionOptions(suggestions, typed) });
  };
}
