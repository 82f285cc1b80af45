import { renderBlocks } from "./blocks.js";
import { $, act, BOT_DOWN, blocksEnv, el, expectChanges, get, page, post, ui } from "./client.js";
import { forgetFaults, renderFaults, wireFaults } from "./faults.js";
import { syncMessages } from "./messages.js";
import { renderModal } from "./modals.js";
import { followPermalink } from "./permalink.js";

/**
 * The playground page: a Slack-like client over the stand-in's JSON API (/playground/api/…).
 * It polls the workspace state (every second, faster right after the person did something,
 * since the bot acks first and answers a moment later) and sends what the person does:
 * commands, messages, clicks, modal input, submit and close. No framework; everything shown is
 * built with DOM calls, so no text from the bot or the provider is ever parsed as HTML. This is
 * the page itself (people, channels, Home, sandbox time, polling, the composer); shared pieces
 * are in client.js, messages in messages.js, the modal in modals.js.
 */

const POLL_MS = 1000;
const FAST_POLL_MS = 250;

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
  const env = blocksEnv("message", { viewId: home.id }, { values: home.values });
  pane.replaceChildren(renderBlocks(env, home.blocks));
}

/** A phone's message box holds "Message #channel" but not the hint after it (issue 32, item 24). */
const NARROW = window.matchMedia("(max-width: 700px)");

function composerPlaceholder(label) {
  return NARROW.matches ? `Message ${label}` : `Message ${label} — or /connect help`;
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
  $("composer-input").placeholder = composerPlaceholder(label);
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
  renderFaults();
  followPermalink();
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

// ---- run notices: the bot restarted, or is not answering (issue 32, item 7) -------------------

const RESTARTED = "The playground restarted: everything was reset.";

function showNotice(kind, text) {
  const notice = $("run-notice");
  notice.dataset.kind = kind;
  $("run-notice-text").textContent = text;
  notice.hidden = false;
}

function hideNotice(kind) {
  const notice = $("run-notice");
  if (!kind || notice.dataset.kind === kind) notice.hidden = true;
}

/**
 * Each run of the playground starts afresh (its workspace is in memory, the bot's keys are
 * removed at start-up). A new run id means the page's channels, threads and modals are gone:
 * say so, and start over from the first channel rather than show a thread that is no more.
 */
function noticeNewRun(runId) {
  if (!runId) return false;
  if (ui.runId === undefined) {
    ui.runId = runId;
    return false;
  }
  if (runId === ui.runId) return false;
  ui.runId = runId;
  ui.version = 0;
  ui.thread = null;
  ui.home = false;
  ui.channel = "C0GENERAL1";
  seenThisLoad.clear();
  lastAdvance = "";
  forgetFaults();
  $("toast").hidden = true;
  showNotice("restarted", RESTARTED);
  return true;
}

let refreshing = 0;
async function refresh() {
  const user = ui.user;
  const ticket = ++refreshing;
  const body = await get("state", { user, ...(ui.version ? { since: ui.version } : {}) });
  // A newer refresh, or a switch of person, has overtaken this one.
  if (user !== ui.user || ticket !== refreshing) return;
  // A new run may by chance be at the version the page last saw: read its state in full.
  if (noticeNewRun(body.runId) && !body.changed) return refresh();
  if (!body.changed) return;
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
    hideNotice("down");
  } catch (error) {
    document.body.classList.add("offline");
    if (error?.botDown) showNotice("down", BOT_DOWN);
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
wireFaults();
NARROW.addEventListener("change", () => render());
$("run-notice-close").addEventListener("click", () => hideNotice());
page.refresh = refresh;
page.render = render;
poll();
