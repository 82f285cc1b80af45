/**
 * Why a Slack user group (or Slack's directory) could not be read, in one shape for every layer:
 * src/slackDirectory.ts classifies Slack's errors into it, src/approvals decides with it (deny
 * by default, saying why) and words what the person is told. Pure.
 */

/**
 * Why a user group's members could not be read, classified where Slack is called
 * (src/slackDirectory.ts):
 * `missing` — Slack has no such group (or it is disabled): nobody decides through it until the
 * configuration names one that exists, so "try again" would never help; `not-allowed` — the
 * bot may not read user groups (a scope or token problem an admin fixes); `unreachable` —
 * Slack did not answer or asked to slow down: trying again later may work.
 */
export interface GroupLookupFailure {
  groupId: string;
  kind: "missing" | "not-allowed" | "unreachable";
  /** Slack's error code, or the transport's message: for the log and the person. */
  detail: string;
}

/** Thrown by a `GroupMembers` that knows why it failed; any other error reads as unreachable. */
export class GroupLookupError extends Error {
  constructor(readonly failure: GroupLookupFailure) {
    super(`user group ${failure.groupId} could not be read: ${failure.detail}`);
    this.name = "GroupLookupError";
  }
}

/** The failure a thrown error stands for. */
export function groupLookupFailure(groupId: string, error: unknown): GroupLookupFailure {
  if (error instanceof GroupLookupError) return error.failure;
  return {
    groupId,
    kind: "unreachable",
    detail: error instanceof Error ? error.message : String(error),
  };
}

/**
 * What a person is told when a user group could not be read, in the words of `what` ("accept
 * your decision"): the real cause, and "try again" only where trying again can help.
 */
export function groupLookupMessage(failure: GroupLookupFailure, what: string): string {
  const group = `\`${failure.groupId}\``;
  // Slack's error code, or a transport's message: never let it form a mention or a link.
  const detail = failure.detail.replace(/[`<>&]/g, (c) =>
    c === "`" ? "'" : c === "<" ? "‹" : c === ">" ? "›" : "+",
  );
  const slack = `Slack answered \`${detail}\``;
  switch (failure.kind) {
    case "missing":
      return `I can't ${what}: the configuration names the user group ${group}, which does not exist in this Slack workspace (${slack}), so nobody can be checked through it. Trying again will not help: an admin must fix APPROVAL_POLICY or APPROVERS (\`/connect policy\` shows what it names).`;
    case "not-allowed":
      return `I can't ${what}: I may not read the user group ${group} (${slack}). Trying again will not help: an admin must give the app the usergroups:read scope and reinstall it.`;
    case "unreachable":
      return `I couldn't reach Slack to read the user group ${group} (${slack}), so I can't ${what} just now; nothing was changed. Please try again in a minute.`;
  }
}

/** Thrown by a `Directory` when Slack cannot be asked at all (unreachable, no permission). */
export class DirectoryUnavailableError extends Error {
  constructor(readonly failure: Omit<GroupLookupFailure, "groupId"> & { method: string }) {
    super(`Slack's ${failure.method} could not be read: ${failure.detail}`);
    this.name = "DirectoryUnavailableError";
  }
}
