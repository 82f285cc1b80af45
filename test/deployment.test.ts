import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

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
});
