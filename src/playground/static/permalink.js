import { $, page, toast, ui } from "./client.js";

/**
 * Arriving from a Slack permalink (issue 32, item 5). *View in approvals* opens the link
 * `chat.getPermalink` gave, `/archives/C…/p…`; the stand-in answers it with this page at
 * `?channel=C…&message=<ts>` (and `&thread=<ts>` for a reply). Once the state is in, the page
 * shows that channel (and thread), scrolls the message into view and highlights it, once.
 */

const params = new URLSearchParams(location.search);
let target = params.get("message")
  ? { channel: params.get("channel"), ts: params.get("message"), thread: params.get("thread") }
  : null;

function forget() {
  target = null;
  // A reload stays in the channel but does not jump again.
  const url = new URL(location.href);
  url.searchParams.delete("message");
  url.searchParams.delete("thread");
  history.replaceState(null, "", url);
}

/** Called after every render; does something only until the linked message was shown. */
export function followPermalink() {
  if (!target || !ui.data) return;
  const channel = ui.data.channels.find((c) => c.id === target.channel);
  if (!channel) {
    forget();
    toast("That message is in a conversation you cannot see.");
    return;
  }
  if (ui.channel !== channel.id || ui.home) {
    ui.channel = channel.id;
    ui.home = false;
    page.render();
    return;
  }
  const { thread } = target;
  if (thread && thread !== target.ts && ui.thread?.ts !== thread) {
    ui.thread = { channel: channel.id, ts: thread };
    page.render();
    return;
  }
  const container = thread && thread !== target.ts ? $("thread-messages") : $("messages");
  const row = [...container.querySelectorAll(".message")].find((m) => m.dataset.ts === target.ts);
  forget();
  if (!row) {
    toast(
      `That message is no longer in #${channel.name} (the playground starts afresh on every run).`,
    );
    return;
  }
  row.classList.add("linked");
  row.scrollIntoView({ block: "center" });
}
