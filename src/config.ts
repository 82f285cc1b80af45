import { z } from "zod";
import { type ApprovalPolicy, loadApprovalPolicy } from "./approvals/spendPolicy.js";
import { DEFAULT_APPROVE_CONFIRM_FROM } from "./domain/approveConfirm.js";
import { DEFAULT_CURRENCY, isCurrencyCode } from "./domain/money.js";
import { isSlackChannelId } from "./domain/slackIds.js";
import type { RedisAddress, RedisTopologyConfig } from "./redis/topology.js";

/**
 * The bot's configuration, read once from the environment (the pinned table in docs/DESIGN.md).
 * A bad or missing setting stops start-up with one message listing every problem.
 */

const slackUserOrGroupId = /^[USW][A-Z0-9]{2,}$/;

const booleanText = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .transform((value) => value === "true" || value === "1" || value === "yes");

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

/** A TCP port setting; `fallback` when unset. */
function portSetting(fallback: number) {
  return optionalText
    .refine(
      (v) => v === undefined || (/^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535),
      {
        error: "must be a port number from 1 to 65535",
      },
    )
    .transform((v) => (v === undefined ? fallback : Number(v)));
}

/** A layer 2 connection waiting this many days on a partner is reminded, then weekly. */
export const DEFAULT_PARTNER_REMINDER_AFTER_DAYS = 7;

/** Bounds of SLACK_MAX_BODY_BYTES: below 1 KiB no real payload fits; above 64 MiB is a typo. */
const MIN_BODY_BYTES = 1024;
const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Slack's real payloads (a big modal's view_submission included) stay well under 1 MiB. */
export const DEFAULT_SLACK_MAX_BODY_BYTES = 1024 * 1024;

const idList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== ""),
  )
  .refine((ids) => ids.every((id) => slackUserOrGroupId.test(id)), {
    error: "must be comma-separated Slack user (U…/W…) or user group (S…) IDs",
  });

/**
 * A comma-separated list of `host:port` (REDIS_SENTINELS, REDIS_CLUSTER_NODES): read into
 * addresses, or undefined when unset. A host may be a name, an IPv4 address or a bracketed IPv6
 * address (`[::1]:26379`).
 */
const addressList = (example: string) =>
  optionalText
    .refine(
      (v) =>
        v === undefined ||
        v
          .split(",")
          .map((item) => item.trim())
          .every((item) => readAddress(item) !== undefined),
      { error: `must be comma-separated host:port pairs (e.g. ${example})` },
    )
    .transform((v) =>
      v === undefined
        ? undefined
        : v
            .split(",")
            .map((item) => readAddress(item.trim()))
            .filter((address): address is RedisAddress => address !== undefined),
    );

function readAddress(text: string): RedisAddress | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/.exec(text);
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: match[1]!.replace(/^\[|\]$/g, ""), port };
}

/** `ORDER_UPDATES`: where a request's card goes (README, "Where progress is posted"). */
export const ORDER_UPDATES = ["channel", "dm", "off"] as const;
export type OrderUpdates = (typeof ORDER_UPDATES)[number];

const environmentSchema = z
  .object({
    SLACK_BOT_TOKEN: optionalText.refine((v) => v === undefined || v.startsWith("xoxb-"), {
      error: "must be a bot token starting with xoxb-",
    }),
    SLACK_SIGNING_SECRET: optionalText,
    SLACK_APP_TOKEN: optionalText.refine((v) => v === undefined || v.startsWith("xapp-"), {
      error: "must be an app-level token starting with xapp-",
    }),
    SLACK_API_URL: optionalText.pipe(z.url({ error: "must be a URL" }).optional()),
    SLACK_MAX_BODY_BYTES: optionalText
      .refine(
        (v) =>
          v === undefined ||
          (/^\d{1,9}$/.test(v) && Number(v) >= MIN_BODY_BYTES && Number(v) <= MAX_BODY_BYTES),
        { error: `must be a whole number of bytes from ${MIN_BODY_BYTES} to ${MAX_BODY_BYTES}` },
      )
      .transform((v) => (v === undefined ? DEFAULT_SLACK_MAX_BODY_BYTES : Number(v))),
    PORT: portSetting(3000),
    PROVIDER_BASE_URL: optionalText.pipe(z.url({ error: "must be a URL" }).optional()),
    PROVIDER_API_KEY: optionalText,
    REDIS_URL: optionalText
      .refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
        error: "must be a redis:// or rediss:// URL",
      })
      .transform((v) => v ?? "redis://127.0.0.1:6379"),
    REDIS_SENTINELS: addressList("sentinel-1:26379,sentinel-2:26379"),
    REDIS_SENTINEL_MASTER: optionalText.refine(
      (v) => v === undefined || /^[A-Za-z0-9._-]{1,100}$/.test(v),
      { error: "must be the master's name as the sentinels know it (letters, digits, . _ -)" },
    ),
    REDIS_CLUSTER_NODES: addressList("redis-0:6379,redis-1:6379"),
    APPROVALS_CHANNEL: optionalText.refine((v) => v === undefined || isSlackChannelId(v), {
      error: "must be a Slack channel ID (C… or G…)",
    }),
    APPROVERS: idList,
    APPROVAL_POLICY: optionalText,
    REQUESTERS: idList,
    SPEND_VIEWERS: idList,
    APPROVE_CONFIRM_FROM: optionalText
      .refine(
        (v) => v === undefined || (/^\d{1,12}(\.\d{1,2})?$/.test(v) && Number.isFinite(Number(v))),
        {
          error: "must be a monthly amount, a number such as 1000 or 2500.50 (0: always ask)",
        },
      )
      .transform((v) => (v === undefined ? DEFAULT_APPROVE_CONFIRM_FROM : Number(v))),
    ALLOW_SELF_APPROVAL: optionalText.pipe(booleanText.optional()).transform((v) => v ?? false),
    ORDER_UPDATES: optionalText
      .pipe(
        z.enum(ORDER_UPDATES, { error: `must be one of ${ORDER_UPDATES.join(", ")}` }).optional(),
      )
      .transform((v) => v ?? "channel"),
    SANDBOX_PORT: portSetting(4010),
    WORKERS: optionalText.pipe(booleanText.optional()).transform((v) => v ?? true),
    PRICE_CURRENCY: optionalText
      .transform((v) => v?.toUpperCase())
      .refine((v) => v === undefined || isCurrencyCode(v), {
        error: "must be an ISO 4217 currency code such as USD, EUR or GBP",
      })
      .transform((v) => v ?? DEFAULT_CURRENCY),
    LOG_LEVEL: optionalText.pipe(
      z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
    ),
    PARTNER_REMINDER_AFTER_DAYS: optionalText
      .refine((v) => v === undefined || (/^\d{1,3}$/.test(v) && Number(v) >= 1), {
        error: "must be a whole number of days from 1 to 999",
      })
      .transform((v) => (v === undefined ? DEFAULT_PARTNER_REMINDER_AFTER_DAYS : Number(v))),
  })
  .superRefine((env, ctx) => {
    if (env.PROVIDER_BASE_URL && !env.PROVIDER_API_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["PROVIDER_API_KEY"],
        message: "is required when PROVIDER_BASE_URL is set",
      });
    }
    if (env.REDIS_SENTINELS && !env.REDIS_SENTINEL_MASTER) {
      ctx.addIssue({
        code: "custom",
        path: ["REDIS_SENTINEL_MASTER"],
        message: "is required when REDIS_SENTINELS is set",
      });
    }
    if (env.REDIS_SENTINEL_MASTER && !env.REDIS_SENTINELS) {
      ctx.addIssue({
        code: "custom",
        path: ["REDIS_SENTINELS"],
        message: "is required when REDIS_SENTINEL_MASTER is set",
      });
    }
    if (env.REDIS_SENTINELS && env.REDIS_CLUSTER_NODES) {
      ctx.addIssue({
        code: "custom",
        path: ["REDIS_CLUSTER_NODES"],
        message:
          "must not be set with REDIS_SENTINELS: Redis is either behind Sentinel or a cluster",
      });
    }
    // A cluster has one database: REDIS_URL gives it only a password (and rediss:// for TLS).
    if (env.REDIS_CLUSTER_NODES && redisDatabase(env.REDIS_URL) !== 0) {
      ctx.addIssue({
        code: "custom",
        path: ["REDIS_URL"],
        message: "must name no database other than 0 with REDIS_CLUSTER_NODES (a cluster has one)",
      });
    }
    const slackConfigured = Boolean(env.SLACK_BOT_TOKEN || env.SLACK_APP_TOKEN);
    if (slackConfigured && !env.SLACK_BOT_TOKEN) {
      ctx.addIssue({
        code: "custom",
        path: ["SLACK_BOT_TOKEN"],
        message: "is required when SLACK_APP_TOKEN is set",
      });
    }
    if (env.SLACK_BOT_TOKEN && !env.SLACK_APP_TOKEN && !env.SLACK_SIGNING_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["SLACK_SIGNING_SECRET"],
        message: "is required in HTTP mode (set it, or set SLACK_APP_TOKEN for Socket Mode)",
      });
    }
  });

export type Environment = z.output<typeof environmentSchema>;

export interface Config {
  slack:
    | { mode: "playground" }
    | { mode: "http"; botToken: string; signingSecret: string; apiUrl?: string }
    | {
        mode: "socket";
        botToken: string;
        appToken: string;
        signingSecret?: string;
        apiUrl?: string;
      };
  /** HTTP mode: a body to /slack/events above this is refused with 413 before it is read. */
  slackMaxBodyBytes: number;
  port: number;
  provider: { kind: "sandbox" } | { kind: "remote"; baseUrl: string; apiKey: string };
  /**
   * REDIS_URL: where Redis is in the single topology; with Sentinel or a cluster only its
   * password, user and database count.
   */
  redisUrl: string;
  /** Where Redis is: one host, a master behind Sentinel, or a cluster (src/redis/topology.ts). */
  redis: RedisTopologyConfig;
  approvals: {
    channel?: string;
    approvers: string[];
    /** The spend-aware policy from APPROVAL_POLICY; absent: one approval from `approvers`. */
    policy?: ApprovalPolicy;
    requesters: string[];
    allowSelfApproval: boolean;
    /**
     * SPEND_VIEWERS: who may see the team's spend, the ledger and the full audit besides the
     * approvers and the policy's finance group (src/approvals/moneyAccess.ts).
     */
    spendViewers: string[];
    /** APPROVE_CONFIRM_FROM: Approve asks for confirmation from this monthly amount. */
    approveConfirmFrom: number;
  };
  /**
   * Where a request's card (its state, updated in place, and a thread of its steps) is posted:
   * the channel it was asked in, the requester's DM, or nowhere (the approvals channel and the
   * requester's DMs always get everything).
   */
  orderUpdates: OrderUpdates;
  sandboxPort: number;
  /** Run the background workers inside the bot process (false when `npm run worker` runs them). */
  workers: boolean;
  logLevel: string;
  /**
   * The ISO 4217 code every amount is labelled with (PRICE_CURRENCY). The provider returns no
   * currency and exposes none for the account, so it is configured; default USD.
   */
  currency: string;
  /** PARTNER_REMINDER_AFTER_DAYS: days a layer 2 waits on a partner before weekly reminders. */
  partnerReminderAfterDays?: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Configuration is not valid (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n${problems
        .map((problem) => `  - ${problem}`)
        .join("\n")}`,
    );
    this.name = "ConfigError";
  }
}

/** Reads and validates the environment. Throws ConfigError listing every problem at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(env);
  // Name the variable and the rule, never the value: a value may be a secret.
  const problems = parsed.success
    ? []
    : parsed.error.issues.map(
        (issue) => `${issue.path.join(".") || "environment"} ${issue.message}`,
      );
  const policy = readApprovalPolicy(env, problems);
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const slack: Config["slack"] = e.SLACK_APP_TOKEN
    ? {
        mode: "socket",
        botToken: e.SLACK_BOT_TOKEN!,
        appToken: e.SLACK_APP_TOKEN,
        signingSecret: e.SLACK_SIGNING_SECRET,
        apiUrl: e.SLACK_API_URL,
      }
    : e.SLACK_BOT_TOKEN
      ? {
          mode: "http",
          botToken: e.SLACK_BOT_TOKEN,
          signingSecret: e.SLACK_SIGNING_SECRET!,
          apiUrl: e.SLACK_API_URL,
        }
      : { mode: "playground" };
  return {
    slack,
    slackMaxBodyBytes: e.SLACK_MAX_BODY_BYTES,
    port: e.PORT,
    provider: e.PROVIDER_BASE_URL
      ? { kind: "remote", baseUrl: e.PROVIDER_BASE_URL, apiKey: e.PROVIDER_API_KEY! }
      : { kind: "sandbox" },
    redisUrl: e.REDIS_URL,
    redis: redisTopologyConfig(e),
    approvals: {
      channel: e.APPROVALS_CHANNEL,
      approvers: e.APPROVERS,
      ...(policy ? { policy } : {}),
      requesters: e.REQUESTERS,
      allowSelfApproval: e.ALLOW_SELF_APPROVAL,
      spendViewers: e.SPEND_VIEWERS,
      approveConfirmFrom: e.APPROVE_CONFIRM_FROM,
    },
    orderUpdates: e.ORDER_UPDATES,
    sandboxPort: e.SANDBOX_PORT,
    workers: e.WORKERS,
    logLevel: e.LOG_LEVEL ?? "info",
    currency: e.PRICE_CURRENCY,
    partnerReminderAfterDays: e.PARTNER_REMINDER_AFTER_DAYS,
  };
}

function redisTopologyConfig(e: Environment): RedisTopologyConfig {
  if (e.REDIS_SENTINELS && e.REDIS_SENTINEL_MASTER) {
    return {
      mode: "sentinel",
      url: e.REDIS_URL,
      sentinels: e.REDIS_SENTINELS,
      masterName: e.REDIS_SENTINEL_MASTER,
    };
  }
  if (e.REDIS_CLUSTER_NODES)
    return { mode: "cluster", url: e.REDIS_URL, nodes: e.REDIS_CLUSTER_NODES };
  return { mode: "single", url: e.REDIS_URL };
}

/**
 * The policy file named by APPROVAL_POLICY, read and checked now so that a mistake stops
 * start-up with the other problems (each one: where in the file, and what is wrong).
 */
function readApprovalPolicy(
  env: NodeJS.ProcessEnv,
  problems: string[],
): ApprovalPolicy | undefined {
  const path = env.APPROVAL_POLICY?.trim();
  if (!path) return undefined;
  if ((env.APPROVERS ?? "").trim() !== "") {
    problems.push(
      "APPROVERS must not be set with APPROVAL_POLICY: the policy file names who approves (its groups and rules)",
    );
  }
  const loaded = loadApprovalPolicy(path);
  if (loaded.ok) return loaded.policy;
  // The path is not a secret, and says which file to fix.
  for (const problem of loaded.problems) problems.push(`APPROVAL_POLICY (${path}) ${problem}`);
  return undefined;
}

/**
 * Every secret value of a configuration: the provider API key, the Slack bot token, signing
 * secret and app token, and a password in REDIS_URL. Every entry point gives these to its
 * logger and to the provider client, which replace them wherever they appear (a provider or a
 * library may echo one in an error text), not only under known key names.
 */
export function configuredSecrets(config: Config): string[] {
  const { slack, provider } = config;
  const values = [
    provider.kind === "remote" ? provider.apiKey : undefined,
    slack.mode !== "playground" ? slack.botToken : undefined,
    slack.mode !== "playground" ? slack.signingSecret : undefined,
    slack.mode === "socket" ? slack.appToken : undefined,
    redisPassword(config.redisUrl),
  ];
  return [...new Set(values.filter((v): v is string => typeof v === "string" && v !== ""))];
}

/** The database a Redis URL names (`/2`), 0 when none or unreadable. */
function redisDatabase(url: string): number {
  try {
    const path = new URL(url).pathname.replace(/^\//, "");
    return path === "" ? 0 : Number(path);
  } catch {
    return 0;
  }
}

function redisPassword(url: string): string | undefined {
  try {
    const password = new URL(url).password;
    return password === "" ? undefined : decodeURIComponent(password);
  } catch {
    return undefined;
  }
}
