#!/usr/bin/env node
// The npm registry mirror this project is built against lacks some platform-specific optional
// packages (e.g. @biomejs/cli-darwin-arm64), so `npm install` leaves them out of
// package-lock.json while their parent still names them — and `npm ci` then refuses the lock
// as "out of sync". This adds a lock entry for each such optional package, with the os/cpu/libc
// read from its name, so `npm ci` skips it on this platform as it should. Idempotent.
// Run after changing dependencies: `npm install && node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages;

const OS = ["android", "darwin", "linux", "win32", "freebsd", "openbsd", "netbsd", "sunos", "aix"];
const CPU = ["arm64", "x64", "arm", "ia32", "ppc64", "s390x", "riscv64", "loong64", "mips64el"];

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  if (!os || !cpu) return undefined;
  const platform = { os: [os], cpu: [cpu] };
  if (parts.includes("musl")) platform.libc = ["musl"];
  if (parts.includes("gnu")) platform.libc = ["glibc"];
  return platform;
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [dep, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (packages[key] || packages[`${location}/${key}`]) continue;
    const platform = platformOf(dep);
    if (!platform || !/^\d+\.\d+\.\d+/.test(range)) continue;
    packages[key] = {
      version: range,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added += 1;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(
  `complete-lockfile: added ${added} platform entr${added === 1 ? "y" : "ies"}\n`,
);
