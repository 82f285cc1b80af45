// The layer 2 form's loader: everything the modal shows for the values it holds now (own
// ports, the destination port, layer 2 metros, their data centers and regions, the price).
// The submission runs it again (submission.ts), never trusting what the modal showed.
import { createHash } from "node:crypto";
import { isReady } from "../../domain/catalog/dcfs.js";
import type {
  CallOptions,
  ConnectionPriceConfig,
  Dcf,
  MetroCapability,
  Port,
  PricingResult,
} from "../../provider/api.js";
import { isProviderError } from "../../provider/errors.js";
import type { Identity } from "../../provider/identity.js";
import { checkCompanyExists } from "../companyCheck.js";
import { companyMetros } from "../dcf.js";
import { recordId } from "../ports.js";
import { isDeleted as isDeletedDcf } from "../shared/dcfFacts.js";
import { isDeletedPort, type Loaded, loaded, problemOf } from "../shared/orderForms.js";
import { priceConnection } from "../shared/prices.js";
import { bandwidthProblem } from "./check.js";
import {
  COMPANY_USERNAME,
  type Layer2Deps,
  type Layer2Form,
  type Layer2ModalData,
  type Layer2Quote,
  layer2Values,
  type Region,
  wholeNumber,
} from "./form.js";

// ---------------------------------------------------------------------------------------------
// Ports, metros, data centers

export function portDcfId(port: Port): string | undefined {
  return port.dataCenterFacilityId ?? port.dataCenterFacility?.id ?? undefined;
}

function dcfMetroId(dcf: Dcf): string | undefined {
  return dcf.dataCenterFacility?.metroId;
}

/** A metro's regions, named from its data centers' costbook locations where they say. */
export function metroRegions(metro: MetroCapability, dcfs: readonly Dcf[]): Region[] {
  const names = new Map<string, string>();
  for (const dcf of dcfs) {
    for (const region of dcf.costbookLocation?.regions ?? []) {
      if (region?.id && region.name) names.set(region.id, region.name);
    }
  }
  const ids = Array.isArray(metro.regionIds)
    ? metro.regionIds.filter((id): id is string => typeof id === "string" && id !== "")
    : [];
  return [...new Set(ids)].map((id) => {
    const name = names.get(id);
    return name ? { id, name } : { id };
  });
}

function isNotFound(error: unknown): boolean {
  return isProviderError(error) && error.kind === "http" && error.httpStatus === 404;
}

async function lookUpDestination(
  deps: Layer2Deps,
  identity: Identity,
  portId: string,
  opts: CallOptions,
): Promise<Loaded<Port>> {
  if (!recordId.safeParse(portId).success) {
    return {
      ok: false,
      problem: "That is not a port id: paste the id (letters and digits) of the destination port.",
    };
  }
  try {
    const port = await deps.provider.getPort(identity.companyUsername, portId, opts);
    if (isDeletedPort(port)) return { ok: false, problem: `Port ${portId} is deleted.` };
    return { ok: true, value: port };
  } catch (error) {
    if (isNotFound(error)) return { ok: false, problem: `No port has the id ${portId}.` };
    return { ok: false, problem: problemOf(error, "the destination port") };
  }
}

// ---------------------------------------------------------------------------------------------
// The price

function quoteKey(config: ConnectionPriceConfig, result: PricingResult): string {
  return createHash("sha256")
    .update(JSON.stringify([config, result.price ?? null, result.basicMonthlyAmount ?? null]))
    .digest("base64url")
    .slice(0, 22);
}

async function quote(
  deps: Layer2Deps,
  config: ConnectionPriceConfig,
  names: { src?: string; dest?: string },
  opts: CallOptions,
): Promise<Loaded<Layer2Quote>> {
  return loaded("the price", async () => {
    const result = await priceConnection(deps.provider, config, opts);
    return {
      config,
      result,
      srcDcf: { id: config.srcDcf, ...(names.src ? { name: names.src } : {}) },
      destDcf: { id: config.destDcf, ...(names.dest ? { name: names.dest } : {}) },
      key: quoteKey(config, result),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The loader

/**
 * Reads what the modal shows for these values: own ports always; for port-to-port the typed
 * destination port; for business-to-business the layer 2 metros, the chosen metro's data
 * centers and regions; then the price once its inputs are complete. A failed part becomes a
 * problem shown where that part would be; only the identity look-up can throw.
 */
export async function loadLayer2Modal(
  deps: Layer2Deps,
  form: Layer2Form,
  opts: CallOptions = {},
): Promise<Layer2ModalData> {
  const values = layer2Values(form);
  const identity = await deps.identity();
  const signal = opts.signal ? { signal: opts.signal } : {};
  const b2b = values.mode === "business-to-business";
  const metroId = values.destMetroId;

  const company =
    b2b && values.destCompany && COMPANY_USERNAME.test(values.destCompany)
      ? values.destCompany
      : undefined;
  const [ports, destination, metros, dcfs, companyCheck] = await Promise.all([
    loaded("your ports", async () =>
      (
        await deps.provider.listPorts(identity.companyUsername, { deleted: false, ...signal })
      ).filter((p) => typeof p?.id === "string" && !isDeletedPort(p)),
    ),
    !b2b && values.destPortId
      ? lookUpDestination(deps, identity, values.destPortId, signal)
      : Promise.resolve(undefined),
    b2b
      ? loaded("the metros", async () => {
          // The cached metro list is the metro capabilities call's answer (src/usecases/dcf.ts).
          const all = (await companyMetros(deps, identity.companyUsername)) as MetroCapability[];
          const live = all.filter((m) => typeof m?.id === "string" && m.deleted !== true);
          return {
            layer2: live.filter((m) => m.capabilities?.layer2 === true),
            without: live.filter((m) => m.capabilities?.layer2 !== true),
          };
        })
      : Promise.resolve(undefined),
    b2b && metroId
      ? loaded("the data centers", async () =>
          (
            await deps.provider.listDcfs(
              { where: { "dataCenterFacility.metroId": metroId } },
              signal,
            )
          ).filter(
            // The filter's operators are not shown: whatever came back, keep the metro's own.
            (d) =>
              typeof d?.id === "string" &&
              dcfMetroId(d) === metroId &&
              !isDeletedDcf(d) &&
              isReady(d),
          ),
        )
      : Promise.resolve(undefined),
    company ? checkCompanyExists(deps.provider, company, signal) : Promise.resolve(undefined),
  ]);

  const source = ports.ok ? ports.value.find((p) => p.id === values.sourcePortId) : undefined;
  const metro =
    metros?.ok && metroId ? metros.value.layer2.find((m) => m.id === metroId) : undefined;
  const destDcf =
    dcfs?.ok && values.destDcfId ? dcfs.value.find((d) => d.id === values.destDcfId) : undefined;
  const regions = metro ? metroRegions(metro, dcfs?.ok ? dcfs.value : []) : undefined;

  const data: Layer2ModalData = {
    values,
    identity,
    ports,
    ...(source ? { source } : {}),
    ...(destination ? { destination } : {}),
    ...(metros ? { metros } : {}),
    ...(metro ? { metro } : {}),
    ...(dcfs ? { dcfs } : {}),
    ...(destDcf ? { destDcf } : {}),
    ...(regions ? { regions } : {}),
    ...(company && companyCheck
      ? { destCompanyCheck: { username: company, result: companyCheck } }
      : {}),
  };

  // A bandwidth typed in is checked as the submission will (check.ts), so its problem is said
  // next to the field now and no price is asked for what the ports can't carry.
  const destPort = destination?.ok ? destination.value : undefined;
  const bandwidthWrong =
    values.bandwidth !== undefined
      ? bandwidthProblem(values.bandwidth, { source, destination: destPort })
      : undefined;
  if (bandwidthWrong) data.bandwidthProblem = bandwidthWrong;

  // The price needs both data centers, a bandwidth that fits, the class of service and the term.
  const srcDcf = source ? portDcfId(source) : undefined;
  const dest = b2b
    ? destDcf
      ? { id: destDcf.id, name: destDcf.name }
      : undefined
    : destPort
      ? { id: portDcfId(destPort), name: destPort.dataCenterFacility?.name }
      : undefined;
  const bandwidth = wholeNumber(values.bandwidth);
  const duration = wholeNumber(values.duration);
  if (srcDcf && dest?.id && bandwidth !== undefined && !bandwidthWrong && duration !== undefined) {
    data.price = await quote(
      deps,
      {
        srcDcf,
        destDcf: dest.id,
        bandwidth,
        classOfService: values.classOfService as ConnectionPriceConfig["classOfService"],
        duration: { value: duration, unit: values.durationUnit },
      },
      { src: source?.dataCenterFacility?.name, dest: dest.name },
      signal,
    );
  }
  return data;
}
