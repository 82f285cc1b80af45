// The data center selects' options load (the port order form's, the price forms'), written once:
// searched as the person types, bounded so Slack's 3 seconds are never missed; on a timeout or
// failure the options hold a hint instead.
import type { SlackOptionsMiddlewareArgs } from "@slack/bolt";
import { dcfSuggestionOptions } from "../../../views/dcfOptions.js";
import type { Logger } from "../../log.js";
import { type DcfDirectory, suggestDcfs } from "../../usecases/shared/dcfDirectory.js";

type OptionsArgs = Pick<SlackOptionsMiddlewareArgs<"block_suggestion">, "ack" | "payload">;

/** The options listener of a data center select searched in `directory`. */
export function dcfOptionsLoad(directory: DcfDirectory, services: { logger: Logger }) {
  return async ({ ack, payload }: OptionsArgs): Promise<void> => {
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
