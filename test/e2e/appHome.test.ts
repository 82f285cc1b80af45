import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderSubmission } from "../../src/orders/index.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import type { StandinView } from "../../src/standin/index.js";
import {
  ACTION_APPROVE,
  ACTION_LOOK_UP_AGAIN,
  ACTION_MARK_FAILED,
  ACTION_PLACE_AGAIN,
  ACTION_REJECT,
} from "../../views/approvals/approvals.js";
import { PORT_ORDER_VIEW } from "../../views/portOrder/portOrderModal.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";
import { placeableDcf } from "../harness/portOrders.js";

/**
 * App Home end to end: signed `app_home_opened` events → `views.publish`, for a requester, an
 * approver and an outsider; Approve in Home and in the channel at once places one order; a
 * change refreshes only the people who see it, at most once per person per debounce window.
 */

const DEBOUNCE_MS = 400;
const { requester, approver, outsider, approvals } = STANDIN_IDS;
/** Grace: an approver through the user group S0APPROVERS. */
const GROUP_APPROVER = STANDIN_IDS.groupApprover;

/** Every piece of text of a Home view, to read it as a person would. */
function textOf(view: StandinView | undefined): string {
  return JSON.stringify(view?.view.blocks ?? []);
}

/** The section of the Home between one header and the next. */
function sectionOf(view: StandinView | undefined, title: string): string {
  const blocks = (view?.view.blocks ?? []) as Array<{ type: string; text?: { text?: string } }>;
  const start = blocks.findIndex((b) => b.type === "header" && b.text?.text === title);
  if (start < 0) throw new Error(`no "${title}" in the Home view`);
  const end = blocks.findIndex((b, i) => i > start && b.type === "header");
  return JSON.stringify(blocks.slice(start, end < 0 ? undefined : end));
}

describe("App Home", () => {
  let env: TestBot;
  let client: WebClient;
  let dcf: { username: string; speed: number };
  let companyUsername: string;

  beforeAll(async () => {
    env = await startTestBot({
      jobs: {
        notifierSettings: {
          perChannelIntervalMs: 20,
          updateIntervalMs: 20,
          homeDebounceMs: DEBOUNCE_MS,
        },
      },
    });
    client = new WebClient(env.standin.botToken, {
      slackApiUrl: env.standin.apiUrl,
      retryConfig: { retries: 0 },
    });
    companyUsername = (await env.bot.services.identity()).companyUsername;
    const onNet = await placeableDcf(env.bot.services.provider);
    dcf = { username: onNet.username, speed: Number(onNet.speed) };
  });
  afterAll(async () => {
    await env?.close();
  });

  function portOrder(portName: string): OrderSubmission {
    return {
      kind: "port",
      title: portName,
      summary: [{ label: "Port name", value: portName }],
      call: {
        operation: "createPortOrder",
        pathParams: { companyUsername },
        body: {
          dataCenterFacility: dcf.username,
          speed: String(dcf.speed),
          durationUnit: "y",
          portName,
          paymentType: "invoice",
        },
      },
      reconcileKey: portName,
      price: { total: 1200, monthly: 100, text: "100.00 a month, 1,200.00 for the term" },
      requester: { userId: requester, channelId: STANDIN_IDS.general },
    };
  }

  async function submit(portName: string) {
    const outcome = await submitForApproval({
      services: env.bot.services,
      client,
      submission: portOrder(portName),
    });
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.approval;
  }

  async function portOrderCalls(): Promise<number> {
    const url = `${env.bot.sandbox!.url}/__sandbox/requests?summary=1`;
    const summary = (await (await fetch(url)).json()) as { byOperation: Record<string, number> };
    return summary.byOperation.createPortOrder ?? 0;
  }

  /** Opens the Home tab as `userId` (a signed event) and returns the view published for it. */
  async function openHome(userId: string, until: (text: string) => boolean = () => true) {
    const before = env.standin.calls("views.publish").length;
    const ack = await env.slack.openAppHome(userId);
    expect(ack.status).toBe(200);
    // A publish for this person made after the event (not one from before it).
    await waitFor(
      () =>
        env.standin
          .calls("views.publish")
          .slice(before)
          .some((call) => call.args.user_id === userId) || undefined,
      { description: `a views.publish for ${userId}` },
    );
    return waitFor(
      () => {
        const view = env.standin.homeView(userId);
        return view && until(textOf(view)) ? view : undefined;
      },
      { description: `the Home of ${userId}` },
    );
  }

  it("shows each section for the requester, an approver and an outsider", async () => {
    const request = await submit("home-sections-1");

    const mine = await openHome(requester, (t) => t.includes("home-sections-1"));
    expect(sectionOf(mine, "My requests")).toContain("home-sections-1");
    expect(sectionOf(mine, "My requests")).toContain("Waiting for approval");
    expect(sectionOf(mine, "Waiting on me")).toContain("Nothing is waiting");
    expect(sectionOf(mine, "Being tracked")).toContain("Nothing of yours is being tracked");
    expect(sectionOf(mine, "Committed spend")).toContain("nothing placed");
    expect(textOf(mine)).toContain("Order a port");
    expect(textOf(mine)).toContain("Sandbox");

    const approverHome = await openHome(approver, (t) => t.includes("home-sections-1"));
    const waiting = sectionOf(approverHome, "Waiting on me");
    expect(waiting).toContain("home-sections-1");
    expect(waiting).toContain(ACTION_APPROVE);
    expect(waiting).toContain(request.id);
    expect(sectionOf(approverHome, "My requests")).toContain("no requests");

    const outsiderHome = await openHome(outsider);
    expect(sectionOf(outsiderHome, "Waiting on me")).toContain("Nothing is waiting");
    expect(sectionOf(outsiderHome, "My requests")).toContain("no requests");
    expect(textOf(outsiderHome)).not.toContain("home-sections-1");

    // The Messages tab sends the same event: no Home is drawn for it.
    const outsiderPublishes = () =>
      env.standin.calls("views.publish").filter((call) => call.args.user_id === outsider).length;
    const published = outsiderPublishes();
    await env.slack.openAppHome(outsider, "messages");
    await env.slack.openAppHome(outsider);
    await waitFor(() => outsiderPublishes() > published || undefined, {
      description: "the Home tab's publish",
    });
    expect(outsiderPublishes()).toBe(published + 1);
  });

  it("places one order when Home and the channel approve at once, and both show it", async () => {
    const request = await submit("home-once-1");
    const before = await portOrderCalls();
    const home = await openHome(approver, (t) => t.includes(request.id));
    const message = await env.standin.waitForMessage(approvals, (m) =>
      JSON.stringify(m.blocks).includes(request.id),
    );

    const clicks = await Promise.all([
      env.slack.clickButton({
        userId: approver,
        view: home,
        actionId: ACTION_APPROVE,
        blockId: `home_decide_${request.id}`,
      }),
      env.slack.clickButton({ userId: GROUP_APPROVER, message, actionId: ACTION_APPROVE }),
      env.slack.clickButton({
        userId: approver,
        view: home,
        actionId: ACTION_APPROVE,
        blockId: `home_decide_${request.id}`,
      }),
    ]);
    expect(clicks.map((c) => c.status)).toEqual([200, 200, 200]);

    const placed = await waitFor(
      async () => {
        const record = await env.bot.services.approvals.store.get(request.id);
        return record?.status === "placed" ? record : undefined;
      },
      { timeoutMs: 15_000, description: "the request placed" },
    );
    expect(placed.decision?.action).toBe("approve");
    expect(await portOrderCalls()).toBe(before + 1);

    // The channel message shows it, and the requester's Home follows without opening it again.
    await env.standin.waitForMessage(
      approvals,
      (m) => m.ts === message.ts && JSON.stringify(m.blocks).includes("approved by"),
    );
    await waitFor(
      () => {
        const text = sectionOf(env.standin.homeView(requester), "My requests");
        return text.includes("home-once-1") && text.includes("Ordered") ? text : undefined;
      },
      { timeoutMs: 10_000, description: "the requester's Home shows it placed" },
    );
    // Not waiting on the approver any more.
    await waitFor(
      () =>
        !sectionOf(env.standin.homeView(approver), "Waiting on me").includes(request.id) ||
        undefined,
      { timeoutMs: 10_000, description: "the approver's Home no longer waiting on it" },
    );
    // Tracking started for the requester: Being tracked shows the order with its status.
    const orderId = placed.result?.providerId ?? "";
    expect(orderId).not.toBe("");
    // Refreshed on its own (the placement, then the tracker's first read), without opening it.
    await waitFor(
      () =>
        sectionOf(env.standin.homeView(requester), "Being tracked").includes(orderId) || undefined,
      { timeoutMs: 10_000, description: "the requester's Home shows the tracked order" },
    );
    const requesterHome = await openHome(requester, (t) => t.includes(orderId));
    const tracked = sectionOf(requesterHome, "Being tracked");
    expect(tracked).toContain(orderId);
    // Its kind and the name it was requested under, not the id alone (issue 32, item 22).
    expect(tracked).toContain("Port order *home-once-1*");
    expect(sectionOf(await openHome(outsider), "Being tracked")).not.toContain(orderId);
    const spend = sectionOf(requesterHome, "Committed spend");
    expect(spend).toMatch(/100\.00 USD a month/);
  });

  it("rejects from Home with a reason, through the same modal; the requester's Home shows why", async () => {
    const request = await submit("home-reject-1");
    const home = await openHome(GROUP_APPROVER, (t) => t.includes(request.id));
    // It asks first, in red, as the approval message's Reject does.
    const decide = JSON.stringify(
      home.view.blocks.find((b) => b.block_id === `home_decide_${request.id}`),
    );
    expect(decide).toContain('"title":{"type":"plain_text","text":"Reject this request?"');
    expect(decide).toContain('"style":"danger"');
    const click = await env.slack.clickButton({
      userId: GROUP_APPROVER,
      view: home,
      actionId: ACTION_REJECT,
      blockId: `home_decide_${request.id}`,
    });
    expect(click.status).toBe(200);
    await env.standin.waitForView(GROUP_APPROVER, (v) => v.view.title.text === "Reject request");
    await env.slack.fillView(GROUP_APPROVER, { Reason: "Use the existing port in AMS" });
    const submitted = await env.slack.submitView(GROUP_APPROVER);
    expect(submitted.errors).toBeUndefined();
    const record = await env.bot.services.approvals.store.get(request.id);
    expect(record?.status).toBe("rejected");
    expect(record?.decision?.by).toBe(GROUP_APPROVER);
    await waitFor(
      () => {
        const text = sectionOf(env.standin.homeView(requester), "My requests");
        return text.includes("Rejected") && text.includes("Use the existing port in AMS")
          ? text
          : undefined;
      },
      { timeoutMs: 10_000, description: "the requester's Home shows the rejection and why" },
    );
  });

  it("opens the same form as the command from a quick action", async () => {
    const home = await openHome(requester);
    // The answer goes to the DM, and Home says so (issue 32, item 22).
    expect(textOf(home)).toContain("answered in your direct messages with the app");
    const click = await env.slack.clickButton({
      userId: requester,
      view: home,
      actionId: "home_quick_port_order",
    });
    expect(click.status).toBe(200);
    const form = await env.standin.waitForView(
      requester,
      (v) => v.view.callback_id === PORT_ORDER_VIEW,
    );
    expect(form.view.type).toBe("modal");
  });

  it("lists a placement whose outcome is unknown for the approver (Home and /connect approvals), not for the requester", async () => {
    const name = "home-unknown-1";
    // A Home open before: the change must refresh it on its own.
    await openHome(approver);
    // The provider's gateway times out after the request left: the outcome is unknown.
    env.bot.sandbox!.faults.add({
      match: "PUT /api/company/*/ports/orders",
      status: 504,
      times: 1,
    });
    const request = await submit(name);
    const message = await env.standin.waitForMessage(approvals, (m) =>
      JSON.stringify(m.blocks).includes(request.id),
    );
    await env.slack.clickButton({ userId: approver, message, actionId: ACTION_APPROVE });
    await waitFor(
      async () => (await env.bot.services.approvals.store.get(request.id))?.status === "unknown",
      { timeoutMs: 15_000, description: "the outcome unknown" },
    );

    // *Waiting on me*, refreshed without opening it: what is needed, with the message's buttons
    // (Place again once the look-up found nothing).
    const waiting = await waitFor(
      () => {
        const text = sectionOf(env.standin.homeView(approver), "Waiting on me");
        return text.includes(request.id) && text.includes(ACTION_PLACE_AGAIN) ? text : undefined;
      },
      { timeoutMs: 15_000, description: "the approver's Home lists the unknown outcome" },
    );
    expect(waiting).toContain("Outcome unknown");
    expect(waiting).toContain(
      "*Needs an approver:* look it up again, place it again or mark it as failed",
    );
    for (const action of [ACTION_LOOK_UP_AGAIN, ACTION_MARK_FAILED]) {
      expect(waiting).toContain(action);
    }
    // The requester's own lists are as before: their request, not a decision of theirs.
    const mine = await openHome(requester, (t) => t.includes(request.id));
    expect(sectionOf(mine, "Waiting on me")).not.toContain(request.id);
    expect(sectionOf(mine, "My requests")).toContain("Outcome unknown");
    expect(sectionOf(await openHome(outsider), "Waiting on me")).not.toContain(request.id);

    /** `/connect approvals` as `userId`: the answer that command gets. */
    const listFor = async (userId: string) => {
      const seen = env.standin.ephemerals(userId).length;
      await env.connect("approvals", userId);
      const reply = await waitFor(() => env.standin.ephemerals(userId)[seen], {
        description: `/connect approvals for ${userId}`,
      });
      return JSON.stringify(reply.blocks);
    };
    const listed = await listFor(approver);
    expect(listed).toContain(name);
    expect(listed).toContain("Outcome unknown");
    expect(listed).toContain("waiting on an approver");
    expect(listed).toContain("look it up again, place it again or mark it as failed");
    expect(await listFor(requester)).not.toContain(name);
    expect(await listFor(outsider)).not.toContain(name);

    // Acted on from Home: Place again places it, and it leaves *Waiting on me*.
    const home = await openHome(approver, (t) => t.includes(ACTION_PLACE_AGAIN));
    const click = await env.slack.clickButton({
      userId: approver,
      view: home,
      actionId: ACTION_PLACE_AGAIN,
      blockId: `home_decide_${request.id}`,
    });
    expect(click.status).toBe(200);
    await waitFor(
      async () => (await env.bot.services.approvals.store.get(request.id))?.status === "placed",
      { timeoutMs: 15_000, description: "placed again from Home" },
    );
    await waitFor(
      () =>
        !sectionOf(env.standin.homeView(approver), "Waiting on me").includes(request.id) ||
        undefined,
      { timeoutMs: 10_000, description: "the approver's Home no longer lists it" },
    );
  });

  it("refreshes only the people who see a change", async () => {
    // Everyone has a Home open already; a new request concerns its requester and approvers.
    await openHome(outsider);
    env.standin.clearCalls();
    await submit("home-audience-1");
    for (const userId of [requester, approver, GROUP_APPROVER]) {
      await env.standin.waitForCall(
        "views.publish",
        (call) =>
          call.args.user_id === userId &&
          JSON.stringify(call.args.view).includes("home-audience-1"),
        { timeoutMs: 10_000 },
      );
    }
    // The outsider's would have been queued in the same step as the others': none came.
    const published = env.standin.calls("views.publish").map((call) => call.args.user_id);
    expect(published).not.toContain(outsider);
  });

  it("publishes at most one view per person per debounce window in a burst of 100 changes", async () => {
    env.standin.clearCalls();
    const started = Date.now();
    const names = Array.from({ length: 100 }, (_, i) => `home-burst-${i}`);
    for (const name of names) await submit(name);
    // The last change is in the requester's Home: the burst is over for them.
    await env.standin.waitForCall(
      "views.publish",
      (call) =>
        call.args.user_id === requester && JSON.stringify(call.args.view).includes("home-burst-99"),
      { timeoutMs: 15_000 },
    );
    const elapsed = Date.now() - started;
    const calls = env.standin.calls("views.publish").filter((c) => c.args.user_id === requester);
    const times = calls.map((c) => c.at);
    for (let i = 1; i < times.length; i += 1) {
      // The window is measured by the queue's own delay; allow its timer a little slack.
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(DEBOUNCE_MS - 50);
    }
    expect(calls.length).toBeLessThanOrEqual(Math.ceil(elapsed / DEBOUNCE_MS) + 1);
    expect(calls.length).toBeLessThan(100);

    // My requests pages through them, newest first.
    const first = await openHome(requester, (t) => t.includes("home-burst-99"));
    expect(sectionOf(first, "My requests")).toMatch(/Requests 1–10 of \d+, newest first/);
    expect(sectionOf(first, "My requests")).not.toContain("home-burst-89");
    const before = env.standin.calls("views.publish").length;
    await env.slack.clickButton({
      userId: requester,
      view: first,
      actionId: "home_page_next",
      blockId: "home_mine_paging",
    });
    const second = await waitFor(
      () =>
        env.standin.calls("views.publish").length > before &&
        sectionOf(env.standin.homeView(requester), "My requests").includes("Requests 11–20")
          ? env.standin.homeView(requester)
          : undefined,
      { description: "the second page of My requests" },
    );
    expect(sectionOf(second, "My requests")).toContain("home-burst-89");
    expect(sectionOf(second, "My requests")).not.toContain("home-burst-99");
    expect(sectionOf(second, "My requests")).toContain("Newer");

    // A change refreshes the Home on the page the person chose, not back on the first.
    const published = env.standin.calls("views.publish").length;
    await submit("home-burst-after");
    const refreshed = await waitFor(
      () =>
        env.standin
          .calls("views.publish")
          .slice(published)
          .find(
            (call) =>
              call.args.user_id === requester &&
              // The new request moved every one down: 90 is on the second page now.
              JSON.stringify(call.args.view).includes("home-burst-90"),
          ),
      { timeoutMs: 10_000, description: "the refresh after the change" },
    );
    expect(JSON.stringify(refreshed.args.view)).toContain("Requests 11–20");

    // Opening the tab again starts on the first page, where the newest change is (item 22).
    const reopened = await openHome(requester, (t) => t.includes("home-burst-after"));
    expect(sectionOf(reopened, "My requests")).toMatch(/Requests 1–10 of/);
  });
});
