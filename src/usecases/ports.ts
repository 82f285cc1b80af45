import { z } from "zod";
import { type PageInfo, paginate } from "../domain/paging.js";
import type { Logger } from "../log.js";
import type { Port, PortCapabilities, ProviderApi } from "../provider/api.js";
import { isProviderError } from "../provider/errors.js";
import type { IdentityLookup } from "../provider/identity.js";

/** The company's ports, and one port in full with its IO-D capability. */

export type PortDeps = { provider: ProviderApi; identity: IdentityLookup; logger: Logger };

export interface PageRequest {
  /** Zero-based page. */
  page: number;
  pageSize: number;
}

export interface PortPage {
  ports: Port[];
  page: PageInfo;
}

/**
 * A provider record id as a person pastes it. Most ids are 24 characters and some are UUIDs
 * (docs/provider/provider-api.md, Conventions); anything with spaces, slashes or punctuation is a typo.
 */
export const recordId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/);

export type IdCheck = { ok: true; id: string } | { ok: false; problem: "missing" | "malformed" };

/** The id from a command's arguments: exactly one word of the id's characters. */
export function parseRecordId(args: readonly string[]): IdCheck {
  if (args.length === 0 || args.every((a) => a.trim() === "")) {
    return { ok: false, problem: "missing" };
  }
  if (args.length > 1) return { ok: false, problem: "malformed" };
  const parsed = recordId.safeParse(args[0]);
  return parsed.success ? { ok: true, id: parsed.data } : { ok: false, problem: "malformed" };
}

/** True for the provider's "no such record" answers. */
export function isNotFound(error: unknown): boolean {
  return isProviderError(error) && error.kind === "http" && error.httpStatus === 404;
}

/** The company's ports that are not deleted, one page; the provider returns them all at once. */
export async function listCompanyPorts(deps: PortDeps, request: PageRequest): Promise<PortPage> {
  const { companyUsername } = await deps.identity();
  const ports = await deps.provider.listPorts(companyUsername, { deleted: false });
  const { items, page } = paginate(ports, request.page, request.pageSize);
  return { ports: items, page };
}

export type PortLookup =
  | {
      found: true;
      port: Port;
      /** Undefined when the port info call failed: the capability is then unknown. */
      capabilities: PortCapabilities | undefined;
    }
  | { found: false; portId: string };

/**
 * One port and its capabilities, read in parallel. The capabilities only add the IO-D line, so
 * their failure is logged and the port is still shown.
 */
export async function lookUpPort(deps: PortDeps, portId: string): Promise<PortLookup> {
  const { companyUsername, companyId } = await deps.identity();
  const [port, info] = await Promise.allSettled([
    deps.provider.getPort(companyUsername, portId),
    deps.provider.getPortInfo(companyId, portId),
  ]);
  if (port.status === "rejected") {
    if (isNotFound(port.reason)) return { found: false, portId };
    throw port.reason;
  }
  if (info.status === "rejected") {
    deps.logger.warn(
      { err: info.reason, portId },
      "port info unavailable: IO-D capability unknown",
    );
  }
  return {
    found: true,
    port: port.value,
    capabilities: info.status === "fulfilled" ? info.value : undefined,
  };
}
