import { SANDBOX_LABEL } from "../../views/blocks.js";
import { MESSAGE_METHODS } from "./fallbackText.js";

/**
 * In sandbox mode every message and every view says so (README: "every sandbox message carries
 * the sandbox label"), so nobody mistakes a simulated order for a real one. The label must be in
 * the blocks: Slack does not show the fallback text when a message has blocks, and a message
 * without blocks has no place for it.
 */

/** The view methods whose `view` a person sees (modals and App Home). */
const VIEW_METHODS: ReadonlySet<string> = new Set([
  "views.open",
  "views.push",
  "views.update",
  "views.publish",
]);

/** Whether any string in the blocks carries the label. */
function blocksCarryLabel(blocks: unknown): boolean {
  if (Array.isArray(blocks)) return blocks.some(blocksCarryLabel);
  if (typeof blocks !== "object" || blocks === null) return false;
  return Object.values(blocks).some((value) =>
    typeof value === "string" ? value.includes(SANDBOX_LABEL) : blocksCarryLabel(value),
  );
}

export interface SandboxLabelProblem {
  method: string;
  /** What the message or view says (its text, or its title), to find it. */
  what: string;
}

function viewOf(args: Record<string, unknown>): Record<string, unknown> | undefined {
  const view = typeof args.view === "string" ? safeJson(args.view) : args.view;
  return typeof view === "object" && view !== null ? (view as Record<string, unknown>) : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The problem with one recorded Slack call from a bot running against the sandbox, if any. */
export function sandboxLabelProblem(call: {
  method: string;
  args: Record<string, unknown>;
}): SandboxLabelProblem | undefined {
  if (VIEW_METHODS.has(call.method)) {
    const view = viewOf(call.args);
    if (!view || blocksCarryLabel(view.blocks)) return undefined;
    const title = (view.title as { text?: unknown } | undefined)?.text;
    return { method: call.method, what: `${String(view.type)} ${String(title ?? "")}`.trim() };
  }
  if (!MESSAGE_METHODS.has(call.method)) return undefined;
  const { text, blocks } = call.args;
  // Deleting a message (response_url `delete_original`) shows nothing.
  if (call.args.delete_original === true || call.args.delete_original === "true") return undefined;
  if (text === undefined && blocks === undefined) return undefined;
  if (blocksCarryLabel(blocks)) return undefined;
  return { method: call.method, what: String(text ?? "(blocks only)") };
}

export function describeSandboxLabelProblems(problems: readonly SandboxLabelProblem[]): string {
  return [
    `${problems.length} sandbox-mode message(s) or view(s) without the sandbox label in their blocks:`,
    ...problems.map((p) => `- ${p.method}: ${JSON.stringify(p.what.slice(0, 300))}`),
  ].join("\n");
}
