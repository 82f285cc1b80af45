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

/** Values a person, a paste or a forged payload can put in a form field. */
export const JUNK_VALUES: readonly unknown[] = [
  undefined,
  null,
  "",
  "  ",
  "0",
  "-1",
  "1.5",
  "abc",
  "99999999",
  "99999999999999999999",
  "x".repeat(300),
  "two\nlines",
  "\u202Ereversed",
  "ffffffff|gone",
  12,
  true,
  {},
  ["x"],
];

/** The valid form, then each field in turn replaced by each junk value, then all fields junk. */
export function junkForms<F extends object>(valid: F): F[] {
  const forms: F[] = [valid];
  for (const field of Object.keys(valid)) {
    for (const junk of JUNK_VALUES) forms.push({ ...valid, [field]: junk });
  }
  for (const junk of JUNK_VALUES) {
    forms.push(Object.fromEntries(Object.keys(valid).map((k) => [k, junk])) as F);
  }
  return forms;
}

/**
 * Runs `check` over junkForms(valid) and returns every distinct error message it gave, with the
 * API words each shows; a test asserts there are many messages and no API words.
 */
export async function scanErrorWords<F extends object>(
  valid: F,
  check: (form: F) => Promise<Readonly<Record<string, string | undefined>> | undefined>,
): Promise<{ messages: string[]; leaks: Record<string, string[]> }> {
  const messages = new Set<string>();
  for (const form of junkForms(valid)) {
    const errors = (await check(form)) ?? {};
    for (const message of Object.values(errors)) if (message) messages.add(message);
  }
  const leaks: Record<string, string[]> = {};
  for (const message of messages) {
    const found = apiWordsIn(message);
    if (found.length > 0) leaks[message] = found;
  }
  return { messages: [...messages], leaks };
}
