import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlaygroundState } from "../../src/playground/index.js";
import { STANDIN_IDS } from "../../src/standin/index.js";
import { FIXTURE_CALLBACK, type FixtureEnv, startFixtureEnv } from "./fixtureApp.js";

const { requester: RITA, approver: ALEX, outsider: OSCAR, general: GENERAL } = STANDIN_IDS;

describe("the playground's JSON API on the stand-in", () => {
  let env: FixtureEnv;
  let base: string;

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/playground/api/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const state = async (user: string): Promise<PlaygroundState> => {
    const response = await fetch(`${base}/playground/api/state?user=${user}`);
    expect(response.status).toBe(200);
    return (await response.json()) as PlaygroundState;
  };
  const topModal = async (user: string) => (await state(user)).modals.at(-1);

  beforeAll(async () => {
    env = await startFixtureEnv();
    base = env.standin.url;
  });
  afterAll(async () => {
    await env?.close();
  });

  it("serves the page with a strict content security policy, and only its own files", async () => {
    const page = await fetch(`${base}/playground`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await page.text()).toContain("/playground/static/app.js");
    const script = await fetch(`${base}/playground/static/app.js`);
    expect(script.headers.get("content-type")).toContain("text/javascript");
    for (const path of ["/playground/static/server.ts", "/playground/static/..%2F..%2Fbot.ts"]) {
      expect((await fetch(`${base}${path}`)).status).toBe(404);
    }
  });

  it("shows a person the channels, the people with their roles, and the sandbox flag", async () => {
    const rita = await state(RITA);
    expect(rita.sandbox).toBe(true);
    expect(rita.me).toMatchObject({ id: RITA, realName: "Rita Requester", role: "requester" });
    expect(rita.channels.map((c) => c.name)).toEqual(["general", "network-approvals"]);
    expect(Object.fromEntries(rita.people.map((p) => [p.id, p.role]))).toEqual({
      [RITA]: "requester",
      [ALEX]: "approver",
      [STANDIN_IDS.groupApprover]: "group approver",
      [OSCAR]: "outsider",
    });
    const unchanged = await fetch(
      `${base}/playground/api/state?user=${RITA}&since=${rita.version}`,
    );
    // The run id comes with every answer: a page open across a restart sees it change.
    const runId = rita.runId;
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await unchanged.json()).toEqual({ version: rita.version, runId, changed: false });
  });

  it("runs a slash command as the person; the ephemeral answer is theirs alone", async () => {
    const response = await post("command", {
      user: RITA,
      channel: GENERAL,
      text: "/connect hello there",
    });
    expect(response.status).toBe(200);
    await env.standin.waitForEphemeral(RITA, (m) => m.text.includes("hello there"));
    const rita = await state(RITA);
    const mine = rita.messages[GENERAL]?.filter((m) => m.ephemeral) ?? [];
    expect(mine.map((m) => m.text)).toContain("fixture got `hello there`");
    const alex = await state(ALEX);
    expect(alex.messages[GENERAL]?.some((m) => m.ephemeral)).toBe(false);
  });

  it("refuses another command, another person's DM, and a person who is not there", async () => {
    const other = await post("command", { user: RITA, channel: GENERAL, text: "/deploy now" });
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({
      ok: false,
      error: expect.stringContaining("/connect"),
    });
    const dm = await post("command", { user: RITA, channel: "D0APPROVE1", text: "/connect x" });
    expect(dm.status).toBe(404);
    const nobody = await post("command", {
      user: "U0NOBODY99",
      channel: GENERAL,
      text: "/connect",
    });
    expect(nobody.status).toBe(400);
    expect((await fetch(`${base}/playground/api/state?user=U0NOBODY99`)).status).toBe(400);
  });

  it("takes JSON from its own origin only", async () => {
    const body = { user: RITA, channel: GENERAL, text: "/connect help" };
    const form = await fetch(`${base}/playground/api/command`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body).toString(),
    });
    expect(form.status).toBe(415);
    const crossSite = await post("command", body, { origin: "http://evil.example" });
    expect(crossSite.status).toBe(403);
    const broken = await post("command", "{not json");
    expect(broken.status).toBe(400);
  });

  it("posts a person's message and a reply in its thread", async () => {
    const parent = await post("message", {
      user: ALEX,
      channel: GENERAL,
      text: "Who ordered ams-1?",
    });
    const { ts } = (await parent.json()) as { ts: string };
    expect(
      (await post("message", { user: RITA, channel: GENERAL, text: "Me", threadTs: ts })).status,
    ).toBe(200);
    const rita = await state(RITA);
    expect(rita.messages[GENERAL]?.find((m) => m.ts === ts)).toMatchObject({
      author: "Alex Approver",
      replyCount: 1,
    });
    expect(rita.threads[`${GENERAL}:${ts}`]?.map((m) => m.text)).toEqual(["Me"]);
    const orphan = await post("message", {
      user: RITA,
      channel: GENERAL,
      text: "lost",
      threadTs: "1.000001",
    });
    expect(orphan.status).toBe(404);
  });

  it("drives a modal: suggestions, a dispatching select, field errors, then the app's update", async () => {
    await post("command", { user: RITA, channel: GENERAL, text: "/connect form" });
    const opened = await env.standin.waitForView(
      RITA,
      (v) => v.view.callback_id === FIXTURE_CALLBACK,
    );
    const viewId = opened.view.id;

    const suggest = await fetch(
      `${base}/playground/api/suggest?user=${RITA}&viewId=${viewId}&blockId=dcf&actionId=value&query=lon`,
    );
    expect(await suggest.json()).toMatchObject({
      options: [{ text: { text: "London LD5" }, value: "dcf-ld5" }],
    });

    // Another person cannot touch Rita's modal.
    const intruder = await post("view/submit", { user: OSCAR, viewId, values: {} });
    expect(intruder.status).toBe(404);

    const badNumber = await post("view/input", {
      user: RITA,
      viewId,
      blockId: "speed",
      actionId: "value",
      value: "fast",
    });
    // A refused value is an answer shown under the field, not a failed request in the console.
    expect(badNumber.status).toBe(200);
    const refused = (await badNumber.json()) as {
      ok: boolean;
      fieldErrors: Record<string, string>;
    };
    expect(refused.ok).toBe(false);
    expect(refused.fieldErrors.speed).toContain("not a whole number");

    const dispatch = await post("view/input", {
      user: RITA,
      viewId,
      blockId: "cos",
      actionId: "choose",
      value: "gold",
    });
    expect(dispatch.status).toBe(200);
    await env.standin.waitForView(RITA, (v) => JSON.stringify(v.view.blocks).includes("cos_note"));

    const values = {
      port_name: { value: "bad-port" },
      speed: { value: "1000" },
      term: { value: "12" },
      dcf: { value: { query: "ams", pick: "dcf-ams1" } },
      diversity: { value: "blue" },
      notify: { value: ["email", "channel"] },
    };
    const first = await post("view/submit", { user: RITA, viewId, values });
    expect(await first.json()).toMatchObject({
      ok: true,
      responseAction: "errors",
      errors: { port_name: expect.stringContaining("bad") },
    });
    expect((await topModal(RITA))?.errors).toEqual({
      port_name: "Port names must not contain “bad”.",
    });

    const second = await post("view/submit", {
      user: RITA,
      viewId,
      values: { ...values, port_name: { value: "ams-1" } },
    });
    expect(await second.json()).toMatchObject({ ok: true, responseAction: "update" });
    const summary = await topModal(RITA);
    expect(summary?.callbackId).toBe("fixture_summary");
    expect(JSON.stringify(summary?.blocks)).toContain(
      "*ams-1* · speed 1000 · term 12 · dcf dcf-ams1 · class gold · zone blue · notify email+channel",
    );

    expect((await post("view/close", { user: RITA, viewId })).status).toBe(200);
    expect((await state(RITA)).modals).toEqual([]);
    expect((await post("view/close", { user: RITA, viewId })).status).toBe(404);
  });

  it("answers field problems under the field, and refuses a required input left empty", async () => {
    await post("command", { user: ALEX, channel: GENERAL, text: "/connect form" });
    const { view } = await env.standin.waitForView(
      ALEX,
      (v) => v.view.callback_id === FIXTURE_CALLBACK,
    );
    const response = await post("view/submit", {
      user: ALEX,
      viewId: view.id,
      values: { speed: { value: "0" }, term: { value: "7" } },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { ok: boolean; fieldErrors: Record<string, string> };
    expect(body.ok).toBe(false);
    expect(body.fieldErrors.speed).toContain("at least 1");
    expect(body.fieldErrors.term).toContain('no option "7"');
    const empty = await post("view/submit", { user: ALEX, viewId: view.id, values: {} });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: string }).error).toContain("required");
    await post("view/close", { user: ALEX, viewId: view.id });
  });

  it("clicks in messages: a select's pick reaches the app", async () => {
    await post("command", { user: OSCAR, channel: GENERAL, text: "/connect buttons" });
    const message = await env.standin.waitForMessage(GENERAL, (m) =>
      JSON.stringify(m.blocks ?? []).includes("fixture_pick"),
    );
    const click = await post("click", {
      user: OSCAR,
      channel: GENERAL,
      ts: message.ts,
      blockId: "fixture_actions",
      actionId: "fixture_pick",
      value: "purple",
    });
    expect(click.status).toBe(200);
    await env.standin.waitForMessage(GENERAL, (m) => m.text === `<@${OSCAR}> picked purple`);
    const unknown = await post("click", {
      user: OSCAR,
      channel: GENERAL,
      ts: "1.000001",
      blockId: "x",
      actionId: "y",
    });
    expect(unknown.status).toBe(400);
  });

  it("never fails with a 5xx on arbitrary input", async () => {
    const paths = ["command", "message", "click", "view/input", "view/submit", "view/close"];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue(), async (path, body) => {
        const response = await post(path, body);
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom("user", "since", "viewId", "query", "blockId"), fc.string()),
        async (query) => {
          const response = await fetch(
            `${base}/playground/api/suggest?${new URLSearchParams(query)}`,
          );
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 30 },
    );
    expect((await state(RITA)).me.id).toBe(RITA);
  });
});
