import { startBot } from "./bot.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { createLogger } from "./log.js";

/**
 * Entry point (`npm start`). With no Slack credentials and no PROVIDER_BASE_URL it runs the
 * whole product locally: the sandbox provider, the bot, and a stand-in for Slack.
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
  let bot: Awaited<ReturnType<typeof startBot>>;
  try {
    bot = await startBot({ config, logger });
  } catch (error) {
    const message = (error as Error).message;
    const hint = /ECONNREFUSED.*6379|connect ECONNREFUSED/.test(message)
      ? ` — is Redis running at ${config.redisUrl}? Start one with: redis-server --daemonize yes`
      : "";
    process.stderr.write(`Could not start: ${message}${hint}\n`);
    process.exit(1);
  }
  if (bot.standin) {
    process.stdout.write(
      `\nconnect-bot is running on embedded defaults (sandbox provider, local Slack stand-in).\n` +
        // The playground page stands in for Slack's client (src/playground/).
        `  Playground:    ${bot.playgroundUrl ?? `${bot.url}/playground`}  <- open this in a browser\n` +
        `  Slack events:  ${bot.url}/slack/events\n  Health:        ${bot.url}/healthz\n` +
        `  Slack stand-in Web API: ${bot.standin.apiUrl}\n  Stop with Ctrl-C.\n\n`,
    );
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // Bounded: a hung close (e.g. Redis gone) must not keep the process alive forever.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    bot.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

await main();
