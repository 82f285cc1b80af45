import type { KnownBlock } from "@slack/types";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApprovalInputError } from "../../src/approvals/index.js";
import { dcfRef } from "../../src/domain/catalog/dcfs.js";
import type { Dcf } from "../../src/provider/api.js";
import { submitFromForm } from "../../src/slack/kit/index.js";
import { type StandinView, viewStateValues } from "../../src/standin/index.js";
import { LAYER2_BLOCKS } from "../../views/layer2/layer2Modal.js";
import { PORT_ORDER_BLOCKS, PORT_ORDER_VIEW } from "../../views/portOrder/portOrderModal.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { readable } from "../views/support.js";

// Issue 19, item 4: the same order form submitted 10 times at once (a double submit, or two
// people) used to become several approval requests and several provider orders with one name.
// Signed view_submissions into the bot over HTTP, the sandbox as the provider, the Slack
// stand-in as Slack: exactly one request may come of it, and every other submission is answered
// next to the name field, with the form left open.

const USER = STANDIN_IDS.requester;

type Answer = Awaited<ReturnType<TestBot["slack"]["submitView"]>>;

describe("one name, one request: concurrent submissions of one order form", () => {
  let env: TestBot;

  beforeAll(async () => {
    // The provider rate limit (10 requests/s) would make the last few of 10 concurrent form
    // checks (4 provider reads each) miss Slack's 3 seconds: "took too long; submit again" is
    // a right answer, but these tests are about the race at the store, so every check must end.
    env = await startTestBot({ providerRateLimit: false });
  });
  afterAll(async () => {
    await env?.close();
  });

  /**
   * Of 10 answers, one closed the form and 9 kept it open with the name error at `nameBlock`
   * only; one request holds the name in Redis and one approval message was posted for it.
   */
  async function expectOneRequest(answers: Answer[], name: string, nameBlock: string) {
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    for (const answer of answers) expect(answer.problems).toEqual([]);
    const accepted = answers.filter((a) => a.responseAction === undefined);
    const refused = answers.filter((a) => a.responseAction === "errors");
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(9);
    for (const answer of refused) {
      // Only the name is wrong, and the message says what to do: the reservation's "A request
      // named … is already waiting or being ordered", or the form's early check's own words
      // when it already saw the winner's request.
      expect(Object.keys(answer.errors ?? {})).toEqual([nameBlock]);
      expect(answer.errors?.[nameBlock]).toMatch(/already (waiting or being ordered|exists)/);
      expect(answer.errors?.[nameBlock]).toContain(name);
    }

    // The accepted one is posted, then confirmed: once the confirmation is here every
    // submission's work is done.
    await env.standin.waitForEphemeral(USER, (m) => m.text.includes(name));
    const posted = env.standin.messages(STANDIN_IDS.approvals).filter((m) => m.text.includes(name));
    expect(posted).toHaveLength(1);

    const records = await env.bot.services.approvals.store.list({ limit: 1000 });
    const requests = records.filter((r) => r.reconcileKey === name);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      status: "pending",
      slack: { approvalChannel: STANDIN_IDS.approvals, approvalTs: posted[0]?.ts },
    });
  }

  it("makes exactly one approval request of 10 concurrent submissions of one port name", async () => {
    const dcfs = await env.bot.services.provider.listDcfs({
      where: { "dataCenterFacility.ready": true },
    });
    const dcf = dcfs.find(
      (d: Dcf) =>
        d.username &&
        (d.dataCenterFacility?.speeds ?? []).map(Number).includes(10000) &&
        !(d.tags ?? []).some((t) => /off|ext/i.test(t)),
    );
    if (!dcf) throw new Error("the sandbox has no on-net DCF offering 10G");
    expect((await env.connect("port order")).status).toBe(200);
    const form = await env.standin.waitForView(USER, (v) => v.view.callback_id === PORT_ORDER_VIEW);
    await env.slack.fillView(USER, {
      "Data center": { query: dcf.name ?? dcf.username ?? "", pick: dcfRef(dcf) },
    });
    await env.standin.waitForView(USER, (v) =>
      JSON.stringify(v.view.blocks).includes(PORT_ORDER_BLOCKS.speed),
    );
    const name = "e2e-name-race-1";
    const values = await env.slack.fillView(USER, {
      Speed: "10G",
      Term: "1 year (12 months)",
      "Port name": name,
    });

    const answers = await Promise.all(
      Array.from({ length: 10 }, () => env.slack.submitView(USER, form.view.id, values)),
    );

    await expectOneRequest(answers, name, PORT_ORDER_BLOCKS.portName);
  });

  it("makes exactly one approval request of 10 concurrent submissions of one layer 2 name", async () => {
    const company = (await env.bot.services.identity()).companyUsername;
    const own = await env.bot.services.provider.listPorts(company, { deleted: false });
    const portNamed = (portName: string) => {
      const port = own.find((p) => p.name === portName);
      if (!port) throw new Error(`the sandbox has no port ${portName}`);
      return port;
    };
    expect((await env.connect("l2")).status).toBe(200);
    const name = "e2e-l2-name-race-1";
    await env.slack.fillView(USER, {
      "Source port": portNamed("nyc-edge-01").id,
      "Destination port": portNamed("iad-core-01").id,
      Bandwidth: "100",
      Duration: "12",
      "Connection name": name,
    });
    const priced: StandinView = await env.standin.waitForView(USER, (v) =>
      readable(v.view.blocks as KnownBlock[]).includes("Layer 2 price"),
    );
    const values = viewStateValues(priced.view.blocks, priced.entered);

    const answers = await Promise.all(
      Array.from({ length: 10 }, () => env.slack.submitView(USER, priced.view.id, values)),
    );

    await expectOneRequest(answers, name, LAYER2_BLOCKS.name);
  });

  describe("answering the form (every order form goes through submitFromForm)", () => {
    type Submission = Parameters<typeof submitFromForm>[0]["submission"];
    const submission = (name: string): Submission => ({
      kind: "iod",
      title: `IO-D service ${name}`,
      summary: [{ label: "Name", value: name }],
      call: { operation: "createGiaService", pathParams: {}, body: { name } },
      reconcileKey: name,
      requester: { userId: USER, channelId: STANDIN_IDS.general },
    });
    const client = () =>
      new WebClient(env.standin.botToken, {
        slackApiUrl: env.standin.apiUrl,
        retryConfig: { retries: 0 },
      });
    const postedAbout = (name: string) =>
      env.standin.messages(STANDIN_IDS.approvals).filter((m) => m.text.includes(name)).length;

    it("answers once, before posting; a taken name is answered as the name's error, unposted", async () => {
      const name = "e2e-form-answer-1";
      const answers: Array<{ nameError?: string; postedBefore: number }> = [];
      const answerForm = async (nameError?: string) => {
        answers.push({ nameError, postedBefore: postedAbout(name) });
      };
      const first = await submitFromForm({
        services: env.bot.services,
        client: client(),
        submission: submission(name),
        answerForm,
      });
      expect(first.ok).toBe(true);
      // The form was answered (closed) before the approval message went out.
      expect(answers).toEqual([{ nameError: undefined, postedBefore: 0 }]);
      expect(postedAbout(name)).toBe(1);

      answers.length = 0;
      const second = await submitFromForm({
        services: env.bot.services,
        client: client(),
        submission: submission(` ${name.toUpperCase()}`),
        answerForm,
      });
      expect(second).toEqual({
        ok: false,
        field: "name",
        message: `A request named "${name.toUpperCase()}" is already waiting or being ordered; choose another name`,
      });
      expect(answers).toEqual([{ nameError: second.ok ? "" : second.message, postedBefore: 1 }]);
      expect(postedAbout(name)).toBe(1);
    });

    it("cancels a request whose approval message could not be posted, so its name is free again", async () => {
      const name = "e2e-form-unposted-1";
      env.standin.failNext("chat.postMessage", { error: "not_in_channel" });
      await expect(
        submitFromForm({
          services: env.bot.services,
          client: client(),
          submission: submission(name),
          answerForm: async () => {},
        }),
      ).rejects.toThrow(/not_in_channel/);
      const records = await env.bot.services.approvals.store.list({ limit: 1000 });
      expect(records.filter((r) => r.reconcileKey === name).map((r) => r.status)).toEqual([
        "cancelled",
      ]);

      // Asked again once the bot can post: accepted, not refused as "already waiting".
      const again = await submitFromForm({
        services: env.bot.services,
        client: client(),
        submission: submission(name),
        answerForm: async () => {},
      });
      expect(again.ok).toBe(true);
      expect(postedAbout(name)).toBe(1);
    });

    it("still answers the form once when storing fails, then lets the error through", async () => {
      let answered = 0;
      const broken = { ...submission("e2e-form-answer-2"), title: "two\nlines" };
      await expect(
        submitFromForm({
          services: env.bot.services,
          client: client(),
          submission: broken,
          answerForm: async (nameError) => {
            expect(nameError).toBeUndefined();
            answered += 1;
          },
        }),
      ).rejects.toBeInstanceOf(ApprovalInputError);
      expect(answered).toBe(1);
    });
  });
});
