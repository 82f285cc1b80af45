/**
 * What a form's error message must not show a network engineer: API field paths
 * (`capacity.remaining`, `ports.0.speed`, `duration.value`) and rule numbers ("IO-D rule 3").
 * Returns each one found; "e.g." is an abbreviation, not a path.
 */
export function apiWordsIn(message: string): string[] {
  const text = message.replace(/\be\.g\./gi, "");
  return [
    ...[...text.matchAll(/\b[a-z][A-Za-z0-9]*\.[A-Za-z0-9]+\b/g)].map((m) => m[0]),
    ...[...text.matchAll(/\brules? \d+/gi)].map((m) => m[0]),
  ];
}

/** Every message of these field errors with the API words it shows (none expected). */
export function apiWordsInErrors(
  errors: Readonly<Record<string, string | undefined>>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [field, message] of Object.entries(errors)) {
    const found = message ? apiWordsIn(message) : [];
    if (found.length > 0) out[field] = found;
  }
  return out;
}
