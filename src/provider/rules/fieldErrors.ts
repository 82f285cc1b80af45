// Turning a rule's ZodError into Slack's `response_action: "errors"` map, so every request
// family's issues reach the modal field they name in one way.
import type { z } from "zod";

/** Key used by `fieldErrors` for issues about the whole body rather than one field. */
export const ROOT_FIELD = "_";

/**
 * Maps a ZodError to {field path joined with "." → first message}, for Slack's
 * `response_action: "errors"`. Unknown keys are reported under each key's own path; issues
 * about the whole body go under ROOT_FIELD.
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (path: readonly PropertyKey[], message: string) => {
    const key = path.length === 0 ? ROOT_FIELD : path.map((p) => String(p)).join(".");
    if (!(key in out)) out[key] = message;
  };
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const k of issue.keys) put([...issue.path, k], issue.message);
    } else {
      put(issue.path, issue.message);
    }
  }
  return out;
}
