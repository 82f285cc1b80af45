// The provider's OpenAPI document, loaded once per process: it routes requests to operations
// and validates them (openapi-backend, ajv).
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Document, OpenAPIBackend } from "openapi-backend";
import { parse } from "yaml";

/**
 * Where the document is: beside the sources (`src/sandbox` → `openapi/`), beside a build
 * (`dist/src/sandbox` → `openapi/`), or under the working directory.
 */
export function defaultOpenapiPath(): string {
  const candidates = [
    fileURLToPath(new URL("../../openapi/provider.yaml", import.meta.url)),
    fileURLToPath(new URL("../../../openapi/provider.yaml", import.meta.url)),
    join(process.cwd(), "openapi", "provider.yaml"),
  ];
  return candidates.find((path) => existsSync(path)) ?? candidates[0]!;
}

const loaded = new Map<string, Promise<OpenAPIBackend>>();

/**
 * Loads and compiles the document. `quick` mode is required: openapi-backend checks documents
 * against the OpenAPI 3.0 meta-schema, which rejects a valid 3.1 document (type arrays,
 * `examples`), and on that failure it would skip dereferencing. The document is linted by
 * redocly instead; its schemas (3.1 `type: [x, "null"]`, const, if/then) compile with ajv.
 */
export function loadProviderApi(path: string = defaultOpenapiPath()): Promise<OpenAPIBackend> {
  let api = loaded.get(path);
  if (!api) {
    api = (async () => {
      const document = parse(await readFile(path, "utf8")) as Document;
      const backend = new OpenAPIBackend({
        definition: document,
        quick: true,
        strict: false,
        validate: true,
        coerceTypes: true,
        ignoreTrailingSlashes: true,
      });
      await backend.init();
      // Compile now so a schema that ajv cannot compile fails at start-up, not mid-request.
      backend.validator.preCompileRequestValidators();
      return backend;
    })();
    loaded.set(path, api);
    api.catch(() => loaded.delete(path));
  }
  return api;
}
