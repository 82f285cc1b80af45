import { randomBytes } from "node:crypto";
import { nameScope, normalizedName } from "./names.js";
import type { ApprovalKind, ApprovalStatus } from "./types.js";

/**
 * The store's Redis key names and request ids, in one place so the layout the README documents is the layout
 * the code writes. Every key is passed to the Lua scripts in KEYS (scripts.ts builds none).
 *
 * Keys under the prefix:
 *   approval:<id>             hash, one per request (layout in codec.ts), TTL = retention
 *   approvals:created         zset id → createdAt ms (the audit list)
 *   approvals:status:<status> zset id → createdAt ms, one per status (pending list, reconciler)
 *   approvals:expires         zset id → expiry ms, to trim the indexes of expired records
 *   approvals:name:<scope>:<name>  string → id of the live request holding that order name
 *
 * The prefix is used as given, with no separator added: src/bot.ts passes the key layout's
 * (src/redis/layout/keyLayout.ts), which ends in its own separator. Layout 0 passed
 * `<prefix>:approvals`, so its keys read `<prefix>:approvalsapproval:<id>`; the layout
 * migrations rename them (see the README's "Keys").
 */
export class ApprovalKeys {
  constructor(private readonly prefix: string) {}

  record(id: string): string {
    return `${this.prefix}approval:${id}`;
  }

  created(): string {
    return `${this.prefix}approvals:created`;
  }

  expires(): string {
    return `${this.prefix}approvals:expires`;
  }

  status(status: ApprovalStatus): string {
    return `${this.prefix}approvals:status:${status}`;
  }

  /** The key holding a name, or undefined when the request has none (a blank one is none). */
  name(kind: ApprovalKind, name: string | undefined): string | undefined {
    const normalized = normalizedName(name ?? "");
    if (normalized === "") return undefined;
    return `${this.prefix}approvals:name:${nameScope(kind)}:${normalized}`;
  }

  /**
   * The keys a step's script touches, in the order the scripts read KEYS: the record, the
   * created and expiry indexes, the from and to status indexes, then the name key if any.
   */
  step(
    id: string,
    from: ApprovalStatus,
    to: ApprovalStatus,
    nameKey: string | undefined,
  ): string[] {
    return [
      this.record(id),
      this.created(),
      this.expires(),
      this.status(from),
      this.status(to),
      ...(nameKey ? [nameKey] : []),
    ];
  }
}

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** A new request's id: `apr_` + 16 base32 characters from 80 random bits. */
export function newApprovalId(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return `apr_${out}`;
}
