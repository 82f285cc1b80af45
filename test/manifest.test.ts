import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { COMMAND } from "../src/domain/commands.js";
import type { StepCompletions } from "../src/orders/stepCompletions.js";
import { registerStepListeners, STEP_CALLBACK_IDS } from "../src/slack/features/steps/index.js";
import type { ListenerDeps } from "../src/slack/listeners.js";
import {
  orderStatusInputs,
  priceLayer2Inputs,
  pricePortInputs,
  requestLayer2Inputs,
  requestPortOrderInputs,
} from "../src/usecases/steps/inputs.js";

const root = new URL("..", import.meta.url).pathname;

interface Manifest {
  _metadata: { major_version: number };
  features: {
    slash_commands: Array<{ command: string; url?: string }>;
    app_home?: { home_tab_enabled?: boolean };
    bot_user?: unknown;
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    event_subscriptions?: { request_url?: string; bot_events?: string[] };
    interactivity: { is_enabled: boolean; request_url?: string; message_menu_options_url?: string };
    socket_mode_enabled: boolean;
    org_deploy_enabled?: boolean;
  };
  functions?: Record<string, unknown>;
}

/**
 * The `functions:` part of Slack's app manifest schema, encoded here with zod: no package we
 * can install ships Slack's manifest JSON schema (@slack/web-api has its TypeScript shape,
 * `Manifest`/`ManifestFunction` in dist/types/request/manifest.d.ts, which this follows), so the
 * rules are the documented ones: a callback id of lower-case letters, digits and underscores;
 * a title and a description; input and output parameters as `properties` (at most 50) of a
 * known type, with `required` naming only properties that exist.
 */
const PARAMETER_TYPES = [
  "string",
  "integer",
  "number",
  "boolean",
  "object",
  "array",
  "slack#/types/user_id",
  "slack#/types/channel_id",
  "slack#/types/usergroup_id",
  "slack#/types/timestamp",
  "slack#/types/date",
  "slack#/types/rich_text",
  "slack#/types/interactivity",
  "slack#/types/message_ts",
  "slack#/types/message_context",
  "slack#/types/expanded_rich_text",
  "slack#/types/file_id",
  "slack#/types/team_id",
] as const;
const parameterProperty = z
  .object({
    type: z.enum(PARAMETER_TYPES),
    title: z.string().min(1).max(255).optional(),
    description: z.string().min(1).max(4000).optional(),
    hint: z.string().optional(),
    minLength: z.number().int().optional(),
    maxLength: z.number().int().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
  })
  .strict();
const parameters = z
  .object({
    properties: z
      .record(z.string().regex(/^[a-z][a-z0-9_]*$/), parameterProperty)
      .refine((p) => Object.keys(p).length <= 50, "at most 50 properties"),
    required: z.array(z.string()).optional(),
  })
  .strict()
  .refine(
    (p) => (p.required ?? []).every((name) => name in p.properties),
    "required names a property that is not defined",
  );
const manifestFunctions = z.record(
  z.string().regex(/^[a-z][a-z0-9_]{0,99}$/, "callback ids are lower case, digits and _"),
  z
    .object({
      title: z.string().min(1).max(255),
      description: z.string().min(1).max(4000),
      input_parameters: parameters,
      output_parameters: parameters,
    })
    .strict(),
);

/** The bot scope each Web API method the bot calls needs (views.* and getPermalink need none). */
const METHOD_SCOPES: Record<string, string | null> = {
  "chat.postMessage": "chat:write",
  "chat.postEphemeral": "chat:write",
  "chat.update": "chat:write",
  "chat.delete": "chat:write",
  "chat.getPermalink": null,
  "users.info": "users:read",
  // Step errors name groups by handle; the start-up and scheduled check of every user group the
  // approval configuration names.
  "usergroups.list": "usergroups:read",
  "usergroups.users.list": "usergroups:read",
  "views.open": null,
  "views.update": null,
  "views.push": null,
  "views.publish": null,
  // The spend ledger's CSV export: the DM's id (files.completeUploadExternal takes no user id).
  "conversations.open": "im:write",
  "files.getUploadURLExternal": "files:write",
  "files.completeUploadExternal": "files:write",
};

/** The bot's own code: the stand-ins for Slack and the provider are not the bot. */
function botSources(dir = join(root, "src")): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      return ["standin", "sandbox", "playground", "generated"].includes(name)
        ? []
        : botSources(path);
    }
    return path.endsWith(".ts") ? [path] : [];
  });
}

function methodsCalled(): Set<string> {
  const found = new Set<string>();
  const pattern =
    /\.(chat|users|usergroups|views|conversations|reactions|files)\s*\.\s*([a-zA-Z]+(?:\s*\.\s*[a-zA-Z]+)?)\s*\(/g;
  for (const file of botSources()) {
    for (const match of readFileSync(file, "utf8").matchAll(pattern)) {
      found.add(`${match[1]}.${match[2]!.replace(/\s/g, "")}`);
    }
  }
  return found;
}

/** The Events API events the bot listens to (`app.event("…")`; `app.function` is function_executed). */
function eventsListened(): Set<string> {
  const found = new Set<string>();
  for (const file of botSources()) {
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(/\.event\(\s*"([a-z_]+)"/g)) {
      found.add(match[1]!);
    }
    if (/\bapp\.function\(/.test(source)) found.add("function_executed");
  }
  return found;
}

/** The callback ids the steps feature registers with `app.function`. */
function stepListenerIds(): string[] {
  const ids: string[] = [];
  registerStepListeners(
    {
      function: (id: string) => {
        ids.push(id);
        return undefined as never;
      },
    },
    {} as ListenerDeps,
    { client: {} as never, completions: {} as StepCompletions },
  );
  return ids;
}

/** Each step's input schema (src/usecases/steps/inputs.ts), by callback id. */
const STEP_INPUTS: Record<string, z.ZodObject> = {
  price_port: pricePortInputs,
  price_layer2: priceLayer2Inputs,
  request_port_order: requestPortOrderInputs,
  request_layer2_connection: requestLayer2Inputs,
  order_status: orderStatusInputs,
};

describe("manifest.yml", () => {
  const manifest = parse(readFileSync(join(root, "manifest.yml"), "utf8")) as Manifest;

  it("is a version 1 manifest with the /connect command and every URL at /slack/events", () => {
    expect(manifest._metadata.major_version).toBe(1);
    expect(manifest.features.slash_commands.map((c) => c.command)).toEqual([COMMAND]);
    expect(manifest.features.slash_commands[0]?.url).toMatch(/\/slack\/events$/);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.settings.interactivity.request_url).toMatch(/\/slack\/events$/);
    expect(manifest.settings.interactivity.message_menu_options_url).toMatch(/\/slack\/events$/);
    expect(manifest.features.app_home).toBeDefined();
  });

  it("subscribes to exactly the events the code listens to, with the Home tab for app_home_opened", () => {
    const events = eventsListened();
    expect(events).toContain("app_home_opened");
    expect(new Set(manifest.settings.event_subscriptions?.bot_events ?? [])).toEqual(events);
    expect(manifest.settings.event_subscriptions?.request_url).toMatch(/\/slack\/events$/);
    expect(manifest.features.app_home?.home_tab_enabled).toBe(true);
  });

  it("defines the Workflow Builder steps as Slack's manifest schema has them, org-ready", () => {
    const parsed = manifestFunctions.safeParse(manifest.functions);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(manifest.settings.org_deploy_enabled).toBe(true);
    expect(manifest.settings.event_subscriptions?.bot_events).toContain("function_executed");
  });

  it("has a listener for every step it defines, and defines every step with a listener", () => {
    const defined = Object.keys(manifest.functions ?? {}).sort();
    expect(stepListenerIds().sort()).toEqual(defined);
    expect([...STEP_CALLBACK_IDS].sort()).toEqual(defined);
  });

  it("gives each step exactly the inputs its listener reads, required where the listener needs them", () => {
    const functions = manifestFunctions.parse(manifest.functions);
    for (const [id, schema] of Object.entries(STEP_INPUTS)) {
      const inputs = functions[id]?.input_parameters;
      expect(Object.keys(inputs?.properties ?? {}).sort(), id).toEqual(
        Object.keys(schema.shape).sort(),
      );
      const optional = Object.entries(schema.shape)
        .filter(([, field]) => (field as z.ZodType).safeParse(undefined).success)
        .map(([name]) => name);
      expect([...(inputs?.required ?? [])].sort(), id).toEqual(
        Object.keys(schema.shape)
          .filter((name) => !optional.includes(name))
          .sort(),
      );
    }
  });

  it("asks for exactly the bot scopes the code uses", () => {
    const methods = methodsCalled();
    expect(methods.size).toBeGreaterThan(0);
    const unknown = [...methods].filter((m) => !(m in METHOD_SCOPES));
    expect(unknown, "add these methods to METHOD_SCOPES").toEqual([]);
    const needed = new Set(["commands"]);
    for (const method of methods) {
      const scope = METHOD_SCOPES[method];
      if (scope) needed.add(scope);
    }
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...needed].sort());
  });
});
