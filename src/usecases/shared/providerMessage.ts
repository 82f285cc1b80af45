// The provider's words for a failure, to put in a field error or an options hint: a
// ProviderError carries them as `userMessage`; a missed deadline is "took too long"; anything
// else gets a generic phrase. Callers that word a deadline their own way test for it first.
import { DeadlineExceededError, providerWords } from "../../domain/errors.js";

/** What the provider said went wrong, "took too long", or "the provider did not answer". */
export function userMessageOf(error: unknown): string {
  if (error instanceof DeadlineExceededError) return "the provider took too long to answer";
  return providerWords(error)?.userMessage ?? "the provider did not answer";
}
