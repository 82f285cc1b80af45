import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadConfig } from "../src/config.js";

/**
 * No Docker engine runs on the CI machine, so the image cannot be built here; these checks
 * lint the Dockerfile and compose file for the properties the deployment relies on.
 */
const root = new URL("..", import.meta.url).pathname;
const dockerfile = readFileSync(join(root, "Dockerfile"), "utf8");

/** Instructions with continuation lines joined, comments dropped. */
function instructions(text: string): Array<{ op: string; args: string }> {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [op = "", ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(" ") };
    });
}

describe("Dockerfile", () => {
  const all = instructions(dockerfile);
  const stages = all.filter((i) => i.op === "FROM");
  const finalStage = all.slice(all.lastIndexOf(stages[stages.length - 1]!));

  it("is multi-stage and the runtime stage installs production dependencies only", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages.every((s) => /\bAS\s+\w+/i.test(s.args))).toBe(true);
    const installs = finalStage.filter((i) => i.op === "RUN" && /npm (ci|install)/.test(i.args));
    expect(installs.length).toBe(1);
    expect(installs[0]!.args).toMatch(/--omit=dev/);
    expect(finalStage.some((i) => i.op === "COPY" && i.args.includes("--from=build"))).toBe(true);
  });

  it("builds and runs on the Node major that package.json's engines asks for (24 LTS)", () => {
    const engines = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).engines.node;
    const major = /^>=(\d+)/.exec(engines)?.[1];
    expect(major).toBe("24");
    for (const stage of stages) expect(stage.args).toMatch(new RegExp(`^node:${major}-`));
  });

  it("runs as a non-root user with a health check on /healthz", () => {
    const user = finalStage.filter((i) => i.op === "USER").pop();
    expect(user?.args).toBeDefined();
    expect(user!.args).not.toMatch(/^(root|0)(:|$)/);
    const health = finalStage.find((i) => i.op === "HEALTHCHECK");
    expect(health?.args).toContain("/healthz");
  });

  it("has one entry point for the bot and the worker, and copies only files that exist", () => {
    const entry = readFileSync(join(root, "docker-entrypoint.sh"), "utf8");
    expect(entry).toMatch(/bot\)\s*exec node dist\/src\/main\.js/);
    expect(entry).toMatch(/worker\)\s*exec node dist\/src\/worker\.js/);
    for (const copy of all.filter((i) => i.op === "COPY" && !i.args.includes("--from="))) {
      const sources = copy.args.split(/\s+/).slice(0, -1);
      for (const source of sources) expect(existsSync(join(root, source)), source).toBe(true);
    }
    for (const entry of ["src/main.ts", "src/worker.ts"]) {
      expect(existsSync(join(root, entry)), entry).toBe(true);
    }
  });
});

describe("docker-compose.yml", () => {
  it("gives the bot a Redis that persists (AOF) and never evicts", () => {
    const compose = parse(readFileSync(join(root, "docker-compose.yml"), "utf8")) as {
      services: Record<string, { command?: string[]; environment?: Record<string, string> }>;
    };
    const command = compose.services.redis?.command?.join(" ") ?? "";
    expect(command).toContain("--appendonly yes");
    expect(command).toContain("--maxmemory-policy noeviction");
    expect(compose.services.bot?.environment?.REDIS_URL).toBe("redis://redis:6379");
  });

  it("has a Sentinel profile: a primary, its replica, three sentinels and the bot on them", () => {
    const compose = parse(readFileSync(join(root, "docker-compose.yml"), "utf8")) as {
      services: Record<
        string,
        {
          profiles?: string[];
          command?: string[];
          environment?: Record<string, string>;
          depends_on?: unknown;
        }
      >;
    };
    const inProfile = Object.entries(compose.services)
      .filter(([, service]) => service.profiles?.includes("sentinel"))
      .map(([name]) => name)
      .sort();
    expect(inProfile).toEqual([
      "bot-sentinel",
      "redis-primary",
      "redis-replica",
      "sentinel-1",
      "sentinel-2",
      "sentinel-3",
    ]);
    const replica = compose.services["redis-replica"]?.command?.join(" ") ?? "";
    expect(replica).toContain("--replicaof redis-primary 6379");
    for (const name of ["redis-primary", "redis-replica"]) {
      const command = compose.services[name]?.command?.join(" ") ?? "";
      expect(command, name).toContain("--appendonly yes");
      expect(command, name).toContain("--maxmemory-policy noeviction");
    }
    const sentinel = compose.services["sentinel-1"]?.command?.join(" ") ?? "";
    expect(sentinel).toContain("--sentinel");
    const monitored = /sentinel monitor (\S+) redis-primary 6379 2/.exec(sentinel)?.[1];
    expect(monitored).toBeDefined();
    // The bot's settings are valid and name those sentinels and that master.
    const env = compose.services["bot-sentinel"]?.environment ?? {};
    const config = loadConfig(env);
    expect(config.redis).toEqual({
      mode: "sentinel",
      url: "redis://redis-primary:6379/0",
      sentinels: ["sentinel-1", "sentinel-2", "sentinel-3"].map((host) => ({ host, port: 26379 })),
      masterName: monitored,
    });
    // Without a profile, `docker compose up` still runs the bot on one Redis only.
    expect(compose.services.bot?.profiles).toBeUndefined();
    expect(compose.services.redis?.profiles).toBeUndefined();
  });
});
