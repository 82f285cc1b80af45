import { startBot } from "./bot.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { createLogger } from "./log.js";

/**
 * `npm run worker`: the background workers alone (notifications, order tracking, Edge quotes,
 * placement), so a team can scale them apart from the HTTP front (run that with WORKERS=false).
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel });
  const worker = await startBot({ config, logger, role: "worker" }).catch((error: Error) => {
    process.stderr.write(`Could not start the workers: ${error.message}\n`);
    process.exit(1);
  });
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    setTimeout(() => process.exit(1), 15_000).unref();
    worker.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

await main();
