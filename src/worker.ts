import { startBot } from "./bot.js";
import { configuredSecrets } from "./config.js";
import { createLogger } from "./log.js";
import { loadConfigOrExit, stopOnSignals } from "./processLifecycle.js";

/**
 * `npm run worker`: the background workers alone (notifications, order tracking, Edge quotes,
 * placement), so a team can scale them apart from the HTTP front (run that with WORKERS=false).
 */
const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, secrets: configuredSecrets(config) });
const worker = await startBot({ config, logger, role: "worker" }).catch((error: Error) => {
  process.stderr.write(`Could not start the workers: ${error.message}\n`);
  process.exit(1);
});
stopOnSignals(logger, () => worker.stop());
