import type { Logger } from "../log.js";
import type { Asn, ProviderApi } from "../provider/api.js";
import type { IdentityLookup } from "../provider/identity.js";

/** The suggested private ASN and the company's verified ASNs, public and private. */

export type AsnDeps = { provider: ProviderApi; identity: IdentityLookup; logger: Logger };

export interface AsnOverview {
  /** Undefined when the suggestion call failed: the verified list is still worth showing. */
  suggestedPrivateAsn: number | undefined;
  /** Public ones first, then private; each record once. */
  verified: Asn[];
}

/** Three independent reads in parallel; only the verified lists are needed for an answer. */
export async function lookUpAsns(deps: AsnDeps): Promise<AsnOverview> {
  const suggestion = deps.provider.suggestPrivateAsn().then(
    (asn) => asn,
    (error: unknown) => {
      deps.logger.warn({ err: error }, "private ASN suggestion unavailable");
      return undefined;
    },
  );
  const { companyId } = await deps.identity();
  const [publicAsns, privateAsns, suggested] = await Promise.all([
    deps.provider.listVerifiedAsns(companyId),
    deps.provider.listVerifiedAsns(companyId, { private: true }),
    suggestion,
  ]);
  const seen = new Set<string>();
  const verified = [...publicAsns, ...privateAsns].filter((asn) => {
    const key = asn.id ?? `asn:${asn.asn}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { suggestedPrivateAsn: suggested, verified };
}
