import { type PageInfo, paginate } from "../domain/paging.js";
import type { CloudRouter, ProviderApi } from "../provider/api.js";
import type { IdentityLookup } from "../provider/identity.js";
import type { PageRequest } from "./ports.js";

/** The company's cloud routers (the provider's L3VPNs) with their sites and peers. */

export type RouterDeps = { provider: ProviderApi; identity: IdentityLookup };

export interface RouterPage {
  routers: CloudRouter[];
  page: PageInfo;
}

/** One page; the provider returns every router at once, so paging is ours. */
export async function listRouters(deps: RouterDeps, request: PageRequest): Promise<RouterPage> {
  const { companyId } = await deps.identity();
  const routers = await deps.provider.listCloudRouters(companyId);
  const { items, page } = paginate(routers, request.page, request.pageSize);
  return { routers: items, page };
}
