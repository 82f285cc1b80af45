// The Data center select's options, searched as the person types. Bounded so Slack's 3 seconds
// are never missed: on a timeout or failure the options hold a hint instead.
import type { SlackOptionsMiddlewareArgs } from "@slack/bolt";
import { dcfSuggestionOptions } from "../../../../views/dcfOptions.js";
import type { Services } from "../../../services.js";
import { type DcfDirectory, suggestDcfs } from "../../../usecases/shared/dcfDirectory.js";

type OptionsArgs = Pick<SlackOptionsMiddlewareArgs<"block_suggestion">, "ack" | "payload">;

export function dcfOptions(services: Pick<Services, "logger">, directory: DcfDirectory) {
  return async ({ ack, payload }: OptionsArgs) => {
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
