// A step's data center: what a person typed into Workflow Builder (a username, name, facility
// code, city or airport code — what `/connect price port` accepts), found the way the inline
// price finds it (resolveDcf). A step has no form to pick from, so several matches are an error
// that names them, and the run history says which to type.
import type { CallOptions, Dcf, ProviderApi } from "../../provider/api.js";
import { dcfWords } from "../portOrder/submission.js";
import { resolveDcf } from "../pricing/dcfResolution.js";

/** At most this many candidates are named in an error. */
const NAMED_MAX = 5;

export type StepDcf = { ok: true; dcf: Dcf } | { ok: false; error: string };

export async function findStepDcf(
  provider: ProviderApi,
  query: string,
  options: { speedMbps?: number; what?: string } & CallOptions = {},
): Promise<StepDcf> {
  const what = options.what ?? "data center";
  const found = await resolveDcf(provider, query, {
    ...(options.speedMbps !== undefined ? { speedMbps: options.speedMbps } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (found.kind === "one") return { ok: true, dcf: found.dcf };
  if (found.kind === "none" || (found.kind === "several" && found.partial)) {
    return {
      ok: false,
      error: `Unknown ${what} "${query}": no data center has that username, name, code or city`,
    };
  }
  const names = found.candidates.slice(0, NAMED_MAX).map(dcfWords);
  const more = found.candidates.length > NAMED_MAX ? ", …" : "";
  return {
    ok: false,
    error: `"${query}" matches ${found.candidates.length} data centers (${names.join(", ")}${more}): give the ${what} by its username`,
  };
}
