// Whether a company username names a company at the provider. The provider has no company
// read; "reading a company's port details is publicly visible" (docs/provider/provider-api.md, Ports), so a
// company's port list is the look-up it allows: its 404 is "no such company", and any other
// failure leaves the question open (the request may still be made, and says so).
import type { CallOptions, ProviderApi } from "../provider/api.js";
import { ProviderError } from "../provider/errors.js";

export type CompanyCheck = "exists" | "not-found" | "unchecked";

export async function checkCompanyExists(
  provider: ProviderApi,
  username: string,
  opts: CallOptions = {},
): Promise<CompanyCheck> {
  try {
    await provider.listPorts(username, { deleted: false, ...opts });
    return "exists";
  } catch (error) {
    if (error instanceof ProviderError && error.httpStatus === 404) return "not-found";
    return "unchecked";
  }
}
