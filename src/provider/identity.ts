/** Who the bot acts as at the provider (from GET /api/auth/token). */
export interface Identity {
  userId: string;
  companyId: string;
  companyUsername: string;
  companyName?: string;
}

/** The provider identity, fetched once and shared (every company-scoped call needs it). */
export type IdentityLookup = () => Promise<Identity>;

/**
 * One answer of `load` shared for `ttlMs` by every caller, including callers that ask while it
 * is still on its way; a failure is not kept, so the next caller asks again. The provider's
 * whoami is asked this way, by commands (10 minutes) and by /healthz (seconds), because each
 * ask spends the same provider rate limit as a person's command.
 */
export function sharedAnswer<T>(load: () => Promise<T>, ttlMs: number): () => Promise<T> {
  let cached: { value: Promise<T>; at: number } | undefined;
  return () => {
    const now = Date.now();
    if (!cached || now - cached.at > ttlMs) {
      const value = load();
      cached = { value, at: now };
      value.catch(() => {
        if (cached?.value === value) cached = undefined;
      });
    }
    return cached.value;
  };
}
