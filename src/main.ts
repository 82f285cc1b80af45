import { type RunningBot, startBot } from "./bot.js";
import { ConfigError, configuredSecrets } from "./config.js";
import { createLogger } from "./log.js";
import { loadConfigOrExit, stopOnSignals } from "./processLifecycle.js";

/**
 * Entry point (`npm start`). With no Slack credentials and no PROVIDER_BASE_URL it runs the
 * whole product locally: the sandbox provider, the bot, a stand-in for Slack and its playground.
 */
const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, secrets: configuredSecrets(config) });
const bot: RunningBot = await startBot({ config, logger }).catch((error: Error) => {
  // Found only once Slack could be asked (a user group the policy names does not exist):
  // refused like a mistake in the environment, every problem listed.
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  const hint = /^Redis is not reachable/.test(error.message)
    ? '. Start one with: redis-server --daemonize yes --save "" --appendonly no (or set REDIS_URL)'
    : "";
  process.stderr.write(`Could not start: ${error.message}${hint}\n`);
  process.exit(1);
});
if (bot.standin) {
  process.stdout.write(
    "\nconnect-bot is running on embedded defaults (sandbox provider, local Slack stand-in).\n" +
      `  Playground:    ${bot.playgroundUrl ?? `${bot.url}/playground`}  <- open this in a browser\n` +
      `  Slack events:  ${bot.url}/slack/events\n  Health:        ${bot.url}/healthz\n` +
      `  Slack stand-in Web API: ${bot.standin.apiUrl}\n  Stop with Ctrl-C.\n\n`,
  );
}
stopOnSignals(logger, () => bot.stop());
