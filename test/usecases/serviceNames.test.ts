import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/types.js";
import { describeService } from "../../src/usecases/services.js";

/**
 * A business-to-business layer 2 end is ids in the provider's records; the names are in what
 * the requester chose, the request's summary (issue 32, item 17).
 */
const request: ApprovalRequest = {
  id: "apr_abcdefghijklmnop",
  kind: "layer2",
  title: "b2b-1",
  summary: [
    { label: "Destination company", value: "globex-cloud (another company)" },
    { label: "Destination metro", value: "London (LON) · metro-lon" },
    { label: "Destination data center", value: "Globex LD5 (dcf-ld5)" },
    { label: "Destination region", value: "Europe (eu-1)" },
  ],
  call: {
    operation: "createLayer2Connection",
    pathParams: { companyUsername: "acme" },
    body: {
      name: "b2b-1",
      portId: "p-1",
      destCompany: "globex-cloud",
      destDcf: "dcf-ld5",
      destMetroId: "metro-lon",
      destRegionId: "eu-1",
    },
  },
  requester: { userId: "U0REQUEST1", channelId: "C0GENERAL1" },
  slack: { approvalChannel: "C0APPROVALS", approvalTs: "1700000000.000100" },
  sandbox: true,
  status: "placed",
  attempts: 1,
  history: [],
  result: { providerId: "c-1", status: "CREATING", record: {} },
  createdAt: "2026-11-12T13:05:00.000Z",
  updatedAt: "2026-11-12T13:05:00.000Z",
};

describe("describeService: the partner end of a business-to-business connection", () => {
  const entry = { id: "c-1", name: "b2b-1", type: "LAYER2", status: "PENDING" };

  it("names the data center, metro and region the request gave", () => {
    const detail = describeService("c-1", entry, [], [], request);
    expect(detail.partner).toMatchObject({
      company: "globex-cloud",
      dcfId: "dcf-ld5",
      dcfName: "Globex LD5",
      metroName: "London (LON)",
      regionName: "Europe",
    });
  });

  it("keeps the ids alone when no request names them", () => {
    const detail = describeService("c-1", entry, [], [], {
      ...request,
      summary: [{ label: "Destination region", value: "eu-1" }],
    });
    expect(detail.partner?.dcfName).toBeUndefined();
    expect(detail.partner?.regionName).toBeUndefined();
    expect(detail.partner?.regionId).toBe("eu-1");
  });
});
