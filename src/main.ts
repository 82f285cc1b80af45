import { ConfigError, loadConfig } from "./config.js";
import { createLogger } from "./log.js";

/**
 * Entry point. With no Slack credentials and no PROVIDER_BASE_URL it runs on embedded defaults.
 * (The Slack app, the embedded sandbox and the workers are wired in here as they land.)
 */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
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
  logger.info({ slackMode: config.slack.mode, provider: config.provider.kind }, "starting");
}

await main();
