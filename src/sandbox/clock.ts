// The sandbox's notion of "now". Order progression, draft expiry and quote readiness are all
// computed from it, so tests move weeks of provider time forward without waiting.

export interface Clock {
  now(): Date;
  nowMs(): number;
  /** Moves sandbox time forward (negative values are refused: time does not run backwards). */
  advance(ms: number): void;
}

export interface SandboxClockOptions {
  /** Where sandbox time starts; default: the real time at construction. */
  start?: Date | number;
  /** When true, time moves only through advance(); default false (follows real time). */
  frozen?: boolean;
  /** Source of real time (tests may inject one). */
  realNow?: () => number;
}

/** Real time plus an offset that only grows; or, when frozen, a fixed start plus the offset. */
export class SandboxClock implements Clock {
  private offsetMs = 0;
  private readonly realNow: () => number;
  private readonly startReal: number;
  private readonly startSandbox: number;
  private readonly frozen: boolean;

  constructor(options: SandboxClockOptions = {}) {
    this.realNow = options.realNow ?? Date.now;
    this.startReal = this.realNow();
    const start = options.start;
    this.startSandbox =
      start === undefined ? this.startReal : typeof start === "number" ? start : start.getTime();
    this.frozen = options.frozen ?? false;
  }

  nowMs(): number {
    const elapsed = this.frozen ? 0 : this.realNow() - this.startReal;
    return this.startSandbox + elapsed + this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new RangeError("advance() takes a finite, non-negative number of milliseconds");
    }
    this.offsetMs += ms;
  }

  /** How far sandbox time is ahead of where real time alone would have taken it. */
  get advancedMs(): number {
    return this.offsetMs;
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
