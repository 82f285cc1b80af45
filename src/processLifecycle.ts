import { type Config, ConfigError, loadConfig } from "./config.js";
import type { Logger } from "./log.js";

/**
 * Reads the configuration from `env`, or prints every problem and exits 2 (shared by the bot,
 * the worker and the stand-alone sandbox).
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/**
 * SIGTERM/SIGINT: stop once, within a bound — closing can hang while Redis is unreachable,
 * and an orchestrator waiting on a process that never exits is worse than a forced exit.
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>, boundMs = 15_000): void {
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    setTimeout(() => process.exit(1), boundMs).unref();
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
