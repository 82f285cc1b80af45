// The IO-D form's loader: the ports with free capacity, whether the chosen port is IO-D enabled,
// and for DYNAMIC routing the suggested private ASN and the verified public ASNs. The
// submission runs it again (submission.ts), never trusting what the modal showed.

import { remainingCapacity } from "../../domain/catalog/connections.js";
import { type IodAsnChoice, offeredAsnChoices } from "../../domain/catalog/iod.js";
import type { CallOptions } from "../../provider/api.js";
import type { Identity } from "../../provider/identity.js";
import { isDeletedPort, loaded, problemOf } from "../shared/orderForms.js";
import {
  type IodCapability,
  type IodDeps,
  type IodForm,
  type IodModalData,
  iodValues,
  verifiedPublicAsns,
} from "./form.js";

async function capabilityOf(
  deps: IodDeps,
  identity: Identity,
  portId: string,
  opts: CallOptions,
): Promise<IodCapability> {
  try {
    const info = await deps.provider.getPortInfo(identity.companyId, portId, opts);
    return info.capabilities?.giaStandardV1 === true
      ? { kind: "enabled" }
      : { kind: "not-enabled" };
  } catch (error) {
    return { kind: "unknown", problem: problemOf(error, "the port's capabilities") };
  }
}

/**
 * Whether each listed port is IO-D enabled: one port-info read each, at once (a company has a
 * handful of ports with free capacity). A read that fails is an "unknown" capability.
 */
async function capabilitiesOf(
  deps: IodDeps,
  identity: Identity,
  ports: readonly { id?: string }[],
  opts: CallOptions,
): Promise<Map<string, IodCapability>> {
  const ids = ports.map((p) => p.id).filter((id): id is string => typeof id === "string");
  const read = await Promise.all(ids.map((id) => capabilityOf(deps, identity, id, opts)));
  return new Map(ids.map((id, i) => [id, read[i] as IodCapability]));
}

/** The ASN choice in effect: the one made, else the first one offered. */
function effectiveAsnChoice(
  chosen: IodAsnChoice | undefined,
  offered: readonly IodAsnChoice[],
): IodAsnChoice | undefined {
  return chosen && offered.includes(chosen) ? chosen : offered[0];
}

/**
 * Reads what the IO-D modal shows: the ports with free capacity; for a chosen port whether it
 * is IO-D enabled (capabilities.giaStandardV1); for DYNAMIC routing the suggested private ASN
 * and the verified public ASNs. Failed parts become problems to show.
 */
export async function loadIodModal(
  deps: IodDeps,
  form: IodForm,
  opts: CallOptions = {},
): Promise<IodModalData> {
  const values = iodValues(form);
  const identity = await deps.identity();
  const signal = opts.signal ? { signal: opts.signal } : {};
  const dynamic = values.routing === "DYNAMIC";
  const [ports, suggestedAsn, publicAsns] = await Promise.all([
    loaded("your ports", async () =>
      (
        await deps.provider.listPorts(identity.companyUsername, { deleted: false, ...signal })
      ).filter(
        (p) => typeof p?.id === "string" && !isDeletedPort(p) && (remainingCapacity(p) ?? 0) > 0,
      ),
    ),
    dynamic
      ? deps.provider.suggestPrivateAsn(signal).then(
          (asn) => asn,
          (error: unknown) => {
            deps.logger.warn({ err: error }, "IO-D form: private ASN suggestion unavailable");
            return undefined;
          },
        )
      : Promise.resolve(undefined),
    dynamic
      ? loaded("your verified ASNs", async () =>
          verifiedPublicAsns(await deps.provider.listVerifiedAsns(identity.companyId, signal)),
        )
      : Promise.resolve(undefined),
  ]);
  const port = ports.ok ? ports.value.find((p) => p.id === values.accessPortId) : undefined;
  // Every listed port's capability, read once each: the list is ordered and marked by it, and
  // the chosen port's is shown under the field.
  const capabilities = ports.ok
    ? await capabilitiesOf(deps, identity, ports.value, signal)
    : new Map<string, IodCapability>();
  const capability = values.accessPortId ? capabilities.get(values.accessPortId) : undefined;
  const enabled = new Map<string, boolean>();
  for (const [id, known] of capabilities) {
    if (known.kind !== "unknown") enabled.set(id, known.kind === "enabled");
  }
  const data: IodModalData = {
    values,
    identity,
    ports,
    ...(ports.ok ? { enabled } : {}),
    ...(port ? { port } : {}),
    // A capability is only worth showing for a port of the list.
    ...(port && capability ? { capability } : {}),
    ...(suggestedAsn !== undefined ? { suggestedAsn } : {}),
    ...(publicAsns ? { publicAsns } : {}),
  };
  if (dynamic) {
    const asnChoice = effectiveAsnChoice(values.asnChoice, offeredAsnChoices(data));
    if (asnChoice) data.asnChoice = asnChoice;
  }
  return data;
}
