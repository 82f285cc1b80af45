// A data center as a select option, the data center select itself, what its options load
// answers, and its speeds as options: the price forms and the port order form offer data
// centers the same way.
import type { ExternalSelect, PlainTextOption } from "@slack/types";
import { DCF_SEARCH_MIN, dcfRef, isReady, offeredSpeeds } from "../src/domain/catalog/dcfs.js";
import type { Dcf } from "../src/provider/api.js";
import type { DcfSuggestions } from "../src/usecases/shared/dcfDirectory.js";
import { LIMITS, option, plainFromMrkdwn, truncate } from "./blocks.js";
import { type DcfRecord, dcfFeatures } from "./dcf.js";
import { formatMbps, formatSpeed } from "./format.js";
import { externalSelect } from "./inputs.js";

/** Values of the hint options an options load answers with when it has no data center. */
export const DCF_HINT_PREFIX = "hint:";

function city(dcf: Dcf): string | undefined {
  const addresses = Array.isArray(dcf.company?.addresses) ? dcf.company.addresses : [];
  const address =
    addresses.find((a) => a?.primary === true) ??
    addresses.find((a) => a?.registered === true) ??
    addresses[0];
  const parts = [address?.city, address?.country].filter(
    (p): p is string => typeof p === "string" && p.trim() !== "",
  );
  return parts.length > 0 ? parts.join(", ") : undefined;
}

function airportCodes(dcf: Dcf): string[] {
  const codes = dcf.dataCenterFacility?.airportCodes;
  return Array.isArray(codes) ? codes.filter((c): c is string => typeof c === "string") : [];
}

/** One DCF as a select option: name and city; airport codes, speeds and tags below. */
export function dcfOption(dcf: Dcf): PlainTextOption {
  const name = dcf.name?.trim() || dcf.username || dcf.id;
  const place = city(dcf);
  const speeds = offeredSpeeds(dcf);
  const details = [
    airportCodes(dcf).join("/"),
    speeds.length > 0 ? speeds.map(formatSpeed).join(", ") : undefined,
    ...dcfFeatures(dcf as DcfRecord).map(plainFromMrkdwn),
    isReady(dcf) ? undefined : "not ready",
  ].filter((d): d is string => typeof d === "string" && d !== "");
  return option(
    place ? `${truncate(name, LIMITS.optionText - place.length - 3)} · ${place}` : name,
    dcfRef(dcf),
    details.length > 0 ? details.join(" · ") : undefined,
  );
}

/** A data center select: searched as the person types, the chosen data center shown. */
export function dcfSelect(actionId: string, initial?: Dcf): ExternalSelect {
  return externalSelect(
    actionId,
    "Type a name, city or airport code",
    DCF_SEARCH_MIN,
    initial ? dcfOption(initial) : undefined,
  );
}

function hintOption(text: string, kind: string): PlainTextOption {
  return option(text, `${DCF_HINT_PREFIX}${kind}`);
}

/** What an options load answers: the matching DCFs, or one option saying why there are none. */
export function dcfSuggestionOptions(
  suggestions: DcfSuggestions,
  typed: string,
): PlainTextOption[] {
  switch (suggestions.kind) {
    case "too-short":
      return [
        hintOption(
          `Type at least ${DCF_SEARCH_MIN} letters of a name, city or airport code`,
          "short",
        ),
      ];
    case "timeout":
      return [hintOption("The provider is slow to answer: type again to retry", "timeout")];
    case "failed":
      return [hintOption(`Search failed: ${suggestions.message}`, "failed")];
    case "found":
      if (suggestions.dcfs.length === 0) {
        return [hintOption(`No data center matches "${typed.trim()}"`, "none")];
      }
      return suggestions.dcfs.slice(0, LIMITS.staticOptions).map(dcfOption);
  }
}

/** The Speed options: exactly the DCF's valid speeds, "10G" with "10,000 Mbps" below. */
export function speedOptions(speeds: readonly number[]): PlainTextOption[] {
  return speeds
    .slice(0, LIMITS.staticOptions)
    .map((mbps) => option(formatSpeed(mbps), String(mbps), formatMbps(mbps)));
}
