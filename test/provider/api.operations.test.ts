// The document and the client cover the same operations: every operationId of
// openapi/provider.yaml has its method and path in the client's table and a ProviderApi method,
// and the client names nothing the document lacks.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createLogger } from "../../src/log.js";
import { createProviderApi, OPERATION_METHODS } from "../../src/provider/api.js";
import { createProviderClient } from "../../src/provider/client.js";
import { OPERATIONS, type OperationId, operationIdFor } from "../../src/provider/operations.js";
import { memoryLogStream } from "../support/recordingServer.js";

const HTTP_METHODS = ["get", "put", "post", "patch", "delete", "head", "options", "trace"];

interface DocOperation {
  operationId: string;
  method: string;
  path: string;
  deprecated: boolean;
}

function documentOperations(): DocOperation[] {
  const file = fileURLToPath(new URL("../../openapi/provider.yaml", import.meta.url));
  const doc = parse(readFileSync(file, "utf8")) as {
    paths: Record<string, Record<string, { operationId?: string; deprecated?: boolean }>>;
  };
  const out: DocOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      if (!op.operationId) throw new Error(`${method} ${path} has no operationId`);
      out.push({ operationId: op.operationId, method, path, deprecated: op.deprecated === true });
    }
  }
  return out;
}

const doc = documentOperations();
const api = createProviderApi(
  createProviderClient({
    baseUrl: "http://127.0.0.1:9",
    apiKey: "unused-key-for-shape-only",
    logger: createLogger({ destination: memoryLogStream() }),
  }),
);

describe("operations: document ⇔ client", () => {
  it("the document has 32 operations with unique operationIds", () => {
    expect(doc).toHaveLength(32);
    expect(new Set(doc.map((o) => o.operationId)).size).toBe(32);
  });

  it("the client's operation table is exactly the document's operations", () => {
    expect(Object.keys(OPERATIONS).sort()).toEqual(doc.map((o) => o.operationId).sort());
    for (const op of doc) {
      const entry = OPERATIONS[op.operationId as OperationId];
      expect({ id: op.operationId, method: entry.method, path: entry.path }).toEqual({
        id: op.operationId,
        method: op.method,
        path: op.path,
      });
      expect(entry.subject).toMatch(/^the /);
    }
  });

  it("operationIdFor finds every operation from its method and path template, and nothing else", () => {
    for (const op of doc) {
      expect(operationIdFor(op.method.toUpperCase(), op.path)).toBe(op.operationId);
      expect(operationIdFor(op.method, op.path)).toBe(op.operationId);
    }
    expect(operationIdFor("GET", "/api/company/{companyUsername}/ports/orders")).toBeUndefined();
    expect(operationIdFor("GET", "/api/company/acme/ports")).toBeUndefined();
  });

  it("every operation of the document has a ProviderApi method, and every method one operation", () => {
    expect(Object.keys(OPERATION_METHODS).sort()).toEqual(doc.map((o) => o.operationId).sort());
    const listed = Object.values(OPERATION_METHODS).flat();
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(Object.keys(api).sort());
    for (const method of listed) {
      expect(typeof api[method]).toBe("function");
    }
  });

  it("only the document's deprecated operations are behind the deprecated methods", () => {
    const deprecated = doc.filter((o) => o.deprecated).map((o) => o.operationId);
    expect(deprecated.sort()).toEqual(["getEdgePrice", "listEdgeOrdersV1"]);
    // Their methods carry @deprecated in the ProviderApi interface (editors strike them out).
    const source = readFileSync(
      fileURLToPath(new URL("../../src/provider/api.ts", import.meta.url)),
      "utf8",
    );
    const methods = deprecated.flatMap((id) => OPERATION_METHODS[id as OperationId]);
    expect(methods.sort()).toEqual(["getEdgePriceSync", "listEdgeOrdersV1"]);
    // "@deprecated", then anything but the end of that comment, then the method's declaration.
    const marked = (method: string) =>
      new RegExp(`@deprecated(?:(?!\\*/)[\\s\\S])*\\*/\\s*${method}\\(`);
    for (const method of methods) {
      expect(source).toMatch(marked(method));
    }
    const others = Object.keys(api).filter((m) => !methods.includes(m as never));
    for (const method of others) {
      expect(source).not.toMatch(marked(method));
    }
  });
});
