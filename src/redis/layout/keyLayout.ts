/**
 * Where each part of the bot keeps its keys under the bot's prefix (`connect` in production), in
 * the current layout (LAYOUT_VERSION, migrations.ts). src/bot.ts hands each part its own; the
 * parts add the rest (src/redis/layout/README.md has the full table).
 */
export interface KeyLayout {
  /** The approvals store's prefix, used as given (src/approvals/keys.ts adds no separator). */
  approvals: string;
  /** The order lifecycle's notes and tracking progress. */
  orders: string;
  /** The background jobs: BullMQ's queues and the jobs' own state, each tagged by the jobs
   * (stateKey and queuePrefix in src/jobs/queues.ts). */
  jobs: string;
  /** App Home's pages. */
  home: string;
  /** The replay guard's key prefix (it adds `:slack:seen:<sha256>`). */
  replay: string;
  /** The layout's own keys: its version, the migration lock, the history of migrations. */
  layout: string;
}

export function keyLayout(prefix: string): KeyLayout {
  return {
    approvals: `${prefix}:{approvals}:`,
    orders: `${prefix}:{orders}`,
    jobs: `${prefix}:jobs`,
    home: `${prefix}:{home}`,
    replay: `${prefix}:{replay}`,
    layout: `${prefix}:{layout}`,
  };
}
