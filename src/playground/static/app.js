import { renderBlocks } from "./blocks.js";
import { renderMrkdwn } from "./mrkdwn.js";

/**
 * The playground page: a Slack-like client over the stand-in's JSON API (/playground/api/…).
 * It polls the workspace state (every second, faster right after the person did something,
 * since the bot acks first and answers a moment later) and sends what the person does:
 * commands, messages, clicks, modal input, submit and close. No framework; everything shown is
 * built with DOM calls, so no text from the bot or the provider is ever parsed as HTML.
 */

const $ = (id) => document.getElementById(id);
const API = "/playground/api";
const POLL_MS = 1000;
const FAST_POLL_MS = 250;
const FAST_FOR_MS = 4000;

const params = new URLSearchParams(location.search);
const ui = {
  user: params.get("user") || localStorage.getItem("playground.user") || "U0REQUEST1",
  channel: params.get("channel") || "C0GENERAL1",
  thread: null,
  /** The app's Home tab is shown instead of a channel. */
  home: false,
  version: 0,
  data: null,
  fastUntil: Date.now() + FAST_FOR_MS,
};

class ApiError extends Error {
  constructor(message, fieldErrors) {
    super(message);
    this.fieldErrors = fieldErrors;
  }
}

async function call(method, path, payload) {
  const url =
    method === "GET" && payload
      ? `${API}/${path}?${new URLSearchParams(payload)}`
      : `${API}/${path}`;
  const response = await fetch(url, {
    method,
    headers: method === "POST" ? { "content-type": "application/json" } : {},
    body: method === "POST" ? JSON.stringify(payload) : undefined,
  });
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

const get = (path, query) => call("GET", path, query);
const post = (path, body) => {
  ui.acted = true;
  return call("POST", path, { user: ui.user, ...body });
};

// ---- small helpers ----------------------------------------------------------------------------

function el(tag, className, children = []) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

let toastTimer;
function toast(message) {
  const node = $("toast");
  node.textContent = message;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    node.hidden = true;
  }, 6000);
}

/** After the person acts, poll fast for a while: the bot's answer follows its ack. */
function expectChanges() {
  ui.fastUntil = Date.now() + FAST_FOR_MS;
  refresh().catch(() => {});
}

async function act(work) {
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

function mrkdwnContext() {
  const data = ui.data;
  return {
    document,
    userName: (id) => data?.directory.users[id],
    channelName: (id) => data?.directory.channels[id],
    userGroupHandle: (id) => data?.directory.userGroups[id],
    timeZone: data?.me.tz,
  };
}

function timeOf(ts) {
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

function hue(id) {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return hash;
}

function initials(name) {
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

// ---- messages ---------------------------------------------------------------------------------

function messageEnv(message) {
  return {
    document,
    surface: "message",
    mrkdwn: mrkdwnContext(),
    people: [],
    channels: [],
    confirm: confirmDialog,
    onAction: (block, element, value) =>
      act(() =>
        post("click", {
          channel: message.channel,
          ts: message.ts,
          blockId: block.block_id,
          actionId: element.action_id,
          ...(value === undefined ? {} : { value }),
        }),
      ).catch(() => {}),
    onInput: () => {},
    suggest: async () => [],
  };
}

function messageNode(message, inThread) {
  const row = el("div", `message${message.ephemeral ? " ephemeral" : ""}`);
  row.dataset.ts = message.ts;
  const avatar = el("div", "avatar", [message.fromApp ? "🔌" : initials(message.author)]);
  avatar.style.backgroundColor = message.fromApp ? "#4a154b" : `hsl(${hue(message.user)} 45% 45%)`;
  avatar.setAttribute("aria-hidden", "true");
  const meta = el("div", "meta", [
    el("span", "author", [message.author]),
    message.fromApp ? el("span", "badge", ["APP"]) : null,
    el("span", "time", [timeOf(message.ts)]),
    message.edited ? el("span", "edited", ["(edited)"]) : null,
  ]);
  const body = el("div", "content", [meta]);
  const hasBlocks = Array.isArray(message.blocks) && message.blocks.length > 0;
  body.append(
    hasBlocks
      ? renderBlocks(messageEnv(message), message.blocks)
      : el("div", "text", [renderMrkdwn(message.text, mrkdwnContext())]),
  );
  if (message.ephemeral) body.append(el("div", "only-you", ["👁 Only visible to you"]));
  if (!inThread && !message.ephemeral) {
    const reply = el("button", "reply-in-thread", ["💬 Reply"]);
    reply.type = "button";
    reply.title = "Reply in thread";
    reply.addEventListener("click", () => openThread(message.channel, message.ts));
    meta.append(reply);
  }
  if (!inThread && message.replyCount > 0) {
    const link = el("button", "replies", [
      `${message.replyCount} ${message.replyCount === 1 ? "reply" : "replies"}`,
    ]);
    link.type = "button";
    link.addEventListener("click", () => openThread(message.channel, message.ts));
    body.append(link);
  }
  row.append(avatar, body);
  return row;
}

/** Re-renders only messages that changed, so a select someone is using is not torn down. */
function syncMessages(container, messages, inThread, scopeKey) {
  const nearBottom =
    container.scrollHeight - container.scrollTop - container.clientHeight < 80 ||
    container.dataset.scope !== scopeKey;
  const cache = container.cache ?? new Map();
  if (container.dataset.scope !== scopeKey) cache.clear();
  const next = new Map();
  const nodes = [];
  for (const message of messages) {
    const signature = `${ui.user}|${JSON.stringify(message)}`;
    const key = `${message.ephemeral ? "e" : "m"}${message.ts}`;
    const cached = cache.get(key);
    const node =
      cached && cached.signature === signature ? cached.node : messageNode(message, inThread);
    next.set(key, { signature, node });
    nodes.push(node);
  }
  if (nodes.length === 0) {
    nodes.push(
      el("div", "empty", [
        inThread ? "No replies yet." : "No messages yet. Type /connect help below.",
      ]),
    );
  }
  const same =
    nodes.length === container.childNodes.length &&
    nodes.every((n, i) => n === container.childNodes[i]);
  if (!same) container.replaceChildren(...nodes);
  container.cache = next;
  container.dataset.scope = scopeKey;
  if (nearBottom) container.scrollTop = container.scrollHeight;
}

function openThread(channel, ts) {
  ui.thread = { channel, ts };
  render();
  $("thread-input").focus();
}

// ---- modals -----------------------------------------------------------------------------------

const modal = { key: null, id: null, fields: [], pending: new Set() };

function syncInput(viewId, block, element, value) {
  const work = post("view/input", {
    viewId,
    blockId: block.block_id,
    actionId: element.action_id,
    value,
  })
    .then(() => {
      const field = modal.fields.find(
        (f) => f.blockId === block.block_id && f.actionId === element.action_id,
      );
      if (field) {
        field.shown = field.widget.value;
        field.showError("");
      }
      expectChanges();
    })
    .catch((error) => {
      const field = modal.fields.find((f) => f.blockId === block.block_id);
      if (field) field.showError(error.message);
      else toast(error.message);
    });
  modal.pending.add(work);
  work.finally(() => modal.pending.delete(work));
  return work;
}

async function submitModal(view, buttons) {
  let missing = false;
  for (const field of modal.fields) {
    field.showError("");
    if (!field.optional && !field.filled()) {
      field.showError("Please complete this required field.");
      missing = true;
    }
  }
  if (missing) return;
  for (const button of buttons) button.disabled = true;
  try {
    await Promise.allSettled([...modal.pending]);
    const values = {};
    for (const field of modal.fields.filter((f) => f.textual)) {
      values[field.blockId] ??= {};
      values[field.blockId][field.actionId] = field.read();
    }
    const result = await post("view/submit", { viewId: view.id, values });
    for (const [blockId, message] of Object.entries(result.errors ?? {})) {
      modal.fields.find((f) => f.blockId === blockId)?.showError(message);
    }
    if (Array.isArray(result.problems) && result.problems.length > 0) {
      toast(`The app's answer has problems Slack would refuse: ${result.problems.join("; ")}`);
    }
  } catch (error) {
    if (error.fieldErrors) {
      for (const [blockId, message] of Object.entries(error.fieldErrors)) {
        modal.fields.find((f) => f.blockId === blockId)?.showError(message);
      }
    } else {
      toast(error.message);
    }
  } finally {
    for (const button of buttons) button.disabled = false;
    expectChanges();
  }
}

function closeModal(view) {
  act(() => post("view/close", { viewId: view.id })).catch(() => {});
}

function renderModal() {
  const root = $("modal-root");
  const stack = ui.data?.modals ?? [];
  const view = stack[stack.length - 1];
  const key = view ? `${ui.user}|${view.id}|${view.hash}|${JSON.stringify(view.errors)}` : null;
  if (key === modal.key) return;
  // Keep what the person typed but has not sent yet when the app updates the same view.
  const typed = new Map();
  if (view && view.id === modal.id) {
    for (const field of modal.fields) {
      if (field.textual && field.widget.value !== field.shown) {
        typed.set(`${field.blockId}/${field.actionId}`, field.widget.value);
      }
    }
  }
  const opened = view && view.id !== modal.id;
  modal.key = key;
  modal.id = view?.id ?? null;
  modal.fields = [];
  if (!view) {
    root.replaceChildren();
    return;
  }
  const env = {
    document,
    surface: "modal",
    mrkdwn: mrkdwnContext(),
    values: view.values,
    errors: view.errors,
    people: (ui.data?.people ?? []).map((p) => ({ id: p.id, label: p.realName })),
    channels: (ui.data?.channels ?? []).map((c) => ({ id: c.id, label: `#${c.name}` })),
    confirm: confirmDialog,
    register: (field) => {
      field.shown = field.widget.value;
      modal.fields.push(field);
    },
    onInput: (block, element, value) => syncInput(view.id, block, element, value),
    onAction: (block, element, value) =>
      act(() =>
        post("click", {
          viewId: view.id,
          blockId: block.block_id,
          actionId: element.action_id,
          ...(value === undefined ? {} : { value }),
        }),
      ).catch(() => {}),
    suggest: async (block, element, query) => {
      const result = await get("suggest", {
        user: ui.user,
        viewId: view.id,
        blockId: block.block_id,
        actionId: element.action_id,
        query,
      });
      return result.options;
    },
  };
  const title = el("h2", "", [view.title]);
  title.id = "modal-title";
  const closeX = el("button", "icon-btn", ["×"]);
  closeX.type = "button";
  closeX.setAttribute("aria-label", "Close");
  closeX.addEventListener("click", () => closeModal(view));
  const body = el("div", "modal-body", [renderBlocks(env, view.blocks)]);
  const cancel = el("button", "btn", [view.close ?? "Cancel"]);
  cancel.type = "button";
  cancel.addEventListener("click", () => closeModal(view));
  const footer = el("div", "modal-footer", [cancel]);
  const buttons = [cancel];
  if (view.submit) {
    const submit = el("button", "btn primary", [view.submit]);
    submit.type = "submit";
    buttons.push(submit);
    footer.append(submit);
  }
  const form = el("form", "modal", [el("div", "modal-header", [title, closeX]), body, footer]);
  form.noValidate = true;
  form.setAttribute("role", "dialog");
  form.setAttribute("aria-modal", "true");
  form.setAttribute("aria-labelledby", "modal-title");
  form.dataset.viewId = view.id;
  form.dataset.callbackId = view.callbackId;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (view.submit) submitModal(view, buttons);
  });
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeModal(view);
  });
  const backdrop = el("div", "backdrop", [form]);
  if (stack.length > 1) backdrop.dataset.depth = String(stack.length);
  root.replaceChildren(backdrop);
  for (const field of modal.fields) {
    const value = typed.get(`${field.blockId}/${field.actionId}`);
    if (value !== undefined) field.widget.value = value;
  }
  if (opened) (form.querySelector("input, textarea, select") ?? cancel).focus();
}

// ---- the page ---------------------------------------------------------------------------------

function renderPeople() {
  const select = $("user");
  const people = ui.data.people;
  const signature = people.map((p) => p.id).join(",");
  if (select.dataset.signature !== signature) {
    select.replaceChildren(
      ...people.map((p) => {
        const option = el("option", "", [`${p.realName} — ${p.role}`]);
        option.value = p.id;
        return option;
      }),
    );
    select.dataset.signature = signature;
  }
  select.value = ui.user;
  const me = ui.data.me;
  $("you").textContent = `${me.realName} (${me.role}) · ${me.tz}`;
}

function renderChannels() {
  const list = $("channels");
  const dms = $("dms");
  const item = (channel) => {
    const button = el("button", `channel-link${channel.id === ui.channel ? " active" : ""}`, [
      channel.kind === "dm" ? `● ${channel.name}` : `# ${channel.name}`,
    ]);
    button.type = "button";
    button.dataset.channelId = channel.id;
    button.addEventListener("click", () => {
      ui.channel = channel.id;
      ui.home = false;
      ui.thread = null;
      render();
      $("composer-input").focus();
    });
    return el("li", "", [button]);
  };
  const channels = ui.data.channels;
  list.replaceChildren(...channels.filter((c) => c.kind === "channel").map(item));
  const direct = channels.filter((c) => c.kind === "dm");
  dms.replaceChildren(...direct.map(item));
  $("apps-title").hidden = direct.length === 0;
}

// ---- sandbox time (embedded sandbox only) ----------------------------------------------------

/** "1 day 2 hours", "3 hours", "45 minutes". */
function duration(ms) {
  const minutes = Math.floor(ms / 60000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const unit = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const parts = [];
  if (days) parts.push(unit(days, "day"));
  if (hours) parts.push(unit(hours, "hour"));
  if (!days && rest) parts.push(unit(rest, "minute"));
  return parts.join(" ");
}

let lastAdvance = "";

function renderSandboxTime() {
  const section = $("sandbox-time");
  const time = ui.data.sandbox ? ui.data.sandboxTime : undefined;
  section.hidden = !time;
  if (!time) return;
  const clock =
    time.aheadMs > 0
      ? `Sandbox clock: ${duration(time.aheadMs)} ahead of real time.`
      : "Sandbox clock: real time. Orders move on as they would in reality.";
  $("sandbox-time-note").textContent = lastAdvance ? `${clock} ${lastAdvance}` : clock;
}

async function advanceSandboxTime(ms, buttons) {
  for (const button of buttons) button.disabled = true;
  try {
    const result = await act(() => post("sandbox/advance", { ms }));
    const orders = result.open === 1 ? "1 open order" : `${result.open} open orders`;
    lastAdvance = `Moved +${duration(ms)}; ${orders} checked now.`;
    render();
  } catch {
    // act() has shown the error.
  } finally {
    for (const button of buttons) button.disabled = false;
  }
}

function wireSandboxTime() {
  const buttons = [...document.querySelectorAll("#sandbox-time [data-advance-ms]")];
  for (const button of buttons) {
    button.addEventListener("click", () =>
      advanceSandboxTime(Number(button.dataset.advanceMs), buttons),
    );
  }
}

// ---- App Home ------------------------------------------------------------------------------------

/** Opening the Home tab: Slack sends the app `app_home_opened`, and the app publishes it. */
function openHome() {
  ui.home = true;
  ui.thread = null;
  render();
  act(() => post("home/open", {})).catch(() => {});
}

let homeKey = null;

function renderHome() {
  const pane = $("home");
  const home = ui.data.home;
  const key = home ? `${ui.user}|${home.id}|${home.hash}` : `${ui.user}|none`;
  if (key === homeKey) return;
  homeKey = key;
  if (!home) {
    pane.replaceChildren(el("p", "home-empty", ["Opening the app's Home…"]));
    return;
  }
  const env = {
    document,
    surface: "message",
    mrkdwn: mrkdwnContext(),
    values: home.values,
    confirm: confirmDialog,
    onAction: (block, element, value) =>
      act(() =>
        post("click", {
          viewId: home.id,
          blockId: block.block_id,
          actionId: element.action_id,
          ...(value === undefined ? {} : { value }),
        }),
      ).catch(() => {}),
  };
  pane.replaceChildren(renderBlocks(env, home.blocks));
}

function currentChannel() {
  const channels = ui.data.channels;
  return channels.find((c) => c.id === ui.channel) ?? channels[0];
}

function render() {
  if (!ui.data) return;
  const data = ui.data;
  $("banner").classList.toggle("live", !data.sandbox);
  if (!data.sandbox) {
    $("banner").textContent =
      "⚠️ Playground with a REAL provider: orders placed here are real. Slack is the local stand-in.";
  }
  renderPeople();
  const channel = currentChannel();
  ui.channel = channel?.id ?? ui.channel;
  renderChannels();
  renderSandboxTime();
  const label = ui.home
    ? "Connect — Home"
    : channel
      ? channel.kind === "dm"
        ? channel.name
        : `#${channel.name}`
      : "";
  $("channel-name").textContent = label;
  $("home-link").classList.toggle("active", ui.home);
  for (const link of document.querySelectorAll("#channels .channel-link, #dms .channel-link")) {
    if (ui.home) link.classList.remove("active");
  }
  $("home").hidden = !ui.home;
  $("messages").hidden = ui.home;
  // The composer's CSS display would win over `hidden`: Home has no message box.
  $("composer").style.display = ui.home ? "none" : "";
  if (ui.home) renderHome();
  $("composer-input").placeholder = `Message ${label} — or /connect help`;
  syncMessages($("messages"), data.messages[ui.channel] ?? [], false, `${ui.user}|${ui.channel}`);

  const pane = $("thread");
  const parent =
    ui.thread && (data.messages[ui.thread.channel] ?? []).find((m) => m.ts === ui.thread.ts);
  if (ui.thread && parent && ui.thread.channel === ui.channel) {
    pane.hidden = false;
    const replies = data.threads[`${ui.thread.channel}:${ui.thread.ts}`] ?? [];
    syncMessages(
      $("thread-messages"),
      [parent, ...replies],
      true,
      `${ui.user}|${ui.thread.channel}|${ui.thread.ts}`,
    );
  } else {
    pane.hidden = true;
  }
  renderModal();
}

/**
 * The people whose state this load of the page has seen. A modal still open from an earlier load
 * (the person reloaded or came back later) is closed, as Slack's client does on reload, rather
 * than coming back on its own.
 */
const seenThisLoad = new Set();

async function closeLeftOpen(modals) {
  for (const view of [...modals].reverse()) {
    try {
      await post("view/close", { viewId: view.id });
    } catch {
      // Already gone (the app closed it meanwhile): nothing to do.
    }
  }
}

let refreshing = 0;
async function refresh() {
  const user = ui.user;
  const ticket = ++refreshing;
  const body = await get("state", { user, ...(ui.version ? { since: ui.version } : {}) });
  // A newer refresh, or a switch of person, has overtaken this one.
  if (user !== ui.user || ticket !== refreshing || !body.changed) return;
  if (!seenThisLoad.has(user)) {
    seenThisLoad.add(user);
    // Once the person has done something on this load, an open modal may be theirs from now.
    if (!ui.acted && Array.isArray(body.modals) && body.modals.length > 0) {
      await closeLeftOpen(body.modals);
      ui.version = 0;
      expectChanges();
      return;
    }
  }
  ui.version = body.version;
  ui.data = body;
  render();
}

async function poll() {
  try {
    await refresh();
    document.body.classList.remove("offline");
  } catch {
    document.body.classList.add("offline");
  }
  setTimeout(poll, Date.now() < ui.fastUntil ? FAST_POLL_MS : POLL_MS);
}

function switchUser(user) {
  ui.user = user;
  ui.version = 0;
  ui.thread = null;
  localStorage.setItem("playground.user", user);
  const url = new URL(location.href);
  url.searchParams.set("user", user);
  history.replaceState(null, "", url);
  expectChanges();
}

async function send(text, threadTs) {
  const trimmed = text.trim();
  if (trimmed === "") return true;
  const channel = threadTs ? ui.thread.channel : ui.channel;
  try {
    if (trimmed.startsWith("/") && !threadTs) {
      await act(() => post("command", { channel, text: trimmed }));
    } else {
      await act(() =>
        post("message", { channel, text: trimmed, ...(threadTs ? { threadTs } : {}) }),
      );
    }
    return true;
  } catch {
    return false;
  }
}

function wireComposer(formId, inputId, thread) {
  const form = $(formId);
  const input = $(inputId);
  const submit = async () => {
    const ok = await send(input.value, thread ? ui.thread?.ts : undefined);
    if (ok) input.value = "";
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      submit();
    }
  });
}

$("user").addEventListener("change", (event) => {
  switchUser(event.target.value);
  // Each person has their own Home: opening it as the new person asks the app for theirs.
  if (ui.home) openHome();
});
$("home-link").addEventListener("click", openHome);
// Narrow windows: the sidebar is a panel the menu button opens; picking a channel closes it.
$("menu-toggle").addEventListener("click", () => {
  const open = document.body.classList.toggle("sidebar-open");
  $("menu-toggle").setAttribute("aria-expanded", String(open));
});
document.querySelector(".sidebar").addEventListener("click", (event) => {
  if (event.target.closest(".channel-link")) {
    document.body.classList.remove("sidebar-open");
    $("menu-toggle").setAttribute("aria-expanded", "false");
  }
});
$("thread-close").addEventListener("click", () => {
  ui.thread = null;
  render();
});
wireComposer("composer", "composer-input", false);
wireComposer("thread-composer", "thread-input", true);
wireSandboxTime();
poll();
