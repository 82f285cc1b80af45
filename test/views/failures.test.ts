// Every coded failure (src/domain/errors.ts) is worded in one place, views/failures.ts.
import { describe, expect, it } from "vitest";
import {
  BlockedError,
  CodedError,
  DeadlineExceededError,
  type ErrorCode,
  isCodedError,
  providerWords,
  QuoteNoLongerOffered,
  RATE_LIMITED_MESSAGE,
  RateLimitWaitTooLongError,
  StorageUnavailableError,
} from "../../src/domain/errors.js";
import { readProviderFailure } from "../../src/jobs/quotes/providerFailure.js";
import { httpError } from "../../src/provider/errors.js";
import { draftGoneWords } from "../../views/edge/edgeDrafts.js";
import {
  describeFailure,
  STORAGE_UNAVAILABLE_TEXT,
  TOOK_TOO_LONG_TEXT,
} from "../../views/failures.js";

const OUR_SIDE = /Something went wrong on our side/;

describe("the coded errors", () => {
  it("each carries its code, read by shape too (across module copies)", () => {
    const cases: Array<[CodedError, ErrorCode]> = [
      [new BlockedError("no"), "blocked"],
      [new DeadlineExceededError(2_000), "timeout"],
      [new StorageUnavailableError(new Error("Connection is closed.")), "storage_unavailable"],
      [new RateLimitWaitTooLongError(90_000), "rate_limited"],
      [new QuoteNoLongerOffered("Request a new quote."), "no_longer_offered"],
    ];
    for (const [error, code] of cases) {
      expect(error).toBeInstanceOf(CodedError);
      expect(isCodedError(error, code)).toBe(true);
      const copy = Object.assign(new Error(error.message), { code });
      expect(isCodedError(copy)).toBe(true);
    }
    expect(isCodedError(Object.assign(new Error("x"), { code: "ECONNRESET" }))).toBe(false);
  });

  it("a rate-limited call says nothing was sent, to placement as to a person", () => {
    const refused = new RateLimitWaitTooLongError(90_000);
    expect(refused.message).toMatch(/90 s away/);
    expect(readProviderFailure(refused)).toMatchObject({
      outcomeUnknown: false,
      userMessage: RATE_LIMITED_MESSAGE,
    });
    expect(providerWords(refused)?.userMessage).toBe(RATE_LIMITED_MESSAGE);
  });
});

describe("describeFailure words each code once", () => {
  it("rate limited: the limiter's words, not 'something went wrong'", () => {
    const text = describeFailure(new RateLimitWaitTooLongError(90_000));
    expect(text).toBe(`:hourglass: ${RATE_LIMITED_MESSAGE}`);
    expect(text).not.toMatch(OUR_SIDE);
  });

  it("no longer offered: the error's own words, escaped once", () => {
    expect(describeFailure(new QuoteNoLongerOffered("Request a new quote."))).toBe(
      ":warning: Request a new quote.",
    );
    expect(describeFailure(new QuoteNoLongerOffered('"<!channel>" & co is gone'))).toBe(
      ':warning: "&lt;!channel&gt;" &amp; co is gone',
    );
    // A draft gone, raised in plain words: escaped once where it is shown, never twice.
    expect(describeFailure(new QuoteNoLongerOffered(draftGoneWords("d&1<x>")))).toBe(
      ":warning: The Edge draft d&amp;1&lt;x&gt; no longer exists (drafts are deleted after 30 days, or when ordered).",
    );
  });

  it("the other codes, and anything uncoded", () => {
    expect(describeFailure(new DeadlineExceededError(2_000))).toBe(TOOK_TOO_LONG_TEXT);
    expect(describeFailure(new StorageUnavailableError(new Error("Connection is closed.")))).toBe(
      STORAGE_UNAVAILABLE_TEXT,
    );
    expect(describeFailure(new BlockedError("Only approvers may do that."))).toBe(
      ":no_entry: Only approvers may do that.",
    );
    const provider = httpError(
      { operation: "createPortOrder", method: "POST", path: "/x", subject: "the port order" },
      400,
      JSON.stringify({ message: "bad speed" }),
    );
    expect(describeFailure(provider)).toMatch(/^:warning: /);
    expect(describeFailure(new Error("boom"))).toMatch(OUR_SIDE);
  });
});
