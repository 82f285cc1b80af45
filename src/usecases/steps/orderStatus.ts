// `order_status`: what the provider says of a port order, layer 2 connection or IO-D service, by
// id — the reads `/connect order` and `/connect l2|iod <id>` use (orderLookup.ts, services.ts),
// behind one small function, as a step's outputs.

import type { ApprovalSettings } from "../../approvals/index.js";
import { formatMbps } from "../../domain/units.js";
import type { Logger } from "../../log.js";
import type { ProviderApi } from "../../provider/api.js";
import type { IdentityLookup } from "../../provider/identity.js";
import { lookUpPortOrder } from "../orderLookup.js";
import { lookUpService } from "../services.js";
import { userMessageOf } from "../shared/providerMessage.js";
import type { OrderStatusInputs } from "./inputs.js";
import type { StepAnswer } from "./pricing.js";

export type OrderStatusOutputs = {
  status: string;
  summary: string;
  /** ISO 8601; the look-up's time when the provider says no time of its own. */
  updated_at: string;
};

type Deps = {
  provider: ProviderApi;
  identity: IdentityLookup;
  logger: Logger;
  approvals: ApprovalSettings;
};

export async function orderStatusStep(
  deps: Deps,
  inputs: OrderStatusInputs,
  now: () => Date = () => new Date(),
): Promise<StepAnswer<OrderStatusOutputs>> {
  const id = inputs.order_id;
  try {
    const order = await lookUpPortOrder(deps, id);
    if (order.found) {
      const o = order.order;
      const status = o.status ?? "unknown";
      const place = o.dataCenterFacility?.name ?? o.dataCenterFacilityId;
      const loa = o.loaStatus ? `, LOA ${o.loaStatus}` : "";
      return {
        ok: true,
        outputs: {
          status,
          summary: `Port order ${o.id}${o.portName ? ` "${o.portName}"` : ""}${place ? ` at ${place}` : ""}: ${status}${loa}`,
          updated_at: isoOr(o.updatedAt ?? o.createdAt, now),
        },
      };
    }
    const service = await lookUpService(deps, id);
    if (service.found) {
      const s = service.service;
      const status = s.status ?? "unknown";
      const kind = s.kind === "iod" ? "IO-D service" : "Layer 2 connection";
      const speed = s.speedMbps !== undefined ? `, ${formatMbps(s.speedMbps)}` : "";
      return {
        ok: true,
        outputs: {
          status,
          summary: `${kind} ${s.id}${s.name ? ` "${s.name}"` : ""}${speed}: ${status}`,
          updated_at: isoOr(s.createdAt, now),
        },
      };
    }
  } catch (error) {
    return { ok: false, error: `Couldn't look up ${id}: ${userMessageOf(error)}` };
  }
  return {
    ok: false,
    error: `No port order, layer 2 connection or IO-D service has the id "${id}"`,
  };
}

function isoOr(value: unknown, now: () => Date): string {
  if (typeof value === "string" || typeof value === "number") {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime()) && date.getTime() > 0) return date.toISOString();
  }
  return now().toISOString();
}
