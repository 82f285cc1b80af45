import { renderBlocks } from "./blocks.js";
import { $, blocksEnv, el, hue, initials, mrkdwnContext, page, timeOf, ui } from "./client.js";
import { renderMrkdwn } from "./mrkdwn.js";

/**
 * Messages in a channel or a thread: one message with its blocks, author and replies link, and
 * the list kept in step with the state without tearing down what the person is using.
 */

function messageEnv(message) {
  return blocksEnv(
    "message",
    { channel: message.channel, ts: message.ts },
    { people: [], channels: [], onInput: () => {}, suggest: async () => [] },
  );
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
  for (const file of message.files ?? []) body.append(fileNode(file));
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

/** "2.4 kB", "312 B". */
function sizeText(bytes) {
  return bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(1)} kB`;
}

/** A file shared with the message (Export CSV): its name and a download link (issue 32, item 6). */
function fileNode(file) {
  const query = new URLSearchParams({ user: ui.user, id: file.id });
  const link = el("a", "file-link", [file.title]);
  link.href = `/playground/api/file?${query}`;
  link.download = file.name;
  return el("div", "file", [
    el("span", "file-icon", ["📄"]),
    el("span", "file-body", [
      link,
      el("span", "file-meta", [`${file.name} · ${sizeText(file.size)}`]),
    ]),
  ]);
}

/** Re-renders only messages that changed, so a select someone is using is not torn down. */
export function syncMessages(container, messages, inThread, scopeKey) {
  const nearBottom =
    container.scrollHeight - container.scrollTop - container.clientHeight < 80 ||
    container.dataset.scope !== scopeKey;
  const cache = container.cache ?? new Map();
  if (container.dataset.scope !== scopeKey) cache.clear();
  const next = new Map();
  const nodes = [];
  for (const message of messages) {
    // Whose state it is (and their time zone), not who was picked last: right after a switch of
    // person the page may render once with the previous person's state (issue 32, item 10).
    const me = ui.data?.me;
    const signature = `${ui.user}|${me?.id}|${me?.tz}|${JSON.stringify(message)}`;
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
  page.render();
  $("thread-input").focus();
}
