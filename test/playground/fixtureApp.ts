import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, type BlockAction, LogLevel } from "@slack/bolt";
import type { KnownBlock, ModalView, View } from "@slack/types";
import { createPlayground, type Playground } from "../../src/playground/index.js";
import { type SlackStandin, STANDIN_IDS } from "../../src/standin/index.js";

/**
 * A small Bolt app that uses every element the playground page must render in a modal and a
 * message, so the page is tested on its own, whatever the bot's commands look like today:
 * `/connect form` opens a form (text, number, static, external and dispatching selects, radio
 * buttons, checkboxes, a multiline text); submitting it answers `errors` for a port name with
 * "bad" in it, else `update` with a summary that echoes what arrived; `/connect buttons` posts
 * a message with a confirm-guarded button, a select, and hostile text.
 */

export const FIXTURE_CALLBACK = "playground_fixture";

const DATA_CENTERS = [
  { text: "Amsterdam AMS1", value: "dcf-ams1" },
  { text: "London LD5", value: "dcf-ld5" },
  { text: "Frankfurt FR2", value: "dcf-fr2" },
];

/** Text a provider could send back; the page must show it, never run it. */
export const HOSTILE_TEXT =
  "<img src=x onerror=\"document.body.dataset.pwned='1'\"> &lt;script&gt;document.body.dataset.pwned='2'&lt;/script&gt; <javascript:alert(1)|click me>";

const plain = (text: string) => ({ type: "plain_text" as const, text });

function formView(classChosen?: string): ModalView {
  const blocks: KnownBlock[] = [
    {
      type: "input",
      block_id: "port_name",
      label: plain("Port name"),
      element: { type: "plain_text_input", action_id: "value", placeholder: plain("e.g. ams-1") },
    },
    {
      // Enter here sends block_actions (dispatch_action), never the form.
      type: "input",
      block_id: "reference",
      optional: true,
      dispatch_action: true,
      label: plain("Reference"),
      element: { type: "plain_text_input", action_id: "reference" },
    },
    {
      type: "input",
      block_id: "speed",
      label: plain("Speed (Mbps)"),
      element: {
        type: "number_input",
        action_id: "value",
        is_decimal_allowed: false,
        min_value: "1",
        max_value: "100000",
      },
    },
    {
      type: "input",
      block_id: "term",
      label: plain("Term"),
      element: {
        type: "static_select",
        action_id: "value",
        options: [
          { text: plain("1 month"), value: "1" },
          { text: plain("12 months"), value: "12" },
          { text: plain("24 months"), value: "24" },
        ],
      },
    },
    {
      type: "input",
      block_id: "dcf",
      label: plain("Data center"),
      element: { type: "external_select", action_id: "value", min_query_length: 1 },
    },
    {
      type: "input",
      block_id: "cos",
      dispatch_action: true,
      label: plain("Class of service"),
      element: {
        type: "static_select",
        action_id: "choose",
        options: [
          { text: plain("Gold"), value: "gold" },
          { text: plain("Silver"), value: "silver" },
        ],
      },
    },
    ...(classChosen
      ? [
          {
            type: "context",
            block_id: "cos_note",
            elements: [{ type: "mrkdwn", text: `Class *${classChosen}* chosen` }],
          } as KnownBlock,
        ]
      : []),
    {
      type: "input",
      block_id: "diversity",
      label: plain("Diversity zone"),
      element: {
        type: "radio_buttons",
        action_id: "value",
        options: [
          { text: plain("Red"), value: "red" },
          { text: plain("Blue"), value: "blue" },
        ],
      },
    },
    {
      type: "input",
      block_id: "notify",
      optional: true,
      label: plain("Notify"),
      element: {
        type: "checkboxes",
        action_id: "value",
        options: [
          { text: plain("Email me"), value: "email" },
          { text: plain("Post in #general"), value: "channel" },
        ],
      },
    },
    {
      type: "input",
      block_id: "notes",
      optional: true,
      label: plain("Notes"),
      element: { type: "plain_text_input", action_id: "value", multiline: true },
    },
  ];
  return {
    type: "modal",
    callback_id: FIXTURE_CALLBACK,
    title: plain("Fixture form"),
    submit: plain("Get price"),
    close: plain("Cancel"),
    blocks,
  };
}

function summaryView(summary: string): ModalView {
  return {
    type: "modal",
    callback_id: "fixture_summary",
    title: plain("Fixture result"),
    close: plain("Done"),
    blocks: [
      { type: "header", text: plain("What the app received") },
      { type: "section", block_id: "summary", text: { type: "mrkdwn", text: summary } },
      {
        type: "actions",
        block_id: "more",
        elements: [{ type: "button", action_id: "push_more", text: plain("More detail") }],
      },
    ],
  };
}

export interface FixtureEnv {
  standin: SlackStandin;
  playground: Playground;
  /** What arrived with each view submission, newest last. */
  submissions: Array<Record<string, unknown>>;
  /** The Reference values sent by Enter (block_actions), newest last. */
  references: string[];
  close(): Promise<void>;
}

/** The stand-in with the playground page, and the fixture app behind it over signed HTTP. */
export async function startFixtureEnv(): Promise<FixtureEnv> {
  const playground = createPlayground({ sandbox: true });
  const standin = await playground.startStandin({ botPort: 0 });
  const signingSecret = randomBytes(16).toString("hex");
  const app = new App({
    token: standin.botToken,
    signingSecret,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: standin.apiUrl, retryConfig: { retries: 0 } },
    tokenVerificationEnabled: false,
  });
  const submissions: Array<Record<string, unknown>> = [];
  const references: string[] = [];

  app.command("/connect", async ({ command, ack, client, respond }) => {
    await ack();
    if (command.text === "form") {
      await client.views.open({ trigger_id: command.trigger_id, view: formView() });
    } else if (command.text === "buttons") {
      await client.chat.postMessage({
        channel: command.channel_id,
        text: HOSTILE_TEXT,
        blocks: [
          { type: "section", text: { type: "mrkdwn", text: HOSTILE_TEXT } },
          {
            type: "actions",
            block_id: "fixture_actions",
            elements: [
              {
                type: "button",
                action_id: "fixture_approve",
                style: "primary",
                text: plain("Approve"),
                value: "yes",
                confirm: {
                  title: plain("Approve this?"),
                  text: plain("It costs nothing here."),
                  confirm: plain("Approve"),
                  deny: plain("Not yet"),
                },
              },
              {
                type: "static_select",
                action_id: "fixture_pick",
                placeholder: plain("Pick a colour"),
                options: [
                  { text: plain("Green"), value: "green" },
                  { text: plain("Purple"), value: "purple" },
                ],
              },
            ],
          },
        ],
      });
    } else {
      await respond({ response_type: "ephemeral", text: `fixture got \`${command.text}\`` });
    }
  });

  app.options<"block_suggestion">(
    { action_id: "value", block_id: "dcf" },
    async ({ ack, options }) => {
      const query = options.value.toLowerCase();
      await ack({
        options: DATA_CENTERS.filter((d) => d.text.toLowerCase().includes(query)).map((d) => ({
          text: plain(d.text),
          value: d.value,
        })),
      });
    },
  );

  app.action<BlockAction>("choose", async ({ ack, body, client }) => {
    await ack();
    const action = body.actions[0];
    const chosen = action?.type === "static_select" ? action.selected_option?.text.text : undefined;
    if (body.view) {
      await client.views.update({
        view_id: body.view.id,
        hash: body.view.hash,
        view: formView(chosen) as View,
      });
    }
  });

  app.action<BlockAction>("reference", async ({ ack, body }) => {
    await ack();
    const action = body.actions[0];
    if (action?.type === "plain_text_input") references.push(action.value ?? "");
  });

  app.action("push_more", async ({ ack, body, client }) => {
    await ack();
    if (body.type !== "block_actions" || !body.trigger_id) return;
    await client.views.push({
      trigger_id: body.trigger_id,
      view: {
        type: "modal",
        callback_id: "fixture_more",
        title: plain("More detail"),
        close: plain("Back"),
        blocks: [{ type: "section", text: { type: "mrkdwn", text: "_Nothing more to say._" } }],
      },
    });
  });

  app.action("fixture_approve", async ({ ack, body, client }) => {
    await ack();
    await client.chat.postMessage({
      channel: STANDIN_IDS.general,
      text: `Approved by <@${body.user.id}>`,
    });
  });

  app.action<BlockAction>("fixture_pick", async ({ ack, body, client }) => {
    await ack();
    const action = body.actions[0];
    const picked = action?.type === "static_select" ? action.selected_option?.value : "?";
    await client.chat.postMessage({
      channel: STANDIN_IDS.general,
      text: `<@${body.user.id}> picked ${picked}`,
    });
  });

  app.view(FIXTURE_CALLBACK, async ({ ack, view, body }) => {
    const values = view.state.values;
    const name = values.port_name?.value?.value ?? "";
    submissions.push({ user: body.user.id, values });
    if (name.includes("bad")) {
      await ack({
        response_action: "errors",
        errors: { port_name: "Port names must not contain “bad”." },
      });
      return;
    }
    const notify = values.notify?.value?.selected_options?.map((o) => o.value).join("+") ?? "";
    const summary = [
      `*${name}*`,
      `speed ${values.speed?.value?.value}`,
      `term ${values.term?.value?.selected_option?.value}`,
      `dcf ${values.dcf?.value?.selected_option?.value}`,
      `class ${values.cos?.choose?.selected_option?.value}`,
      `zone ${values.diversity?.value?.selected_option?.value}`,
      `notify ${notify || "none"}`,
    ].join(" · ");
    await ack({ response_action: "update", view: summaryView(summary) });
  });

  const server = (await app.start(0)) as Server;
  const port = (server.address() as AddressInfo).port;
  playground.connect(
    standin.connectApp({ url: `http://127.0.0.1:${port}/slack/events`, signingSecret }),
  );
  return {
    standin,
    playground,
    submissions,
    references,
    async close() {
      await app.stop();
      await standin.close();
    },
  };
}
