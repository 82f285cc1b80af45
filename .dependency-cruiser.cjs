/**
 * The layers of docs/ARCHITECTURE.md ("Layers and the import rules"), as rules that fail
 * `npm run lint` (`npm run lint:deps`). Each rule's comment is the message a wrong import gets.
 *
 *   src/slack, src/workers (adapters) ──▶ src/usecases, src/orders (use cases) ──▶ src/provider, src/approvals, src/jobs
 *         │                                     │                                      │
 *         └────────────▶ views/ ◀───────────────┘ (src/orders: message text, its       │
 *      (src/slack only)    │                       placement job's and tracker's too)  ▼
 *                          └─────────────────────────────────────────────────▶ src/domain (pure rules)
 *
 * Type-only imports (`import type`, erased at build) of another layer's types are allowed where
 * a rule says so (views take the shapes the use cases hand them); a value import is a runtime
 * arrow and follows the rules strictly. Everyone may `import type` the provider's generated
 * contract (src/provider/generated), which has no runtime at all.
 */

/** Imports that cost nothing at runtime: `import type`, `import { type X }` only. */
const TYPE_ONLY = ["type-only", "type-import"];

module.exports = {
  forbidden: [
    {
      name: "views-only-views-and-domain",
      comment:
        "views/ (pure Block Kit builders) may import only views/ and src/domain at runtime (plus `import type` of the shapes other layers hand them): move the rule or constant it needs into src/domain.",
      severity: "error",
      from: { path: "^views/" },
      to: {
        path: "^src/",
        pathNot: "^src/domain/",
        dependencyTypesNot: TYPE_ONLY,
      },
    },
    {
      name: "views-never-know-slack",
      comment:
        "views/ may not import src/slack (the Bolt adapter), not even a type: the command table is src/domain/commands.ts; views build blocks from plain data.",
      severity: "error",
      from: { path: "^views/" },
      to: { path: "^src/(slack|playground|standin)/" },
    },
    {
      name: "shared-views-never-import-a-feature's-views",
      comment:
        "A view at views/ itself is a piece several features share (blocks, format, inputs…); it may not import a feature's own views (views/<feature>/): move what both need into the shared view, or the shared view into the feature's folder.",
      severity: "error",
      from: { path: "^views/[^/]+\\.ts$" },
      to: { path: "^views/[^/]+/" },
    },
    {
      name: "domain-imports-nothing-of-ours",
      comment:
        "src/domain holds the pure rules every layer shares: it may import only src/domain (and `import type` of the provider's generated contract), never views/, src/slack, src/usecases, src/orders, src/provider, src/approvals or src/jobs.",
      severity: "error",
      from: { path: "^src/domain/" },
      to: {
        path: "^(src|views)/",
        pathNot: ["^src/domain/", "^src/provider/generated/"],
      },
    },
    {
      name: "domain-is-pure",
      comment:
        "src/domain is pure: no node: built-ins, no I/O libraries (Slack, Redis, BullMQ, HTTP, logging) at runtime.",
      severity: "error",
      from: { path: "^src/domain/" },
      to: {
        dependencyTypes: ["core", "npm", "npm-dev", "npm-optional", "npm-peer", "npm-no-pkg"],
        dependencyTypesNot: TYPE_ONLY,
      },
    },
    {
      name: "infrastructure-never-imports-adapter-or-use-cases",
      comment:
        "src/provider, src/approvals and src/jobs (infrastructure and core) may not import src/slack or src/workers (the adapters), src/usecases or src/orders (the use cases): a job that performs a lifecycle step lives in src/orders (placement/, tracking/), built on src/jobs' queues (`partOptions`), and src/workers runs it, calling down; src/jobs only enqueues.",
      severity: "error",
      from: { path: "^src/(provider|approvals|jobs)/" },
      to: { path: "^src/(slack|usecases|orders|workers)/" },
    },
    {
      name: "only-the-entry-point-starts-the-workers",
      comment:
        "src/workers (the BullMQ workers: a front door, like a Slack listener) calls down into src/orders and src/jobs; nothing below or beside it may import it, not even a type (issue 29: no hop upward). Only the composition root src/bot.ts (and tests) start it: a part that needs something run is run by src/workers, a part that needs a worker's type takes its own.",
      severity: "error",
      from: { path: "^(src|views)/", pathNot: ["^src/workers/", "^src/bot\\.ts$"] },
      to: { path: "^src/workers/" },
    },
    {
      name: "workers-never-import-slack-or-views",
      comment:
        "src/workers is an adapter beside src/slack, not on top of it: it may not import src/slack (the Bolt adapter) nor views/ at runtime. Words come from src/orders (the renderer, the App Home publisher, the tracker's and placement's messages), which it calls.",
      severity: "error",
      from: { path: "^src/workers/" },
      to: { path: "^(src/slack/|views/)", dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "provider-and-approvals-never-import-views",
      comment:
        "src/provider and src/approvals return data and refusals as values, never message text: they may not import views/.",
      severity: "error",
      from: { path: "^src/(provider|approvals)/" },
      to: { path: "^views/" },
    },
    {
      name: "jobs-never-import-views",
      comment:
        "src/jobs is machinery (queues, the notifier's outbox, schedules, the producers of quotes and draft reminders) and words nothing: a job that says something in its own words (the tracker's thread lines, a placement's outcome) lives with the lifecycle in src/orders, which may import views/. So src/jobs may not import views/ at runtime (import type is fine).",
      severity: "error",
      from: { path: "^src/jobs/" },
      to: { path: "^views/", dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "use-cases-never-import-slack",
      comment:
        "src/usecases and src/orders (use cases) take plain inputs and may not import src/slack (the Bolt adapter): the adapter calls them, never the other way.",
      severity: "error",
      from: { path: "^src/(usecases|orders)/" },
      to: { path: "^src/slack/" },
    },
    {
      name: "slack-never-touches-the-approvals-store",
      comment:
        "src/slack (the adapter) may not import src/approvals at runtime: every step on a request (submit, approve, reject, withdraw, retry, place again, mark failed, look up again, stop tracking), who may decide, the policy rule and the name reservation go through the lifecycle API (src/orders/requests.ts, `ctx.requests` or the feature's `requests`). `import type` of the record's shapes is fine.",
      severity: "error",
      from: { path: "^src/slack/" },
      to: { path: "^src/approvals/", dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "usecases-never-import-views",
      comment:
        "src/usecases (use cases) return data and plain words; the adapter (src/slack) and src/orders render them with views/. Shared formatting, paging and LOA rules are in src/domain.",
      severity: "error",
      from: { path: "^src/usecases/" },
      to: { path: "^views/", dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "slack-kit-and-plumbing-never-import-features",
      comment:
        "src/slack/kit (the patterns every listener uses) and the adapter's plumbing may not import a feature folder: a piece two features need goes into the kit. Only src/slack/listeners.ts and src/slack/commandTable.ts wire the features.",
      severity: "error",
      from: {
        path: "^src/slack/",
        pathNot: [
          "^src/slack/features/",
          "^src/slack/listeners\\.ts$",
          "^src/slack/commandTable\\.ts$",
        ],
      },
      to: { path: "^src/slack/features/" },
    },
    {
      name: "features-never-import-each-other",
      comment:
        "A Slack feature folder (src/slack/features/<feature>/) may not import another feature's: what two features share belongs in src/slack/kit (or below, in a use case or src/domain).",
      severity: "error",
      from: { path: "^src/slack/features/([^/]+)/" },
      to: { path: "^src/slack/features/", pathNot: "^src/slack/features/$1/" },
    },
    {
      name: "local-only-parts-stay-at-the-edge",
      comment:
        "src/playground, src/standin and src/sandbox (the local Slack, its page and the provider simulator) are wired only by the entry point src/bot.ts (and tests): no layer may import them.",
      severity: "error",
      from: {
        path: "^(src|views)/",
        pathNot: ["^src/bot\\.ts$", "^src/(playground|standin|sandbox)/"],
      },
      to: { path: "^src/(playground|standin|sandbox)/" },
    },
    {
      name: "no-circular",
      comment:
        "Imports form no cycle (type-only imports aside): a cycle means two modules each need the other; move the shared piece into a module both import.",
      severity: "error",
      from: { path: "^(src|views)/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: TYPE_ONLY } },
    },
    {
      name: "not-to-unresolvable",
      comment: "An import that does not resolve to a file or a package.",
      severity: "error",
      from: { path: "^(src|views)/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/provider/generated/|^src/playground/static/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".js", ".d.ts", ".json"],
    },
    moduleSystems: ["es6", "cjs"],
  },
};
