/**
 * Slack's part in deciding who may ask and who may decide: the members of a user group (S…)
 * named in APPROVERS, REQUESTERS or a policy rule. The decisions themselves are the lifecycle
 * API's (src/orders/requests.ts, src/orders/deciders.ts). The reader is Slack's directory's
 * (src/slackDirectory.ts), where src/bot.ts also takes it for App Home and its audience.
 */
export { groupMembersVia } from "../../slackDirectory.js";
