// The provider's words for a failure, to put in a field error or an options hint: a
// ProviderError carries them as `userMessage`; anything else gets a generic phrase.

/** What the provider said went wrong, or "the provider did not answer". */
export function userMessageOf(error: unknown): string {
  if (typeof error === "object" && error !== null && "userMessage" in error) {
    const message = (error as { userMessage: unknown }).userMessage;
    if (typeof message === "string") return message;
  }
  return "the provider did not answer";
}
