// The provider's OpenAPI document, loaded once per process: it routes requests to operations
// and validates them (openapi-backend, ajv).
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Document, OpenAPIBackend, type OpenAPIRouter, type Request } from "openapi-backend";
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
      routeFromCompiledPaths(backend.router);
      // Compile now so a schema that ajv cannot compile fails at start-up, not mid-request.
      backend.validator.preCompileRequestValidators();
      return backend;
    })();
    loaded.set(path, api);
    api.catch(() => loaded.delete(path));
  }
  return api;
}

/** openapi-backend's path template → pattern: `{name}` is one segment, the rest literal. */
function templatePattern(path: string): RegExp {
  const literal = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `^${path
      .split(/\{[^}]+\}/)
      .map(literal)
      .join("[^/]+")}$`,
  );
}

/**
 * openapi-backend's router rebuilds its whole list of operations (with lodash) on every
 * `getOperations()` — twice per `matchOperation` — and compiles a RegExp per path template
 * per request: over a third of the sandbox's time under load. The document does not change
 * after `init()`, so the list is built once and matching uses patterns compiled once, by the
 * same rules in the same order: an exact path with the method first, then the templates that
 * match, most specific (longest literal part) first, the document's order among equals.
 * `strict` matching (which throws 404/405) and everything else stays the library's own.
 */
export function routeFromCompiledPaths(router: OpenAPIRouter): void {
  // Written for the root "/" (the sandbox sets none): every path is under it, none stripped.
  if (router.apiRoot !== "/") return;
  const operations = router.getOperations();
  router.getOperations = () => operations;
  const exact = new Map<string, typeof operations>();
  for (const op of operations) exact.set(op.path, [...(exact.get(op.path) ?? []), op]);
  const templates = operations
    .map((op, index) => ({
      op,
      index,
      pattern: templatePattern(op.path),
      specificity: op.path.replace(/\{.*?\}/g, "").length,
    }))
    .sort((a, b) => b.specificity - a.specificity || a.index - b.index);
  const libraryMatch = router.matchOperation.bind(router) as (
    req: Request,
    strict?: boolean,
  ) => ReturnType<OpenAPIRouter["matchOperation"]>;
  const match = (req: Request, strict?: boolean) => {
    if (strict) return libraryMatch(req, strict);
    const normalized = router.normalizeRequest(req);
    const path = router.normalizePath(normalized.path);
    const method = normalized.method;
    const found = exact.get(path)?.find((op) => op.method === method);
    if (found) return found;
    return templates.find((t) => t.op.method === method && t.pattern.test(path))?.op;
  };
  router.matchOperation = match as OpenAPIRouter["matchOperation"];
}
