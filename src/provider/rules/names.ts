// The name rule: one rule for every name the bot sends (port, connection, IO-D service, draft),
// because a name becomes a label in the provider's portal, every listing and command line, and
// the approval an approver reads. Kept apart from the request families that all use it.
import { NAME_MAX } from "../../domain/catalog/requestFacts.js";
import { text } from "./fields.js";

// Names appear in Slack messages and the provider's listings, where a line break, tab or other
// control character is a paste mistake, not intent.
const PRINTABLE = /^[^\p{Cc}\p{Zl}\p{Zp}]*$/u;

// Invisible and direction-changing characters: every Unicode format character (Cf) — zero-width
// space, non-joiner and joiner (U+200B–U+200D), word joiner (U+2060), BOM (U+FEFF), soft hyphen,
// the bidirectional marks (U+200E/F, U+061C), embeddings and overrides (U+202A–U+202E) and
// isolates (U+2066–U+2069) — plus private-use and lone surrogate code points. In a name they make
// a title that shows as nothing, or one that reads differently from what it is ("gro.elpmaxe"
// shown as "example.org"): an approver must see exactly what will be ordered.
const INVISIBLE = /[\p{Cf}\p{Co}\p{Cs}]/u;
export const NAME_CHARACTERS_MESSAGE =
  "Names can't contain invisible or right-to-left control characters";

/** True when a name holds none of the characters above. One rule for every name field. */
export function hasOnlyVisibleCharacters(name: string): boolean {
  return !INVISIBLE.test(name);
}

// The spec types a name as a string and says no more. A name becomes the port's label in the
// provider's portal and in every listing and command line ("/connect port ams-core-01"): a space
// splits it into two words there, and an emoji shows as a picture in one place and as a code or
// a box in another (the provider's portal, a terminal, an invoice). One word of visible
// characters is what every name in the provider's own samples is.
const SPACE = /\s/u;
// Pictographs (emoji and their modifiers, flags, keycaps and the variation selector that turns a
// character into its emoji form).
const EMOJI = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u20E3|\uFE0F/u;

/** What a valid name is, said next to the field when a name is not one. */
export function nameRuleMessage(label: string, max = NAME_MAX): string {
  return `${label} must be one word: letters, digits and signs such as - _ . but no spaces or emoji, at most ${max} characters (e.g. ams-core-01)`;
}

/** True when the text holds an emoji (or a flag, keycap or emoji modifier). */
export function hasEmoji(text: string): boolean {
  return EMOJI.test(text);
}

/** True when a name is one word without emoji: the rule every name field shares. */
export function isOneWordName(name: string): boolean {
  return !SPACE.test(name) && !hasEmoji(name);
}

/** A name field of any request: one word of visible characters, at most `max` long. */
export function nameField(label: string, max = NAME_MAX) {
  return text(label)
    .regex(PRINTABLE, `${label} can't contain line breaks, tabs or control characters`)
    .refine(hasOnlyVisibleCharacters, NAME_CHARACTERS_MESSAGE)
    .refine(isOneWordName, nameRuleMessage(label, max))
    .max(max, `${label} must be at most ${max} characters`);
}
