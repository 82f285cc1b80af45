// The sandbox routes with patterns compiled once (src/sandbox/openapi.ts); openapi-backend's
// own router must choose exactly the same operation for every request it could be given.
import { readFileSync } from "node:fs";
import { type Document, OpenAPIBackend } from "openapi-backend";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { defaultOpenapiPath, loadProviderApi } from "../../src/sandbox/openapi.js";

const METHODS = ["GET", "PUT", "POST", "PATCH", "DELETE", "HEAD", "OPTIONS"];

describe("sandbox routing", () => {
  let fast: OpenAPIBackend;
  let reference: OpenAPIBackend;

  beforeAll(async () => {
    fast = await loadProviderApi();
    reference = new OpenAPIBackend({
      definition: parse(readFileSync(defaultOpenapiPath(), "utf8")) as Document,
      quick: true,
      strict: false,
      validate: true,
      coerceTypes: true,
      ignoreTrailingSlashes: true,
    });
    await reference.init();
  });

  /** Concrete paths for every template of the document, and some that match none. */
  function samplePaths(): string[] {
    const templates = reference.router.getOperations().map((op) => op.path);
    const concrete = templates.flatMap((t) => [
      t.replace(/\{[^}]+\}/g, "abc-123"),
      t.replace(/\{[^}]+\}/g, "42"),
      `${t.replace(/\{[^}]+\}/g, "x.y")}/`,
      `  ${t.replace(/\{[^}]+\}/g, "z")}//?q=1`,
      t.replace(/\{[^}]+\}/g, "a/b"),
      `${t.replace(/\{[^}]+\}/g, "v")}/extra`,
      t,
    ]);
    return [
      ...new Set([
        ...concrete,
        "/",
        "",
        "/nope",
        "api/auth/token",
        "/api/company/acme/ports/orders/",
        "/API/AUTH/TOKEN",
      ]),
    ];
  }

  it("matches the same operation as openapi-backend for every method and path", () => {
    let compared = 0;
    for (const path of samplePaths()) {
      for (const method of METHODS) {
        for (const m of [method, method.toLowerCase()]) {
          const req = { method: m, path, headers: {} };
          const expected = reference.matchOperation(req);
          const actual = fast.matchOperation(req);
          expect(
            actual?.operationId ?? null,
            `${m} ${JSON.stringify(path)}: ${expected?.operationId}`,
          ).toBe(expected?.operationId ?? null);
          if (expected) expect(actual).toEqual(expected);
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("still lists, finds and strictly matches operations as the library does", () => {
    expect(fast.router.getOperations()).toEqual(reference.router.getOperations());
    expect(fast.router.getOperation("getPortOrder")).toEqual(
      reference.router.getOperation("getPortOrder"),
    );
    expect(() =>
      fast.router.matchOperation({ method: "GET", path: "/nope", headers: {} }, true),
    ).toThrow(/404/);
    expect(() =>
      fast.router.matchOperation({ method: "TRACE", path: "/api/auth/token", headers: {} }, true),
    ).toThrow(/405/);
  });
});
