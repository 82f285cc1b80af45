import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { COMMAND } from "../src/domain/commands.js";

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
  };
}

/** The bot scope each Web API method the bot calls needs (views.* and getPermalink need none). */
const METHOD_SCOPES: Record<string, string | null> = {
  "chat.postMessage": "chat:write",
  "chat.postEphemeral": "chat:write",
  "chat.update": "chat:write",
  "chat.delete": "chat:write",
  "chat.getPermalink": null,
  "users.info": "users:read",
  "usergroups.users.list": "usergroups:read",
  // The start-up and scheduled check of every user group the approval configuration names.
  "usergroups.list": "usergroups:read",
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

/** The Events API events the bot listens to (`app.event("…")`). */
function eventsListened(): Set<string> {
  const found = new Set<string>();
  for (const file of botSources()) {
    for (const match of readFileSync(file, "utf8").matchAll(/\.event\(\s*"([a-z_]+)"/g)) {
      found.add(match[1]!);
    }
  }
  return found;
}

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
