// The data center fields of the two price forms: a select's value read as a DCF id, then that
// DCF looked up within the submission deadline, a field error when that is not possible.
import { z } from "zod";
import { withDeadline } from "../../domain/deadline.js";
import { DeadlineExceededError } from "../../domain/errors.js";
import type { Dcf } from "../../provider/api.js";
import type { DcfDirectory } from "../shared/dcfDirectory.js";
import { isDeleted, parseDcfRef } from "../shared/dcfFacts.js";
import { OPTION_VALUE_MAX, optionValue } from "../shared/formChecks.js";
import { userMessageOf } from "../shared/providerMessage.js";

/** A data center select: `missing` when none was chosen, `invalid` when it is not one we offered. */
export const dcfChoice = (missing: string, invalid: string) =>
  optionValue(missing, invalid).transform((value, ctx) => {
    const id = parseDcfRef(value);
    if (id === undefined) {
      ctx.addIssue({ code: "custom", message: invalid });
      return z.NEVER;
    }
    return id;
  });

/** A data center reference as the form sent it, when it reads as one (else the shape rule says why). */
export function dcfIdOf(value: unknown): string | undefined {
  return typeof value === "string" && value.length <= OPTION_VALUE_MAX
    ? parseDcfRef(value)
    : undefined;
}

/** Looks a DCF up within the submission deadline; a field error when that is not possible. */
export async function lookUpForForm(
  directory: DcfDirectory,
  id: string,
  deadlineMs: number,
): Promise<{ dcf: Dcf } | { error: string }> {
  try {
    const dcf = await withDeadline(deadlineMs, (signal) => directory.byId(id, { signal }));
    if (!dcf || isDeleted(dcf)) return { error: "Pick a data center from the list" };
    return { dcf };
  } catch (error) {
    if (error instanceof DeadlineExceededError) {
      return { error: "The provider took too long to confirm this data center; submit again" };
    }
    return { error: `Couldn't check this data center: ${userMessageOf(error)}` };
  }
}
