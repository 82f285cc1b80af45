// `npm run sandbox`: the provider sandbox on its own, on SANDBOX_PORT (default 4010).
import { createLogger } from "../log.js";
import { loadConfigOrExit } from "../processLifecycle.js";
import { DEFAULT_SEED, startSandbox } from "./index.js";

async function main(): Promise<void> {
  // Only the sandbox's own settings are checked: a half-configured Slack setup in the same
  // environment must not stop the stand-alone sandbox.
  const config = loadConfigOrExit({
    SANDBOX_PORT: process.env.SANDBOX_PORT,
    LOG_LEVEL: process.env.LOG_LEVEL,
  });
  const logger = createLogger({ level: config.logLevel });
  const seedText = process.env.SANDBOX_SEED;
  const seed = seedText && /^\d+$/.test(seedText) ? Number(seedText) : DEFAULT_SEED;
  const sandbox = await startSandbox({
    port: config.sandboxPort,
    host: process.env.SANDBOX_HOST ?? "127.0.0.1",
    seed,
    logger,
  });
  logger.info(
    {
      url: sandbox.url,
      seed,
      company: sandbox.apiUser.companyUsername,
      admin: `${sandbox.url}/__sandbox`,
    },
    "provider sandbox listening",
  );
  const stop = (signal: string) => {
    logger.info({ signal }, "provider sandbox stopping");
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "provider sandbox did not stop cleanly");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

await main();
