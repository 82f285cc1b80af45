import type { AuthorizeResult, AuthorizeSourceData } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";

/**
 * The bot's identity for Bolt, asked of Slack (auth.test) once and then kept.
 *
 * Why not Bolt's own: given `token` with `tokenVerificationEnabled: false` (which the bot needs
 * to start while Slack is unreachable), Bolt 5.1 calls auth.test before *every* request — its
 * cached result is overwritten on each call — so each ack waited for a round trip to Slack and
 * each request spent a Web API call. Here the first request asks; concurrent requests share
 * that call; a failure is not kept, so the next request asks again.
 *
 * `teamId` is returned so that Bolt hands listeners a client bound to the bot token.
 */
export function botAuthorization(
  client: Pick<WebClient, "auth">,
  botToken: string,
): (source: AuthorizeSourceData<boolean>) => Promise<AuthorizeResult> {
  let identity: Promise<{ botId?: string; botUserId?: string; teamId?: string }> | undefined;
  return async (source) => {
    identity ??= client.auth.test({ token: botToken }).then(
      (result) => ({
        botId: result.bot_id,
        botUserId: result.user_id,
        teamId: result.team_id,
      }),
      (error: unknown) => {
        identity = undefined;
        throw error;
      },
    );
    const known = await identity;
    return { botToken, ...known, teamId: known.teamId ?? source.teamId };
  };
}
