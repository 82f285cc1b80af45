import { viewHash } from "../ids.js";
import type { Json } from "../json.js";
import type { StandinBot, StandinTeam, ViewOutput, ViewStateValues } from "../types.js";
import { withSlackIds } from "../webApi/blockKit.js";
import { interactiveElements } from "./elements.js";

/**
 * A view as Slack stores and returns it, built from what an app sent (views.open, push, update,
 * publish, a `response_action`), and what survives an update of it. Pure functions, so the
 * workspace's view bookkeeping (workspace.ts) reads as the stack rules only.
 */

/** Where a view sits in its stack (Slack's root_view_id and previous_view_id). */
export interface ViewLinks {
  rootViewId: string | null;
  previousViewId: string | null;
}

export function buildView(
  input: Json,
  id: string,
  links: ViewLinks,
  owner: { team: StandinTeam; bot: StandinBot },
): ViewOutput {
  const type = input.type === "home" ? "home" : "modal";
  const plain = (value: unknown) =>
    typeof value === "object" && value !== null
      ? (value as { type: "plain_text"; text: string; emoji?: boolean })
      : null;
  return {
    id,
    team_id: owner.team.id,
    type,
    callback_id: typeof input.callback_id === "string" ? input.callback_id : "",
    external_id: typeof input.external_id === "string" ? input.external_id : "",
    title: plain(input.title) ?? { type: "plain_text", text: "App Home" },
    submit: plain(input.submit),
    close: plain(input.close),
    blocks: withSlackIds(Array.isArray(input.blocks) ? input.blocks : []),
    private_metadata: typeof input.private_metadata === "string" ? input.private_metadata : "",
    state: { values: {} },
    hash: viewHash(),
    root_view_id: links.rootViewId,
    previous_view_id: links.previousViewId,
    clear_on_close: input.clear_on_close === true,
    notify_on_close: input.notify_on_close === true,
    app_id: owner.bot.appId,
    app_installed_team_id: owner.team.id,
    bot_id: owner.bot.botId,
  };
}

/**
 * What the person entered that an update keeps: the values of inputs whose block_id and
 * action_id did not change (Slack's rule; changing a block_id is how an app clears an input).
 */
export function enteredKeptAcross(entered: ViewStateValues, next: ViewOutput): ViewStateValues {
  const kept: ViewStateValues = {};
  const nextIds = new Set(
    interactiveElements(next.blocks).map((e) => `${e.blockId}/${e.actionId}`),
  );
  for (const [blockId, actions] of Object.entries(entered)) {
    for (const [actionId, value] of Object.entries(actions)) {
      if (nextIds.has(`${blockId}/${actionId}`))
        kept[blockId] = { ...kept[blockId], [actionId]: value };
    }
  }
  return kept;
}
