import { withDeadline } from "../domain/deadline.js";
import type { Logger } from "../log.js";
import type { ProviderApi } from "../provider/api.js";
import type { IdentityLookup } from "../provider/identity.js";
import { firstServiceIds } from "./services.js";

/**
 * Real ids for help's examples, so `/connect port <id>` can be copied as it stands. Only what
 * is cheap to know: the company's first port, and the first layer 2 connection and IO-D service
 * its ports carry (one provider call, kept for a while). An order id
 * is not among them: the provider has no list of port orders.
 */
export interface ExampleIds {
  portId?: string;
  /** A layer 2 connection and an IO-D service on those ports, from the same call. */
  connectionId?: string;
  serviceId?: string;
}

export type ExampleIdDeps = { provider: ProviderApi; identity: IdentityLookup; logger: Logger } & {
  /** The cache's clock (tests). */
  now?: () => number;
};

/** Help must not wait on the provider: past this, help shows the placeholder. */
export const EXAMPLE_IDS_DEADLINE_MS = 1_000;
/** Ports change rarely; a port that went away only makes an example answer "no port". */
export const EXAMPLE_IDS_CACHE_MS = 10 * 60_000;

// Keyed by the provider client, like the metro names in dcf.ts: two bots in one process (tests)
// never see each other's ports.
const cache = new WeakMap<ProviderApi, { at: number; ids: ExampleIds }>();

/** The ids help can show; none when the provider is slow or failing (help works without them). */
export async function exampleIds(
  deps: ExampleIdDeps,
  deadlineMs = EXAMPLE_IDS_DEADLINE_MS,
): Promise<ExampleIds> {
  const now = deps.now?.() ?? Date.now();
  const cached = cache.get(deps.provider);
  if (cached && now - cached.at < EXAMPLE_IDS_CACHE_MS) return cached.ids;
  try {
    const ids = await withDeadline(deadlineMs, async (signal) => {
      const { companyUsername } = await deps.identity();
      const ports = await deps.provider.listPorts(companyUsername, { deleted: false, signal });
      const first = ports.find((p) => typeof p?.id === "string" && p.id !== "");
      return { ...(first ? { portId: first.id } : {}), ...firstServiceIds(ports) };
    });
    cache.set(deps.provider, { at: now, ids });
    return ids;
  } catch (error) {
    deps.logger.warn({ err: error }, "help: no example ids, showing placeholders");
    return {};
  }
}
