import type { Redis } from "ioredis";

/**
 * Lua scripts on ioredis, for every layer that runs one (the jobs' parts, the order progress,
 * the provider's rate limiter): here rather than in one of them, so none imports another's
 * folder for it. src/jobs/queues.ts's `defineScripts` defines a part's scripts at once.
 */

/** Defines a Lua script on a connection and returns a typed caller (EVALSHA, EVAL on NOSCRIPT). */
export function defineScript(
  redis: Redis,
  name: string,
  lua: string,
  numberOfKeys: number,
): (keys: string[], args: (string | number)[]) => Promise<unknown> {
  redis.defineCommand(name, { lua, numberOfKeys });
  type ScriptCall = (...args: (string | number)[]) => Promise<unknown>;
  // defineCommand adds a method ioredis' types cannot know about.
  const call = (redis as unknown as Record<string, ScriptCall>)[name];
  if (typeof call !== "function") throw new Error(`ioredis did not define ${name}`);
  return (keys, args) => {
    if (keys.length !== numberOfKeys) {
      throw new Error(`${name} takes ${numberOfKeys} keys, got ${keys.length}`);
    }
    return call.call(redis, ...keys, ...args);
  };
}
