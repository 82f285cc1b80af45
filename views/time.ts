import { formatDistance } from "date-fns";
import { parseTimestamp } from "../src/domain/timestamps.js";

/**
 * Times as a person reads them: "3 days ago (12 Nov 2026, 14:05 CET)". date-fns has no time
 * zones, so the absolute part uses Intl with the person's IANA zone (from Slack).
 */

const FALLBACK_ZONE = "UTC";

interface ZoneFormat {
  date: Intl.DateTimeFormat;
  /** Zone abbreviations per locale: en-GB knows CET/BST, en-US knows EST/PDT. */
  names: Intl.DateTimeFormat[];
}

const formats = new Map<string, ZoneFormat>();

function zoneFormat(timeZone: string | undefined): ZoneFormat {
  const zone = timeZone || FALLBACK_ZONE;
  const cached = formats.get(zone);
  if (cached) return cached;
  let format: ZoneFormat;
  try {
    format = {
      date: new Intl.DateTimeFormat("en-GB", {
        day: "numeric",
        month: "short",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
        timeZone: zone,
      }),
      names: ["en-GB", "en-US"].map(
        (locale) => new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: "short" }),
      ),
    };
  } catch {
    // An unknown zone name from Slack must not break a message: fall back to UTC.
    return zoneFormat(FALLBACK_ZONE);
  }
  formats.set(zone, format);
  return format;
}

function zoneName(format: ZoneFormat, date: Date): string {
  let fallback = "";
  for (const names of format.names) {
    const name = names.formatToParts(date).find((p) => p.type === "timeZoneName")?.value ?? "";
    if (name && !/^(GMT|UTC)[+-]/.test(name)) return name;
    fallback ||= name;
  }
  return fallback;
}

/** "12 Nov 2026, 14:05 CET" in the given IANA time zone (UTC when none or unknown). */
export function formatAbsolute(date: Date, timeZone: string | undefined): string {
  const format = zoneFormat(timeZone);
  const name = zoneName(format, date);
  return name ? `${format.date.format(date)} ${name}` : format.date.format(date);
}

/** "3 days ago", "in about 2 hours". */
export function formatRelative(date: Date, now: Date): string {
  return formatDistance(date, now, { addSuffix: true });
}

/** "3 days ago (12 Nov 2026, 14:05 CET)", or undefined when the timestamp is not set. */
export function formatWhen(
  value: unknown,
  timeZone: string | undefined,
  now: Date = new Date(),
): string | undefined {
  const date = parseTimestamp(value);
  if (!date) return undefined;
  return `${formatRelative(date, now)} (${formatAbsolute(date, timeZone)})`;
}
