import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Every document a comment cites resolves inside this repository: the provider's description and
// the design live in docs/ (docs/provider/, docs/DESIGN.md), never in a folder beside the repo.
// A path is read from the repository's root, or from the citing file's folder ("README.md beside
// this file", a path up from a test).

const ROOT = join(dirname(new URL(import.meta.url).pathname), "..");
const SCANNED = ["src", "views", "test", "scripts"];
const SOURCE = /\.(ts|js|mjs|cjs|sh)$/;
const CITED_MD = /[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "generated") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(name)) out.push(path);
  }
  return out;
}

function citations(): Array<{ file: string; cited: string }> {
  const found: Array<{ file: string; cited: string }> = [];
  for (const folder of SCANNED) {
    for (const file of sourceFiles(join(ROOT, folder))) {
      for (const cited of readFileSync(file, "utf8").match(CITED_MD) ?? []) {
        found.push({ file, cited });
      }
    }
  }
  return found;
}

function resolves(file: string, cited: string): boolean {
  return existsSync(join(ROOT, cited)) || existsSync(join(dirname(file), cited));
}

describe("documents cited in the code", () => {
  const cited = citations();

  it("finds the citations (the scan itself works)", () => {
    const names = new Set(cited.map((c) => c.cited));
    expect(names).toContain("docs/provider/provider-api.md");
    expect(names).toContain("docs/DESIGN.md");
  });

  it("every *.md a comment of src/, views/, test/ or scripts/ cites exists in the repository", () => {
    const missing = cited
      .filter(({ file, cited }) => !resolves(file, cited))
      .map(({ file, cited }) => `${relative(ROOT, file)} cites ${cited}`);
    expect(missing).toEqual([]);
  });

  it("nothing cites a document outside the repository", () => {
    const outside = cited
      .filter(({ cited }) => /(^|\/)shared\//.test(cited) || cited.startsWith("/"))
      .map(({ file, cited }) => `${relative(ROOT, file)} cites ${cited}`);
    expect(outside).toEqual([]);
  });
});

// Issue 21 moved most files: a path of this repository named in a comment, a README or a
// document must still lead to a file or folder (a stale one sends a newcomer nowhere).
const REPO_PATH =
  /\b(?:src|views|test|docs|scripts|bench|openapi)\/[A-Za-z0-9_./<>-]*[A-Za-z0-9_/-]/g;
const CHECKED_EXT = /\.(ts|js|md|yml|yaml|cjs|json|css|html|sh)$/;

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...markdownFiles(path));
    else if (name.endsWith(".md")) out.push(path);
  }
  return out;
}

describe("repository paths named in code and documents", () => {
  it("every src/, views/, test/, docs/ ... path named, bare folders included, resolves to a file or folder", () => {
    const files = [
      ...SCANNED.flatMap((folder) => sourceFiles(join(ROOT, folder))),
      // The style guide (docs/STYLE.md) describes other codebases' files (bolt-js's errors module).
      ...markdownFiles(ROOT).filter((f) => relative(ROOT, f) !== "docs/STYLE.md"),
    ];
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(REPO_PATH)) {
        const named = match[0];
        const before = text[match.index - 1] ?? "";
        const after = text[match.index + named.length] ?? "";
        // Placeholders (`<feature>`) and globs (`test/e2e/edgeQuote*.test.ts`) name a kind of
        // path, not one path; a URL's path (`http://provider.test/api/…`) is not the repository's.
        if (/[<>*]/.test(named) || after === "*" || /[./:@\w-]/.test(before)) continue;
        const path = named.replace(/[.)]+$/, "");
        // A path with another extension (a `.png`, a `.lua` script's name) is not checked; a
        // bare one (`src/jobs`, `src/jobs/`, `src/log`) names a folder or a module without its
        // extension, and must lead to one as well.
        const isFile = CHECKED_EXT.test(path);
        const isBare = !/\.[A-Za-z0-9]+$/.test(path);
        if (!isFile && !isBare) continue;
        // An ES module import names the built `.js` of a `.ts` source (or of a declaration
        // file), and a relative one is read from the importing file's folder or one above it.
        const forms = isBare
          ? [path, `${path}.ts`, `${path}.js`]
          : [path, path.replace(/\.js$/, ".ts"), path.replace(/\.js$/, ".d.ts")];
        const bases = [
          ROOT,
          dirname(file),
          dirname(dirname(file)),
          dirname(dirname(dirname(file))),
        ];
        if (!bases.some((base) => forms.some((form) => existsSync(join(base, form)))))
          missing.push(`${relative(ROOT, file)} names ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
