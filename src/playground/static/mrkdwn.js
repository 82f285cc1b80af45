/**
 * Slack's mrkdwn, parsed into a small tree and turned into DOM nodes. Text only ever becomes a
 * text node (never HTML), so whatever a provider or a person wrote is shown, not run.
 * `parseMrkdwn` and `formatSlackDate` are pure (the unit tests run them in Node);
 * `renderMrkdwn` needs a DOM.
 */

const EMOJI = {
  test_tube: "🧪",
  warning: "⚠️",
  no_entry: "⛔",
  no_entry_sign: "🚫",
  white_check_mark: "✅",
  heavy_check_mark: "✔️",
  x: "❌",
  heavy_multiplication_x: "✖️",
  heavy_minus_sign: "➖",
  hourglass: "⌛",
  hourglass_flowing_sand: "⏳",
  large_blue_circle: "🔵",
  large_green_circle: "🟢",
  large_orange_circle: "🟠",
  red_circle: "🔴",
  white_circle: "⚪",
  grey_question: "❔",
  question: "❓",
  wastebasket: "🗑️",
  tada: "🎉",
  rocket: "🚀",
  point_down: "👇",
  point_right: "👉",
  memo: "📝",
  mag: "🔍",
  wrench: "🔧",
  gear: "⚙️",
  electric_plug: "🔌",
  construction: "🚧",
  calendar: "📅",
  moneybag: "💰",
  link: "🔗",
  globe_with_meridians: "🌐",
  bell: "🔔",
  lock: "🔒",
  information_source: "ℹ️",
  clock1: "🕐",
  satellite: "📡",
  cloud: "☁️",
  package: "📦",
  page_facing_up: "📄",
  eyes: "👀",
  thumbsup: "👍",
  "+1": "👍",
  thumbsdown: "👎",
  raised_hand: "✋",
  stopwatch: "⏱️",
  arrows_counterclockwise: "🔄",
  inbox_tray: "📥",
  outbox_tray: "📤",
  bulb: "💡",
  speech_balloon: "💬",
  email: "📧",
  telephone_receiver: "📞",
  pencil2: "✏️",
  repeat: "🔁",
  rotating_light: "🚨",
  leftwards_arrow_with_hook: "↩️",
  pause_button: "⏸️",
};

/** The character for a `:shortcode:`, or undefined when this page does not know it. */
export function emojiFor(name) {
  return Object.hasOwn(EMOJI, name) ? EMOJI[name] : undefined;
}

/** Replaces known `:shortcodes:` in plain text (plain_text objects with `emoji: true`). */
export function emojify(text) {
  return String(text).replace(/:([a-z0-9_+'-]+):/g, (whole, name) => emojiFor(name) ?? whole);
}

export function decodeEntities(text) {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

const SAFE_URL = /^(https?:|mailto:)/i;

/** Links are followed only to web and mail addresses (never `javascript:` or `data:`). */
export function isSafeUrl(url) {
  return SAFE_URL.test(url.trim());
}

/** What `<…>` stands for: a mention, a date, a link, or plain text when unknown. */
function angleToken(inner) {
  const bar = inner.indexOf("|");
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : decodeEntities(inner.slice(bar + 1));
  if (target.startsWith("@")) return { type: "user", id: target.slice(1), label };
  if (target.startsWith("#")) return { type: "channel", id: target.slice(1), label };
  if (target.startsWith("!subteam^")) {
    return { type: "usergroup", id: target.slice("!subteam^".length), label };
  }
  if (target.startsWith("!date^")) {
    const [seconds = "", format = "", link] = target.slice("!date^".length).split("^");
    return {
      type: "date",
      seconds: Number(seconds),
      format,
      ...(link ? { link: decodeEntities(link) } : {}),
      fallback: label ?? "",
    };
  }
  if (target.startsWith("!")) return { type: "special", name: target.slice(1), label };
  const url = decodeEntities(target);
  if (isSafeUrl(url)) return { type: "link", url, label: label ?? url };
  // Not a link Slack would make (e.g. `javascript:`): its label, or the text as it was written.
  return { type: "text", text: label ?? `<${url}>` };
}

const OPEN = "\uE000";
const CLOSE = "\uE001";
const PLACEHOLDER = /\uE000(\d+)\uE001/g;

// *bold*, _italic_, ~strike~: the marker sits at a word boundary and hugs non-space text.
const FORMAT = /(^|[^\p{L}\p{N}_*~])([*_~])(?=[^\s*_~])([^\n]*?[^\s])\2(?=[^\p{L}\p{N}_]|$)/u;
const STYLE = { "*": "bold", _: "italic", "~": "strike" };

function withPlaceholders(text, tokens) {
  const out = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match.index > last)
      out.push({ type: "text", text: decodeEntities(text.slice(last, match.index)) });
    out.push(tokens[Number(match[1])]);
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push({ type: "text", text: decodeEntities(text.slice(last)) });
  return out;
}

function parseFormatting(text, tokens) {
  const match = FORMAT.exec(text);
  if (!match) return withPlaceholders(text, tokens);
  const start = match.index + match[1].length;
  const end = match.index + match[0].length;
  return [
    ...withPlaceholders(text.slice(0, start), tokens),
    { type: STYLE[match[2]], children: parseFormatting(match[3], tokens) },
    ...parseFormatting(text.slice(end), tokens),
  ];
}

function parseInline(text) {
  const tokens = [];
  const hold = (token) => {
    tokens.push(token);
    return `${OPEN}${tokens.length - 1}${CLOSE}`;
  };
  const held = text
    .replace(/```([\s\S]*?)```/g, (_whole, code) =>
      hold({ type: "pre", text: decodeEntities(code.replace(/^\n/, "")) }),
    )
    .replace(/`([^`\n]+)`/g, (_whole, code) => hold({ type: "code", text: decodeEntities(code) }))
    .replace(/<([^<>\n]+)>/g, (_whole, inner) => hold(angleToken(inner)))
    .replace(/:([a-z0-9_+'-]+):/g, (whole, name) => {
      const char = emojiFor(name);
      return char ? hold({ type: "emoji", name, text: char }) : whole;
    });
  return parseFormatting(held, tokens);
}

/**
 * The tree of a mrkdwn text: `text`, `bold`/`italic`/`strike` (with children), `code`, `pre`,
 * `quote` (with children), `link`, `user`, `channel`, `usergroup`, `special`, `date`, `emoji`.
 */
export function parseMrkdwn(text) {
  const source = String(text ?? "").replace(/[\uE000\uE001]/g, "");
  const nodes = [];
  // Quoted lines (`>` or `&gt;` at the start) group into one quote, as Slack shows them.
  const lines = source.split("\n");
  let plain = [];
  let quoted = [];
  const flushPlain = () => {
    if (plain.length > 0) nodes.push(...parseInline(plain.join("\n")));
    plain = [];
  };
  const flushQuote = () => {
    if (quoted.length > 0) nodes.push({ type: "quote", children: parseInline(quoted.join("\n")) });
    quoted = [];
  };
  let inCode = false;
  for (const line of lines) {
    const fences = line.split("```").length - 1;
    const quote = !inCode && /^(&gt;|>)\s?/.exec(line);
    if (quote) {
      flushPlain();
      quoted.push(line.slice(quote[0].length));
    } else {
      flushQuote();
      plain.push(line);
    }
    if (fences % 2 === 1) inCode = !inCode;
  }
  flushPlain();
  flushQuote();
  return nodes;
}

const pad = (n) => String(n).padStart(2, "0");

function partsIn(date, timeZone) {
  const parts = {};
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "long",
    day: "numeric",
    weekday: "long",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  for (const part of format.formatToParts(date)) parts[part.type] = part.value;
  return parts;
}

function dayDifference(date, now, timeZone) {
  const key = (d) => {
    const p = partsIn(d, timeZone);
    return Date.UTC(Number(p.year), new Date(`${p.month} 1, 2000`).getMonth(), Number(p.day));
  };
  return Math.round((key(date) - key(now)) / 86_400_000);
}

function ago(date, now) {
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  const future = seconds < 0;
  const s = Math.abs(seconds);
  const [value, unit] =
    s < 60
      ? [s, "second"]
      : s < 3600
        ? [Math.round(s / 60), "minute"]
        : s < 86_400
          ? [Math.round(s / 3600), "hour"]
          : [Math.round(s / 86_400), "day"];
  const text = `${value} ${unit}${value === 1 ? "" : "s"}`;
  return future ? `in ${text}` : `${text} ago`;
}

/**
 * Slack's `<!date^seconds^format|fallback>` as the viewer reads it, in their time zone; the
 * fallback when the time or a token cannot be read (as Slack's clients do).
 */
export function formatSlackDate(seconds, format, fallback, timeZone, now = new Date()) {
  if (!Number.isFinite(seconds) || typeof format !== "string" || format === "") return fallback;
  const date = new Date(seconds * 1000);
  let parts;
  try {
    parts = partsIn(date, timeZone || "UTC");
  } catch {
    return fallback;
  }
  const monthShort = parts.month.slice(0, 3);
  const monthIndex = new Date(`${parts.month} 1, 2000`).getMonth() + 1;
  const pretty = (plain) => {
    const diff = dayDifference(date, now, timeZone || "UTC");
    if (diff === 0) return "Today";
    if (diff === -1) return "Yesterday";
    if (diff === 1) return "Tomorrow";
    return plain;
  };
  const dateShort = `${monthShort} ${parts.day}, ${parts.year}`;
  const dateLong = `${parts.weekday}, ${parts.month} ${parts.day}, ${parts.year}`;
  const date_ = `${parts.month} ${parts.day}, ${parts.year}`;
  const values = {
    date_num: `${parts.year}-${pad(monthIndex)}-${pad(parts.day)}`,
    date: date_,
    date_short: dateShort,
    date_long: dateLong,
    date_pretty: pretty(date_),
    date_short_pretty: pretty(dateShort),
    date_long_pretty: pretty(dateLong),
    time: `${pad(parts.hour)}:${parts.minute}`,
    time_secs: `${pad(parts.hour)}:${parts.minute}:${parts.second}`,
    ago: ago(date, now),
  };
  let unknown = false;
  const text = format.replace(/\{([a-z_]+)\}/g, (_whole, token, offset) => {
    if (!Object.hasOwn(values, token)) {
      unknown = true;
      return "";
    }
    // Slack capitalises "Today" only where it starts the text: "approved today at 03:41".
    const value = values[token];
    return offset > 0 && /^(Today|Yesterday|Tomorrow)\b/.test(value)
      ? value.charAt(0).toLowerCase() + value.slice(1)
      : value;
  });
  return unknown ? fallback : text;
}

function el(document, tag, className, children = []) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) node.append(child);
  return node;
}

/**
 * DOM nodes for a mrkdwn text. `context`: `document`, `userName(id)`, `channelName(id)`,
 * `userGroupHandle(id)`, `timeZone`.
 */
export function renderMrkdwn(text, context) {
  const { document } = context;
  const fragment = document.createDocumentFragment();
  const render = (node) => {
    switch (node.type) {
      case "text":
        return document.createTextNode(node.text);
      case "bold":
        return el(document, "strong", "", node.children.map(render));
      case "italic":
        return el(document, "em", "", node.children.map(render));
      case "strike":
        return el(document, "s", "", node.children.map(render));
      case "code":
        return el(document, "code", "", [node.text]);
      case "pre":
        return el(document, "pre", "", [node.text]);
      case "quote":
        return el(document, "blockquote", "", node.children.map(render));
      case "emoji":
        return el(document, "span", "emoji", [node.text]);
      case "link": {
        const link = el(document, "a", "", [node.label]);
        link.href = node.url;
        link.target = "_blank";
        link.rel = "noopener noreferrer";
        return link;
      }
      case "user":
        return el(document, "span", "mention", [
          `@${context.userName?.(node.id) ?? node.label ?? node.id}`,
        ]);
      case "channel":
        return el(document, "span", "mention", [
          `#${context.channelName?.(node.id) ?? node.label ?? node.id}`,
        ]);
      case "usergroup": {
        const handle = context.userGroupHandle?.(node.id);
        return el(document, "span", "mention", [
          handle ? `@${handle}` : (node.label ?? `@${node.id}`),
        ]);
      }
      case "special":
        return el(document, "span", "mention", [node.label ?? `@${node.name}`]);
      case "date": {
        const shown = formatSlackDate(node.seconds, node.format, node.fallback, context.timeZone);
        const span = el(document, "time", "date", [shown]);
        if (Number.isFinite(node.seconds)) {
          span.dateTime = new Date(node.seconds * 1000).toISOString();
          span.title = node.fallback;
        }
        return span;
      }
      default:
        return document.createTextNode("");
    }
  };
  for (const node of parseMrkdwn(text)) fragment.append(render(node));
  return fragment;
}
