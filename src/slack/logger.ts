import { type Logger as BoltLogger, LogLevel } from "@slack/bolt";
import type { Logger } from "../log.js";

const pinoLevel: Record<LogLevel, string> = {
  [LogLevel.DEBUG]: "debug",
  [LogLevel.INFO]: "info",
  [LogLevel.WARN]: "warn",
  [LogLevel.ERROR]: "error",
};

/** Bolt logs through the process's one pino logger, so its lines are JSON and redacted too. */
export function boltLogger(logger: Logger): BoltLogger {
  let child = logger.child({ component: "bolt" });
  const format = (parts: unknown[]) =>
    parts
      .map((p) => (typeof p === "string" ? p : p instanceof Error ? p.message : JSON.stringify(p)))
      .join(" ");
  return {
    debug: (...msg: unknown[]) => child.debug(format(msg)),
    info: (...msg: unknown[]) => child.info(format(msg)),
    warn: (...msg: unknown[]) => child.warn(format(msg)),
    error: (...msg: unknown[]) => child.error(format(msg)),
    setLevel: (level: LogLevel) => {
      child.level = pinoLevel[level] ?? "info";
    },
    getLevel: () =>
      (Object.entries(pinoLevel).find(([, value]) => value === child.level)?.[0] as LogLevel) ??
      LogLevel.INFO,
    setName: (name: string) => {
      child = logger.child({ component: name });
    },
  };
}
