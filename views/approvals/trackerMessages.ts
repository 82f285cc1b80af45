/**
 * The words of tracking: the status line, a status change, the final message, the deadline, the
 * weekly LOA reminder and the reminder while a partner has not accepted. Plain mrkdwn text (the
 * thread's messages need no buttons); anything that came from the provider is escaped, since a
 * status could carry Slack markup. Which statuses end or wait is decided in
 * src/domain/tracking/statuses.ts (the LOA in src/domain/tracking/loa.ts); when to say it, in the tracker
 * (src/orders/tracking). Here only how it is said: `trackerMessages` is what the tracker's reports
 * speak with (the shape is src/orders/tracking/messages.ts).
 */

import { isLoaSettled, loaStatusWords } from "../../src/domain/tracking/loa.js";
import {
  type Awaited,
  isTerminalStatus,
  statusEnding,
  statusKey,
  statusWaitsOn,
  TRACK_TARGET_LABEL,
  TRACK_TARGET_NOUN,
} from "../../src/domain/tracking/statuses.js";
import {
  type OrderKind,
  type OrderRef,
  type OrderSnapshot,
  type PortSummary,
  portToFollow,
  targetKindOf,
} from "../../src/domain/tracking/trackedOrder.js";
import type { TrackerMessages } from "../../src/orders/tracking/messages.js";
import { escapeMrkdwn } from "../blocks.js";

/**
 * The LOA status in words (src/domain/tracking/loa.ts), escaped for mrkdwn.
 */
function loaText(loaStatus: string | null | undefined): string | undefined {
  const words = loaStatusWords(loaStatus);
  return words === undefined ? undefined : escapeMrkdwn(words, 60);
}

/**
 * A port's speed as an order read gives it (Mbps as a number, or the provider's text such as
 * "10000 Mbps") in Gbps or Mbps words; text that is not a speed is kept, escaped. Not
 * src/domain/units.ts formatSpeed: that one is the compact form ("10G") of a known number.
 */
export function portSpeedText(speed: number | string | undefined): string | undefined {
  if (speed === undefined) return undefined;
  const mbps = typeof speed === "number" ? speed : Number(String(speed).replace(/\s*mbps$/i, ""));
  if (!Number.isFinite(mbps) || mbps <= 0) return escapeMrkdwn(String(speed), 40);
  if (mbps >= 1000 && mbps % 1000 === 0) return `${mbps / 1000} Gbps`;
  if (mbps >= 1000) return `${(mbps / 1000).toFixed(1)} Gbps`;
  return `${mbps} Mbps`;
}

function statusPhrase(status: string, loaStatus: string | undefined): string {
  const words = loaText(loaStatus);
  const loa = words ? `, LOA *${words}*` : "";
  return `*${escapeMrkdwn(status, 60)}*${loa}`;
}

function orderName(ref: OrderRef): string {
  return `${TRACK_TARGET_LABEL[targetKindOf(ref)]} \`${escapeMrkdwn(ref.orderId, 128)}\``;
}

/** `orderName` inside a sentence. */
function orderNoun(ref: OrderRef): string {
  return `${TRACK_TARGET_NOUN[targetKindOf(ref)]} \`${escapeMrkdwn(ref.orderId, 128)}\``;
}

/** The command that shows it again. */
function checkCommand(ref: OrderRef): string {
  const id = escapeMrkdwn(ref.orderId, 128);
  switch (targetKindOf(ref)) {
    case "port-order":
    case "edge-order":
      return `\`/connect order ${id}\``;
    case "port":
      return `\`/connect port ${id}\``;
    case "layer2":
      return `\`/connect l2 ${id}\``;
    case "iod":
      return `\`/connect iod ${id}\``;
  }
}

function isOrder(ref: OrderRef): boolean {
  const kind = targetKindOf(ref);
  return kind === "port-order" || kind === "edge-order";
}

/** Who is awaited, in words: the read's own answer first, then the request's destination. */
function awaitedParty(ref: OrderRef, snapshot: OrderSnapshot, awaited: Awaited): string {
  const named = snapshot.waitingOn ?? ref.counterparty;
  if (named) return `\`${escapeMrkdwn(named, 80)}\``;
  switch (awaited) {
    case "other-company":
      return "the other company";
    case "partner":
      return "the cloud or partner";
    case "provider":
      return "the provider";
    case "customer":
      return "you";
  }
}

/** A few words on who or what a status waits on; waiting on people is normal, not a failure. */
function waitHint(ref: OrderRef, snapshot: OrderSnapshot): string | undefined {
  const kind = targetKindOf(ref);
  const awaited = statusWaitsOn(kind, snapshot.status);
  if (awaited === "other-company" || awaited === "partner") {
    return `Waiting for ${awaitedParty(ref, snapshot, awaited)} to accept it: a normal wait, not a failure.`;
  }
  if (awaited === "customer") {
    return "Allocated: waiting for the physical connection (the cross connect).";
  }
  const key = statusKey(snapshot.status);
  const orderHint =
    kind === "port-order" || kind === "edge-order" ? ORDER_HINTS.get(key) : undefined;
  return orderHint ?? HINTS.get(key);
}

/** What a port or Edge order's status means while it is under way, by status key. */
const ORDER_HINTS: ReadonlyMap<string, string> = new Map([
  ["created", "Waiting for the provider's administrators to approve it."],
  ["allocated", "The port is allocated."],
  ["activating", "The provider is provisioning the port."],
  ["progressing", "The provider is provisioning the port."],
  ["processing", "The provider is provisioning the port."],
]);

/** What any target's status means while it is under way, by status key. */
const HINTS: ReadonlyMap<string, string> = new Map([
  ["accepted", "Accepted: the provider is setting it up."],
  ["manual", "The provider is setting it up by hand."],
  ["creating", "The provider is creating it."],
]);

/**
 * The status line of a message the caller asked to keep current in place (`statusMessageTs`,
 * e.g. a thread's root): it says whether tracking goes on, ended, or was stopped early.
 */
export function statusLineText(
  ref: OrderRef,
  snapshot: OrderSnapshot,
  sinceIso: string,
  stoppedEarly = false,
): string {
  const ended = isTerminalStatus(targetKindOf(ref), snapshot.status);
  const tail = ended
    ? "tracking ended"
    : stoppedEarly
      ? "tracking stopped"
      : `tracking since ${escapeMrkdwn(sinceIso.slice(0, 10))}`;
  return `${orderName(ref)}: ${statusPhrase(snapshot.status, snapshot.loaStatus)} (${tail})`;
}

/**
 * The thread's reply when tracking starts (its first read). Posted once and never edited: each
 * change follows as its own reply, so the thread reads top to bottom.
 */
export function trackingStartedText(ref: OrderRef, snapshot: OrderSnapshot): string {
  const hint = waitHint(ref, snapshot);
  return `:mag: Tracking ${orderNoun(ref)}: ${statusPhrase(snapshot.status, snapshot.loaStatus)}.${hint ? ` ${hint}` : ""} Each change is posted in this thread.`;
}

/** The thread reply for a change of status or LOA status. */
export function changeText(
  ref: OrderRef,
  previous: { status?: string; loaStatus?: string },
  next: OrderSnapshot,
): string {
  const statusChanged = statusKey(previous.status) !== statusKey(next.status);
  const parts: string[] = [];
  if (statusChanged) {
    parts.push(
      previous.status
        ? `status ${escapeMrkdwn(previous.status, 60)} → *${escapeMrkdwn(next.status, 60)}*`
        : `status *${escapeMrkdwn(next.status, 60)}*`,
    );
  }
  if ((previous.loaStatus ?? "") !== (next.loaStatus ?? "")) {
    const now = loaText(next.loaStatus) ?? "none";
    const before = loaText(previous.loaStatus);
    parts.push(before ? `LOA ${before} → *${now}*` : `LOA *${now}*`);
  }
  const hint = waitHint(ref, next);
  return `${orderName(ref)}: ${parts.join(", ")}.${hint ? ` ${hint}` : ""}`;
}

/** What comes after a finished order; the LOA only while its step is not settled. */
function nextStep(kind: OrderKind, snapshot: OrderSnapshot): string {
  const portActive = statusEnding("port", snapshot.port?.status) === "success";
  if (kind === "edge" && portActive) return "The Edge port is ACTIVE.";
  if (kind !== "edge" && isLoaSettled(snapshot.loaStatus)) {
    return portActive
      ? "The LOA step is complete and the port is ACTIVE."
      : "The LOA step is complete: the port goes ACTIVE once the cross connect is installed.";
  }
  switch (kind) {
    case "off-net":
      return "Next: the LOA. For this extended (off-net) location the provider orders the interconnect through a partner; the LOA can take 4–6 weeks and is forwarded by email to whoever placed the order (it can also be downloaded from the port order). Then the cross connect is installed and the port goes ACTIVE.";
    case "edge": {
      const portId = snapshot.port?.id ? escapeMrkdwn(snapshot.port.id, 100) : "&lt;portId&gt;";
      return `Next: activation. The Edge port is provisioned by the provider's partner; check it with \`/connect port ${portId}\` until it is ACTIVE.`;
    }
    default:
      return "Next: the LOA. The person who placed the order gets an email with the LOA step (on-net, the LOA is ready in about 24 hours); order the cross connect with it, and the port goes ACTIVE once it is connected.";
  }
}

function portDetails(port: PortSummary | undefined): string[] {
  const details: string[] = [];
  if (port?.name) details.push(`*${escapeMrkdwn(port.name, 100)}*`);
  if (port?.id) details.push(`id \`${escapeMrkdwn(port.id, 100)}\``);
  const speed = portSpeedText(port?.speed);
  if (speed) details.push(speed);
  if (port?.location) details.push(`at ${escapeMrkdwn(port.location, 100)}`);
  return details;
}

function successText(ref: OrderRef, snapshot: OrderSnapshot): string {
  const kind = targetKindOf(ref);
  if (kind === "port-order" || kind === "edge-order") {
    const details = portDetails(snapshot.port);
    const portText = details.length > 0 ? ` New port: ${details.join(", ")}.` : "";
    const followed = portToFollow(ref, snapshot);
    const after = followed
      ? `The port is *${escapeMrkdwn(snapshot.port?.status ?? "", 60)}*: I'll follow it here until it is ACTIVE.`
      : nextStep(ref.kind, snapshot);
    return `:white_check_mark: ${orderName(ref)} is done.${portText}\n${after}`;
  }
  const details = kind === "port" ? portDetails(snapshot.port) : [];
  const detailText = details.length > 0 ? ` (${details.join(", ")})` : "";
  return `:white_check_mark: ${orderName(ref)} is *${escapeMrkdwn(snapshot.status, 60)}*${detailText}. Tracking has ended.`;
}

/** The final message at a terminal status. */
export function finalText(ref: OrderRef, snapshot: OrderSnapshot): string {
  const ending = statusEnding(targetKindOf(ref), snapshot.status) ?? "failed";
  const reason = snapshot.details ? ` (${escapeMrkdwn(snapshot.details, 200)})` : "";
  if (ending === "success") return successText(ref, snapshot);
  if (ending === "cancelled") {
    const word =
      statusKey(snapshot.status) === "cancelled"
        ? "was cancelled"
        : `is *${escapeMrkdwn(snapshot.status, 60)}*`;
    return `:no_entry_sign: ${orderName(ref)} ${word}${reason}. Tracking has ended.`;
  }
  if (statusKey(snapshot.status) === "denied") {
    const who = awaitedParty(ref, snapshot, "other-company");
    return `:no_entry: ${orderName(ref)} was *${escapeMrkdwn(snapshot.status, 60)}*: ${who} did not accept it${reason}. Nothing more will happen on its own: talk to them, or order again with another destination.`;
  }
  return `:x: ${orderName(ref)} ended with status *${escapeMrkdwn(snapshot.status, 60)}*${reason}. Nothing more will happen on its own: check ${isOrder(ref) ? "the order" : "it"} with ${checkCommand(ref)} or contact the provider's support.`;
}

export function deadlineText(
  ref: OrderRef,
  days: number,
  last: { status?: string; loaStatus?: string },
): string {
  const status = last.status ? statusPhrase(last.status, last.loaStatus) : "*never read*";
  return `:hourglass: Stopped tracking ${orderNoun(ref)} after ${days} days; last status ${status}. Check it with ${checkCommand(ref)}.`;
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
  const loa = loaText(loaStatus) ?? "waiting";
  return `:calendar: ${orderName(ref)}: the LOA is still *${loa}* after ${weeks} week${weeks === 1 ? "" : "s"}. ${wait} (tracking for <@${requestedBy}>)`;
}

/** The requester's direct message while the other company, cloud or partner has not accepted. */
export function acceptanceReminderText(
  ref: OrderRef,
  snapshot: OrderSnapshot,
  days: number,
  thread: { channel: string },
): string {
  const awaited = statusWaitsOn(targetKindOf(ref), snapshot.status) ?? "other-company";
  const who = awaitedParty(ref, snapshot, awaited);
  return `:hourglass_flowing_sand: ${orderName(ref)} has been *${escapeMrkdwn(snapshot.status, 60)}* for ${days} day${days === 1 ? "" : "s"}: ${who} has not accepted it yet. That is their step, not a failure; you may want to remind them. Updates follow in its thread in <#${thread.channel}>.`;
}

export function stoppedText(ref: OrderRef, by: string): string {
  return `Tracking of ${orderNoun(ref)} was stopped by <@${by}>.`;
}

/** The tracker's words (src/orders/tracking/reports.ts speaks with them). */
export const trackerMessages: TrackerMessages = {
  statusLineText,
  trackingStartedText,
  changeText,
  finalText,
  deadlineText,
  reminderText,
  acceptanceReminderText,
  stoppedText,
};
