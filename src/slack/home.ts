import type { App, RespondFn } from "@slack/bolt";
import type { KnownBlock } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import {
  ACTION_HOME_PAGE,
  ACTION_HOME_QUICK,
  HOME_QUICK_ACTIONS,
  homeView,
} from "../../views/home.js";
import { type ApprovalRequest, canApprove } from "../approvals/index.js";
import type { Services } from "../services.js";
import { audienceOf, type HomeSources, readHome } from "../usecases/home.js";
import { groupMembersVia, requirementOf } from "./approvals.js";
import type { ListenerRegistry } from "./listenerTable.js";

/**
 * App Home (`app_home_opened` → `views.publish`): each person's own view of what waits on them,
 * what they asked for, what is tracked and what the team has committed to (views/home.ts).
 *
 * - Opening the tab publishes it at once; *Older* / *Newer* publish another page.
 * - A change of a request or a tracked order refreshes the Home of the people who see it
 *   (`audienceOf`), through the notifier (`refreshHome`): debounced per person, in order, at
 *   Slack's pace — never a timer for everyone.
 * - Approve / Reject in Home are the approval message's own buttons (src/slack/approvals.ts).
 * - Quick actions run the `/connect` command they name, so they open the same forms.
 */

/** `/connect` run with plain inputs (src/slack/connect.ts `createConnectRouter().run`). */
export type RunCommand = (input: {
  text: string;
  page: number;
  userId: string;
  channelId: string;
  triggerId?: string;
  respond: RespondFn;
  client: WebClient;
  mode: "ephemeral";
}) => Promise<unknown>;

/** Members of user groups are looked up once per Home render, not once per request. */
function cachedGroups(client: WebClient) {
  const lookUp = groupMembersVia(client);
  const cache = new Map<string, Promise<readonly string[]>>();
  return (groupId: string) => {
    let members = cache.get(groupId);
    if (!members) {
      members = Promise.resolve(lookUp(groupId));
      cache.set(groupId, members);
    }
    return members;
  };
}

function homeSources(services: Services, client: WebClient): HomeSources {
  const settings = services.approvals;
  const groupMembers = cachedGroups(client);
  return {
    store: settings.store,
    tracker: services.jobs.tracker,
    // Who the request's own rule names (a policy file's rule, else APPROVERS), as the buttons'
    // handler checks; someone whose approval is already counted has nothing left to decide.
    mayDecide: async (userId, record) =>
      !record.approvals?.some((approval) => approval.by === userId) &&
      (
        await canApprove({
          userId,
          requesterId: record.requester.userId,
          approvers: requirementOf(record, settings).approvers,
          groupMembers,
          allowSelfApproval: settings.allowSelfApproval,
        })
      ).allowed,
    now: () => new Date(),
    sandbox: services.sandbox,
    currency: services.currency,
  };
}

/** Renders a person's Home from the current state and publishes it; Slack's result. */
export function homePublisher(services: Services, client: WebClient) {
  return async (userId: string, page?: number): Promise<unknown> => {
    // A refresh keeps the person on the page of *My requests* they chose last.
    const shown = page ?? (await services.homePages?.get(userId).catch(() => 0)) ?? 0;
    const input = await readHome(homeSources(services, client), userId, shown);
    return client.views.publish({ user_id: userId, view: homeView(input) });
  };
}

/**
 * Refreshes the Home of everyone who sees a request (its requester; its approvers while it is
 * or just stopped being pending), through the notifier. Never throws: a Home is a view of the
 * state, and the next change or opening shows it.
 */
export function refreshHomesOf(services: Services, client: WebClient) {
  return async (record: ApprovalRequest): Promise<void> => {
    try {
      const people = await audienceOf(record, () => approverIds(services, client));
      for (const userId of people) await services.jobs.notifier.refreshHome(userId);
    } catch (error) {
      services.logger.warn({ err: error, approvalId: record.id }, "App Home refresh not queued");
    }
  };
}

/** APPROVERS as user ids, user groups expanded (a group that cannot be read adds nobody). */
async function approverIds(services: Services, client: WebClient): Promise<string[]> {
  const groupMembers = groupMembersVia(client);
  const ids = new Set<string>();
  for (const id of services.approvals.approvers) {
    if (/^[UW]/.test(id)) ids.add(id);
    else if (/^S/.test(id)) {
      for (const member of await Promise.resolve(groupMembers(id)).catch(() => [])) ids.add(member);
    }
  }
  return [...ids];
}

/** `app_home_opened`: Bolt's event listener (events are not in the listener table). */
export function registerHomeEvents(app: App, services: Services): void {
  app.event("app_home_opened", async ({ event, client }) => {
    // The Messages tab opens the same event; only the Home tab is ours to draw.
    if (event.tab !== "home") return;
    await homePublisher(
      services,
      client,
    )(event.user).catch((error: unknown) =>
      services.logger.warn({ err: error, userId: event.user }, "App Home not published"),
    );
  });
}

type ActionArgs = Parameters<Parameters<App["action"]>[1]>[0];

/** Paging and quick actions in Home. */
export function registerHomeListeners(
  app: ListenerRegistry,
  services: Services,
  run: RunCommand,
): void {
  app.action(
    new RegExp(`^${ACTION_HOME_PAGE}_`),
    async ({ ack, body, action, client }: ActionArgs) => {
      await ack();
      if (body.type !== "block_actions" || !("value" in action)) return;
      const asked = Number(action.value);
      const page = Number.isInteger(asked) && asked >= 0 ? asked : 0;
      try {
        await services.homePages?.set(body.user.id, page);
        await homePublisher(services, client)(body.user.id, page);
      } catch (error) {
        services.logger.warn({ err: error }, "App Home page not published");
      }
    },
  );

  app.action(
    new RegExp(`^${ACTION_HOME_QUICK}_`),
    async ({ ack, body, action, client }: ActionArgs) => {
      await ack();
      if (body.type !== "block_actions" || !("value" in action)) return;
      // Only the commands Home offers: a button value is not a command line to trust.
      const quick = HOME_QUICK_ACTIONS.find((q) => q.command === action.value);
      if (!quick) return;
      const userId = body.user.id;
      // No channel in Home: answers (a price, a problem) go to the person's DM with the bot.
      const respond = (async (message: Parameters<RespondFn>[0]) => {
        const shown = (typeof message === "string" ? { text: message } : message) as {
          text?: string;
          blocks?: KnownBlock[];
        };
        return client.chat.postMessage({
          channel: userId,
          text: shown.text ?? "",
          ...(shown.blocks ? { blocks: shown.blocks } : {}),
        });
      }) as unknown as RespondFn;
      await run({
        text: quick.command,
        page: 0,
        userId,
        channelId: userId,
        triggerId: body.trigger_id,
        respond,
        client,
        mode: "ephemeral",
      });
    },
  );
}
