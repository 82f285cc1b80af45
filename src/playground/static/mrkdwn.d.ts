/** Types of mrkdwn.js (a plain browser module, so that the page needs no build step). */

export type MrkdwnNode =
  | { type: "text"; text: string }
  | { type: "bold" | "italic" | "strike" | "quote"; children: MrkdwnNode[] }
  | { type: "code" | "pre"; text: string }
  | { type: "emoji"; name: string; text: string }
  | { type: "link"; url: string; label: string }
  | { type: "user" | "channel" | "usergroup"; id: string; label?: string }
  | { type: "special"; name: string; label?: string }
  | { type: "date"; seconds: number; format: string; link?: string; fallback: string };

// The project compiles without the DOM library; the browser's types stay opaque here.
export interface MrkdwnContext {
  document: unknown;
  userName?(id: string): string | undefined;
  channelName?(id: string): string | undefined;
  userGroupHandle?(id: string): string | undefined;
  timeZone?: string;
}

export function emojiFor(name: string): string | undefined;
export function emojify(text: string): string;
export function decodeEntities(text: string): string;
export function isSafeUrl(url: string): boolean;
export function parseMrkdwn(text: string): MrkdwnNode[];
export function formatSlackDate(
  seconds: number,
  format: string,
  fallback: string,
  timeZone: string | undefined,
  now?: Date,
): string;
/** A DocumentFragment. */
export function renderMrkdwn(text: string, context: MrkdwnContext): unknown;
