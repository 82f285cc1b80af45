// Whether a company exists, asked the way the provider allows (its public port list), against the
// sandbox over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { createProviderApi, type ProviderApi } from "../../src/provider/api.js";
import { createProviderClient } from "../../src/provider/client.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { checkCompanyExists } from "../../src/usecases/companyCheck.js";
import { memoryLogStream } from "../support/recordingServer.js";

let sandbox: Sandbox;
let provider: ProviderApi;

beforeAll(async () => {
  sandbox = await startSandbox({});
  const logger = createLogger({ level: "silent", destination: memoryLogStream() });
  provider = createProviderApi(
    createProviderClient({ baseUrl: sandbox.url, apiKey: "k", logger, retry: { attempts: 1 } }),
  );
});
afterAll(() => sandbox.close());

describe("checkCompanyExists", () => {
  it("finds the seed's partner company and the bot's own, and not a misspelt one", async () => {
    expect(await checkCompanyExists(provider, "globex-cloud")).toBe("exists");
    expect(await checkCompanyExists(provider, "acme-networks")).toBe("exists");
    expect(await checkCompanyExists(provider, "globex-clowd")).toBe("not-found");
  });

  it("leaves it open when the look-up fails for another reason", async () => {
    sandbox.faults.add({ match: "GET /api/company/globex-cloud/ports", status: 500 });
    try {
      expect(await checkCompanyExists(provider, "globex-cloud")).toBe("unchecked");
    } finally {
      sandbox.faults.clear();
    }
  });
});
