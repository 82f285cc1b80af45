import { escapeMrkdwn } from "../../views/blocks.js";

/**
 * The words of order tracking: the status line, a status change, the final message, the
 * deadline, the weekly LOA reminder. Plain mrkdwn text (the thread's messages need no buttons);
 * anything that came from the provider is escaped, since a status could carry Slack markup.
 */

export type OrderKind = "on-net" | "off-net" | "edge";

export interface PortSummary {
  id?: string;
  name?: string;
  /** Mbps, as a number or the provider's text (e.g. "10000 Mbps"). */
  speed?: number | string;
  location?: string;
}

/** What a tracker reads from the provider at each step (see tracker.ts `ReadOrder`). */
export interface OrderSnapshot {
  status: string;
  loaStatus?: string;
  port?: PortSummary;
}

/** Port order statuses that end tracking (provider-notes), compared case-insensitively. */
export const TERMINAL_ORDER_STATUSES = ["done", "error", "cancelled"] as const;

export function normalizeStatus(status: string | undefined): string {
  return (status ?? "").trim().toLowerCase();
}

export function isTerminalOrderStatus(status: string): boolean {
  return (TERMINAL_ORDER_STATUSES as readonly string[]).includes(normalizeStatus(status));
}

/**
 * The spec shows only `TODO` for loaStatus (at creation). Values that plainly mean "nothing to
 * wait for" end the reminders; anything else, including unknown values, counts as waiting.
 */
const LOA_SETTLED = new Set([
  "done",
  "complete",
  "completed",
  "received",
  "approved",
  "uploaded",
  "accepted",
  "not_required",
  "not required",
  "n/a",
  "na",
]);

export function isLoaWaiting(loaStatus: string | undefined): boolean {
  if (loaStatus === undefined || loaStatus.trim() === "") return false;
  return !LOA_SETTLED.has(normalizeStatus(loaStatus));
}

export function formatSpeed(speed: number | string | undefined): string | undefined {
  if (speed === undefined) return undefined;
  const mbps = typeof speed === "number" ? speed : Number(String(speed).replace(/\s*mbps$/i, ""));
  if (!Number.isFinite(mbps) || mbps <= 0) return escapeMrkdwn(String(speed), 40);
  if (mbps >= 1000 && mbps % 1000 === 0) return `${mbps / 1000} Gbps`;
  if (mbps >= 1000) return `${(mbps / 1000).toFixed(1)} Gbps`;
  return `${mbps} Mbps`;
}

function statusPhrase(status: string, loaStatus: string | undefined): string {
  const loa = loaStatus ? `, LOA *${escapeMrkdwn(loaStatus, 60)}*` : "";
  return `*${escapeMrkdwn(status, 60)}*${loa}`;
}

export interface OrderRef {
  orderId: string;
  kind: OrderKind;
}

function orderName(ref: OrderRef): string {
  const label = ref.kind === "edge" ? "Edge port order" : "Port order";
  return `${label} \`${escapeMrkdwn(ref.orderId, 128)}\``;
}

/** The status line kept up to date in place (chat.update). */
export function statusLineText(ref: OrderRef, snapshot: OrderSnapshot, sinceIso: string): string {
  const ended = isTerminalOrderStatus(snapshot.status);
  const tail = ended ? "tracking ended" : `tracking since ${escapeMrkdwn(sinceIso.slice(0, 10))}`;
  return `${orderName(ref)}: ${statusPhrase(snapshot.status, snapshot.loaStatus)} (${tail})`;
}

/** The thread reply for a change of status or LOA status. */
export function changeText(
  ref: OrderRef,
  previous: { status?: string; loaStatus?: string },
  next: OrderSnapshot,
): string {
  const statusChanged = normalizeStatus(previous.status) !== normalizeStatus(next.status);
  const parts: string[] = [];
  if (statusChanged) {
    parts.push(
      previous.status
        ? `status ${escapeMrkdwn(previous.status, 60)} → *${escapeMrkdwn(next.status, 60)}*`
        : `status *${escapeMrkdwn(next.status, 60)}*`,
    );
  }
  if ((previous.loaStatus ?? "") !== (next.loaStatus ?? "")) {
    parts.push(
      previous.loaStatus
        ? `LOA ${escapeMrkdwn(previous.loaStatus, 60)} → *${escapeMrkdwn(next.loaStatus ?? "none", 60)}*`
        : `LOA *${escapeMrkdwn(next.loaStatus ?? "none", 60)}*`,
    );
  }
  const hint = statusHint(next.status);
  return `${orderName(ref)}: ${parts.join(", ")}.${hint ? ` ${hint}` : ""}`;
}

function statusHint(status: string): string | undefined {
  switch (normalizeStatus(status)) {
    case "created":
      return "Waiting for the provider's administrators to approve it.";
    case "allocated":
      return "The port is allocated.";
    case "activating":
    case "progressing":
    case "processing":
      return "The provider is provisioning the port.";
    default:
      return undefined;
  }
}

function nextStep(kind: OrderKind): string {
  switch (kind) {
    case "off-net":
      return "Next: the LOA. For this extended (off-net) location the provider orders the interconnect through a partner; the LOA can take 4–6 weeks and is forwarded by email to whoever placed the order (it can also be downloaded from the port order). Then the cross connect is installed and the port goes ACTIVE.";
    case "edge":
      return "Next: activation. The Edge port is provisioned by the provider's partner; check the port with `/connect port &lt;id&gt;` until it is ACTIVE.";
    default:
      return "Next: the LOA. The person who placed the order gets an email with the LOA step (on-net, the LOA is ready in about 24 hours); order the cross connect with it, and the port goes ACTIVE once it is connected.";
  }
}

/** The final message at a terminal status. */
export function finalText(ref: OrderRef, snapshot: OrderSnapshot): string {
  const status = normalizeStatus(snapshot.status);
  if (status === "done") {
    const port = snapshot.port;
    const details: string[] = [];
    if (port?.name) details.push(`*${escapeMrkdwn(port.name, 100)}*`);
    if (port?.id) details.push(`id \`${escapeMrkdwn(port.id, 100)}\``);
    const speed = formatSpeed(port?.speed);
    if (speed) details.push(speed);
    if (port?.location) details.push(`at ${escapeMrkdwn(port.location, 100)}`);
    const portText = details.length > 0 ? ` New port: ${details.join(", ")}.` : "";
    return `:white_check_mark: ${orderName(ref)} is done.${portText}\n${nextStep(ref.kind)}`;
  }
  if (status === "cancelled") {
    return `:no_entry_sign: ${orderName(ref)} was cancelled. Tracking has ended.`;
  }
  return `:x: ${orderName(ref)} ended with status *${escapeMrkdwn(snapshot.status, 60)}*. Nothing more will happen on its own: check the order with \`/connect order ${escapeMrkdwn(ref.orderId, 128)}\` or contact the provider's support.`;
}

export function deadlineText(
  ref: OrderRef,
  days: number,
  last: { status?: string; loaStatus?: string },
): string {
  const status = last.status ? statusPhrase(last.status, last.loaStatus) : "*never read*";
  return `:hourglass: Stopped tracking ${orderName(ref)} after ${days} days; last status ${status}. Check it with \`/connect order ${escapeMrkdwn(ref.orderId, 128)}\`.`;
}

export function reminderText(
  ref: OrderRef,
  weeks: number,
  loaStatus: string,
  requestedBy: string,
): string {
  const wait =
    ref.kind === "off-net"
      ? "Off-net LOAs take 4–6 weeks: the provider obtains the LOA from a partner and forwards it by email."
      : "On-net LOAs are usually ready within about 24 hours: check the LOA email sent to whoever placed the order, or download the LOA from the port order.";
  return `:calendar: ${orderName(ref)}: the LOA is still *${escapeMrkdwn(loaStatus, 60)}* after ${weeks} week${weeks === 1 ? "" : "s"}. ${wait} (tracking for <@${requestedBy}>)`;
}

export function stoppedText(ref: OrderRef, by: string): string {
  return `Tracking of ${orderName(ref)} was stopped by <@${by}>.`;
}
