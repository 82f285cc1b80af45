// A `request_layer2_connection` step's destination given as another company's data center
// (business-to-business): one line of text, "<company username> @ <data center>", turned into
// the four choices the `/connect l2` form makes by hand (company, metro, data center, region).
// The data center is found as every step finds one (findStepDcf: username, name, facility code,
// city or airport code); its metro and region come from the provider's metro capabilities, as
// the form lists them. The form's own checks (checkLayer2Submission) then run on the result —
// the company's existence, layer 2 in that metro, capacity, price — so nothing here is trusted
// more than a form's values.
import type { MetroCapability } from "../../provider/api.js";
import { companyMetros } from "../dcf.js";
import { COMPANY_USERNAME, type Layer2Deps } from "../layer2/form.js";
import { metroRegions } from "../layer2/load.js";
import { userMessageOf } from "../shared/providerMessage.js";
import { findStepDcf } from "./dataCenters.js";

/** Separates the company from the data center in a business-to-business destination. */
export const B2B_SEPARATOR = "@";

export interface B2bDestination {
  destCompany: string;
  destMetro: string;
  destDcf: string;
  destRegion: string;
}

export type B2bResolution = { ok: true; value: B2bDestination } | { ok: false; error: string };

/** "<company> @ <data center>" split in two, or undefined when the text has no separator. */
export function splitB2bDestination(
  text: string,
): { company: string; dataCenter: string } | undefined {
  const at = text.indexOf(B2B_SEPARATOR);
  if (at < 0) return undefined;
  return { company: text.slice(0, at).trim(), dataCenter: text.slice(at + 1).trim() };
}

export async function resolveB2bDestination(
  deps: Pick<Layer2Deps, "provider" | "identity" | "logger">,
  parts: { company: string; dataCenter: string },
): Promise<B2bResolution> {
  const { company, dataCenter } = parts;
  if (!COMPANY_USERNAME.test(company)) {
    return {
      ok: false,
      error: `Destination: "${company}" is not a company username (letters, digits, dots, dashes); write the destination as <company username> @ <data center>`,
    };
  }
  if (dataCenter === "") {
    return {
      ok: false,
      error: `Destination: no data center after "${company} @"; write the destination as <company username> @ <data center>`,
    };
  }
  const found = await findStepDcf(deps.provider, dataCenter, { what: "destination data center" });
  if (!found.ok) return { ok: false, error: `Destination: ${found.error}` };
  const dcf = found.dcf;
  const dcfName = dcf.name ?? dcf.username ?? dcf.id;
  const metroId = dcf.dataCenterFacility?.metroId;
  if (!metroId) {
    return {
      ok: false,
      error: `Destination: the provider doesn't say which metro ${dcfName} is in`,
    };
  }
  let metros: MetroCapability[];
  try {
    const { companyUsername } = await deps.identity();
    metros = (await companyMetros(deps, companyUsername)) as MetroCapability[];
  } catch (error) {
    return { ok: false, error: `Couldn't read the layer 2 metros: ${userMessageOf(error)}` };
  }
  const metro = metros.find((m) => m?.id === metroId && m.deleted !== true);
  if (metro?.capabilities?.layer2 !== true) {
    return {
      ok: false,
      error: `Destination: ${dcfName} is in ${metro?.name ?? `metro ${metroId}`}, where layer 2 is not offered`,
    };
  }
  const regions = metroRegions(metro, [dcf]);
  // Several regions in one metro: the data center's own costbook regions say which is its.
  const own = new Set(dcf.costbookLocation?.regions?.map((r) => r?.id) ?? []);
  const candidates = regions.length > 1 ? regions.filter((r) => own.has(r.id)) : regions;
  if (candidates.length !== 1) {
    const named = regions.map((r) => r.name ?? r.id).join(", ");
    return {
      ok: false,
      error: `Destination: the provider doesn't say which region of ${metro.name ?? metroId} ${dcfName} is in (${named || "none listed"}); request this connection with /connect l2`,
    };
  }
  return {
    ok: true,
    value: {
      destCompany: company,
      destMetro: metro.id,
      destDcf: dcf.id,
      destRegion: candidates[0]!.id,
    },
  };
}
