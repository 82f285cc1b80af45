// Read-mostly operations: identity, DCFs, metros, pricing, ASNs and cloud routers.
import type { Company } from "../model.js";
import { presentMetroCapability } from "../present.js";
import { connectionPrice, type PricingContext, PricingError, portPrice } from "../pricing.js";
import type { SandboxState } from "../state.js";
import {
  applyFilter,
  badRequest,
  forbidden,
  intQuery,
  jsonQuery,
  notFound,
  type OperationHandler,
  type OperationRequest,
  ok,
} from "./types.js";

/** The company named in the path: 404 when unknown. */
export function companyFromPath(state: SandboxState, username: string | undefined): Company {
  const company = username === undefined ? undefined : state.companyByUsername(username);
  if (!company) throw notFound(`Company ${username ?? ""} not found`);
  return company;
}

/** The API user's own company named in the path: 404 when unknown, 403 when another's. */
export function ownCompanyByUsername(state: SandboxState, username: string | undefined): Company {
  const company = companyFromPath(state, username);
  if (company.id !== state.world.company.id) {
    throw forbidden(`The user is not a member of company ${company.username}`);
  }
  return company;
}

export function ownCompanyById(state: SandboxState, id: string | undefined): Company {
  const company = id === undefined ? undefined : state.companyById(id);
  if (!company) throw notFound(`Company ${id ?? ""} not found`);
  if (company.id !== state.world.company.id) {
    throw forbidden(`The user is not a member of company ${company.username}`);
  }
  return company;
}

const getAuthToken: OperationHandler = (_req, { state }) => {
  const user = state.world.apiUser;
  return ok({
    id: user.userId,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    companies: [state.world.company.record],
  });
};

/** Keys of `criteria` read as free text (its syntax is not shown by the spec). */
const CRITERIA_TEXT_KEYS = ["name", "text", "q", "query", "search", "keyword"];

function searchText(state: SandboxState, dcfId: string): string {
  const dcf = state.dcfById(dcfId)!;
  const metro = state.metroById(dcf.metroId);
  return [
    dcf.name,
    dcf.username,
    dcf.city,
    dcf.country,
    metro?.name ?? "",
    metro?.code ?? "",
    ...dcf.airportCodes,
  ]
    .join(" ")
    .toLowerCase();
}

const searchDataCenterFacilities: OperationHandler = (req, { state }) => {
  const criteria = jsonQuery(req.query, "criteria") ?? {};
  const terms: string[] = [];
  for (const key of CRITERIA_TEXT_KEYS) {
    const value = criteria[key];
    if (value === undefined) continue;
    if (typeof value !== "string") throw badRequest(`criteria.${key} must be text`);
    terms.push(...value.toLowerCase().split(/\s+/).filter(Boolean));
  }
  const matches = state.world.dcfs.filter((dcf) => {
    const text = searchText(state, dcf.id);
    return terms.every((t) => text.includes(t));
  });
  const page = intQuery(req.query, "page", 1);
  const pageSize = intQuery(req.query, "pageSize", 1);
  // Without page or pageSize every match is returned; with either, pages of 20 start at 1.
  const paged =
    page === undefined && pageSize === undefined
      ? matches
      : matches.slice(((page ?? 1) - 1) * (pageSize ?? 20), (page ?? 1) * (pageSize ?? 20));
  return ok(paged.map((dcf) => ({ ...dcf.record, products: dcf.products, isFollowing: false })));
};

const listDataCenterFacilities: OperationHandler = (req, { state }) => {
  const filter = jsonQuery(req.query, "filter");
  return ok(
    applyFilter(
      state.world.dcfs.map((d) => d.record),
      filter,
    ),
  );
};

export function pricingContext(state: SandboxState): PricingContext {
  return {
    dcfById: (id) => state.dcfById(id),
    regionById: (id) => state.regionById(id),
    layer2InMetro: (metroId) => state.metroById(metroId)?.layer2 ?? false,
    metroName: (metroId) => state.metroById(metroId)?.name ?? metroId,
    nowMs: state.nowMs(),
  };
}

type Row = Record<string, unknown>;

const calculatePricing: OperationHandler = (req, { state }) => {
  const body = req.body as Row;
  const ctx = pricingContext(state);
  try {
    if (Array.isArray(body.ports)) {
      const include = body.includeCrossConnect === true;
      const results = (body.ports as Row[]).map((p) =>
        portPrice(
          ctx,
          {
            dcf: String(p.dcf),
            speed: Number(p.speed),
            // The spec shows one sample naming the term unit `duration`: accept both.
            durationUnit: String(p.durationUnit ?? p.duration),
          },
          include,
        ),
      );
      return ok({ results });
    }
    const results = ((body.connections as Row[] | undefined) ?? []).map((c) => {
      const duration = c.duration as Row;
      return connectionPrice(ctx, {
        bandwidth: Number(c.bandwidth),
        classOfService: String(c.classOfService),
        duration: { value: Number(duration.value), unit: String(duration.unit) },
        srcDcf: String(c.srcDcf),
        destDcf: String(c.destDcf),
      });
    });
    return ok({ results });
  } catch (error) {
    if (error instanceof PricingError) throw badRequest(`Pricing: ${error.message}`);
    throw error;
  }
};

const listMetroCapabilities: OperationHandler = (req, { state }) => {
  companyFromPath(state, req.params.companyUsername);
  return ok({ results: state.world.metros.map(presentMetroCapability) });
};

const getPrivateAsnSuggestion: OperationHandler = (_req, { state }) =>
  ok({ asn: state.nextPrivateAsn() });

const listAsns: OperationHandler = (req: OperationRequest, { state }) => {
  const company = ownCompanyById(state, req.params.companyId);
  const filter = jsonQuery(req.query, "filter");
  return ok(
    applyFilter(
      state.world.asns.filter((a) => a.companyId === company.id),
      filter,
    ),
  );
};

const listCloudRouters: OperationHandler = (req, { state }) => {
  const company = ownCompanyById(state, req.params.companyId);
  return ok(state.world.cloudRouters.filter((r) => r.companyId === company.id));
};

export const catalogHandlers: Record<string, OperationHandler> = {
  getAuthToken,
  searchDataCenterFacilities,
  listDataCenterFacilities,
  calculatePricing,
  listMetroCapabilities,
  getPrivateAsnSuggestion,
  listAsns,
  listCloudRouters,
};
