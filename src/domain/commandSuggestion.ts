/**
 * Which commands a mistyped `/connect` line was meant to be: closeness word by word over the
 * command table's words. Pure; no imports, so the command table can use it wherever it lives.
 */

/** A command as this module needs it: the words that select it. */
export interface CommandWords {
  path: readonly string[];
}

/**
 * Edits between two words, a swap of two neighbouring letters counting as one (optimal string
 * alignment distance): "rotuers" is one edit from "routers", as a person sees it.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] ?? [];
    const above = rows[i - 1] ?? [];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      }
      row[j] = best;
    }
  }
  return rows[a.length]?.[b.length] ?? 0;
}

/**
 * How many edits still read as a typo of `word`: none for a word of two letters (`l2`), one
 * up to five letters, two beyond. Three-letter words are where a looser bound goes wrong:
 * "foo" is two edits from "iod" and means nothing of the kind.
 */
export function typoAllowance(word: string): number {
  if (word.length <= 2) return 0;
  if (word.length <= 5) return 1;
  return 2;
}

/** At most this many commands are offered: more is a list, and help is the list. */
const SUGGESTIONS_MAX = 3;

/**
 * The commands closest to what was typed, closest first; none when no command is close. Each
 * of a command's words is compared with the typed word in its place and must be within that
 * word's typo allowance (a typed line shorter than the command compares the words it has).
 * Typed words beyond the command's are its arguments. Ties are all offered, in table order.
 */
export function closestCommands<C extends CommandWords>(
  typed: readonly string[],
  commands: readonly C[],
): C[] {
  const words = typed.map((w) => w.toLowerCase());
  if (words.length === 0) return [];
  const scored: Array<{ command: C; distance: number }> = [];
  for (const command of commands) {
    const compared = command.path.slice(0, words.length);
    let distance = 0;
    let close = true;
    compared.forEach((word, i) => {
      const edits = editDistance(words[i] ?? "", word);
      if (edits > typoAllowance(word)) close = false;
      distance += edits;
    });
    if (close) scored.push({ command, distance });
  }
  if (scored.length === 0) return [];
  const best = Math.min(...scored.map((s) => s.distance));
  return scored
    .filter((s) => s.distance === best)
    .slice(0, SUGGESTIONS_MAX)
    .map((s) => s.command);
}

/**
 * The commands a line's first words name as a group ("edge" → edge locations, orders, drafts,
 * quote) when those words select no command themselves. Empty when they name no group.
 */
export function commandsUnder<C extends CommandWords>(
  prefix: readonly string[],
  commands: readonly C[],
): C[] {
  const words = prefix.map((w) => w.toLowerCase());
  if (words.length === 0) return [];
  return commands.filter(
    (c) => c.path.length > words.length && words.every((word, i) => c.path[i] === word),
  );
}
