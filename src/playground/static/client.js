import { renderMrkdwn } from "./mrkdwn.js";

/**
 * What every part of the page shares: the person's view state (`ui`), the calls to the JSON API,
 * DOM building, the toast, and acting (send, then poll fast while the bot answers). The page's
 * refresh and render live in app.js; it hands them to `page` so the parts can ask for them
 * without importing the page.
 */

export const $ = (id) => document.getElementById(id);
const API = "/playground/api";
const FAST_FOR_MS = 4000;

const params = new URLSearchParams(location.search);
export const ui = {
  user: params.get("user") || localStorage.getItem("playground.user") || "U0REQUEST1",
  channel: params.get("channel") || "C0GENERAL1",
  thread: null,
  /** The app's Home tab is shown instead of a channel. */
  home: false,
  version: 0,
  data: null,
  fastUntil: Date.now() + FAST_FOR_MS,
};

/** The page's refresh and render (set by app.js). */
export const page = {
  refresh: async () => {},
  render: () => {},
};

/** Said instead of the browser's "Failed to fetch" when nothing answers (issue 32, item 7). */
export const BOT_DOWN = "The bot is not answering — is `npm start` still running?";

class ApiError extends Error {
  constructor(message, fieldErrors, botDown = false) {
    super(message);
    this.fieldErrors = fieldErrors;
    /** Nothing answered: the bot (and the page's server with it) is not running. */
    this.botDown = botDown;
  }
}

async function call(method, path, payload) {
  const url =
    method === "GET" && payload
      ? `${API}/${path}?${new URLSearchParams(payload)}`
      : `${API}/${path}`;
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: method === "POST" ? { "content-type": "application/json" } : {},
      body: method === "POST" ? JSON.stringify(payload) : undefined,
    });
  } catch {
    // The page is served by the bot's process: no answer at all means that process is gone.
    throw new ApiError(BOT_DOWN, undefined, true);
  }
  let body;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (!response.ok || body?.ok === false) {
    throw new ApiError(
      body?.error ?? body?.message ?? `HTTP ${response.status}`,
      body?.fieldErrors,
    );
  }
  return body;
}

export const get = (path, query) => call("GET", path, query);
export const post = (path, body) => {
  ui.acted = true;
  return call("POST", path, { user: ui.user, ...body });
};

// ---- small helpers ----------------------------------------------------------------------------

export function el(tag, className, children = []) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

let toastTimer;
export function toast(message) {
  const node = $("toast");
  node.textContent = message;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    node.hidden = true;
  }, 6000);
}

/** After the person acts, poll fast for a while: the bot's answer follows its ack. */
export function expectChanges() {
  ui.fastUntil = Date.now() + FAST_FOR_MS;
  page.refresh().catch(() => {});
}

export async function act(work) {
  try {
    const result = await work();
    expectChanges();
    return result;
  } catch (error) {
    toast(error.message);
    expectChanges();
    throw error;
  }
}

/** What a click or a pick in blocks sends, as the person, from a message or a view (`where`). */
function clickHandler(where) {
  return (block, element, value) =>
    act(() =>
      post("click", {
        ...where,
        blockId: block.block_id,
        actionId: element.action_id,
        ...(value === undefined ? {} : { value }),
      }),
    ).catch(() => {});
}

/**
 * What blocks.js needs to render blocks on a surface ("message" or "modal"): mrkdwn names, the
 * confirm dialog, and clicks sent from `where` (a message's channel and ts, or a viewId).
 */
export function blocksEnv(surface, where, more = {}) {
  return {
    document,
    surface,
    mrkdwn: mrkdwnContext(),
    confirm: confirmDialog,
    onAction: clickHandler(where),
    ...more,
  };
}

export function mrkdwnContext() {
  const data = ui.data;
  return {
    document,
    userName: (id) => data?.directory.users[id],
    channelName: (id) => data?.directory.channels[id],
    userGroupHandle: (id) => data?.directory.userGroups[id],
    timeZone: data?.me.tz,
  };
}

export function timeOf(ts) {
  const date = new Date(Number(ts) * 1000);
  try {
    return new Intl.DateTimeFormat("en-GB", {
      hour: "2-digit",
      minute: "2-digit",
      timeZone: ui.data?.me.tz,
    }).format(date);
  } catch {
    return date.toISOString().slice(11, 16);
  }
}

export function hue(id) {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return hash;
}

export function initials(name) {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
}

// ---- a confirm dialog (Block Kit `confirm` objects) -------------------------------------------

function confirmDialog(dialog) {
  return new Promise((resolve) => {
    const text = (t) => (t && typeof t.text === "string" ? t.text : "");
    const backdrop = el("div", "backdrop confirm-backdrop");
    const box = el("div", "modal confirm", [
      el("div", "modal-header", [el("h2", "", [text(dialog.title) || "Are you sure?"])]),
      el("div", "modal-body", [
        dialog.text?.type === "mrkdwn"
          ? renderMrkdwn(dialog.text.text, mrkdwnContext())
          : text(dialog.text),
      ]),
    ]);
    box.setAttribute("role", "alertdialog");
    const done = (answer) => {
      backdrop.remove();
      resolve(answer);
    };
    const deny = el("button", "btn", [text(dialog.deny) || "Cancel"]);
    deny.type = "button";
    deny.addEventListener("click", () => done(false));
    const yes = el("button", `btn ${dialog.style === "danger" ? "danger" : "primary"}`, [
      text(dialog.confirm) || "Yes",
    ]);
    yes.type = "button";
    yes.addEventListener("click", () => done(true));
    box.append(el("div", "modal-footer", [deny, yes]));
    backdrop.append(box);
    document.body.append(backdrop);
    yes.focus();
  });
}
