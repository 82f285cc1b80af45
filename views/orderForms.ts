// What only the order forms' modals share (layer 2, IO-D; the kit's open-then-fill too): the
// private_metadata saying where to answer and which price was shown, a port as an option, and
// the loading and problem modals shown while a form is opened. Their inputs are built with the
// generic pieces of inputs.ts (which says why typed inputs dispatch).
import type { KnownBlock, ModalView, PlainTextOption } from "@slack/types";
import { remainingCapacity } from "../src/domain/catalog/connections.js";
import type { Port } from "../src/provider/api.js";
import type { Loaded } from "../src/usecases/shared/orderForms.js";
import { escapeMrkdwn, LIMITS, option, section, truncate, withSandboxLabel } from "./blocks.js";
import { formatMbps, formatSpeed } from "./format.js";
import { inputBlock, modalView, plainText, staticSelect } from "./inputs.js";
import { channelIdField, metadataFields } from "./modalMetadata.js";

// ---------------------------------------------------------------------------------------------
// private_metadata: where to answer, and which price the person was shown

export interface OrderModalMetadata {
  /** The channel the command came from: the confirmation is posted there, privately. */
  channelId?: string;
  /** The key of the price the modal shows (a layer 2 connection). */
  priceKey?: string;
}

const PRICE_KEY = /^[A-Za-z0-9_-]{1,64}$/;

export function encodeOrderMetadata(metadata: OrderModalMetadata): string {
  return JSON.stringify({
    ...(metadata.channelId ? { c: metadata.channelId } : {}),
    ...(metadata.priceKey ? { p: metadata.priceKey } : {}),
  });
}

/** Reads what encodeOrderMetadata wrote; anything else reads as empty. */
export function parseOrderMetadata(text: unknown): OrderModalMetadata {
  const fields = metadataFields(text);
  const { p } = fields;
  return {
    ...channelIdField(fields),
    ...(typeof p === "string" && PRICE_KEY.test(p) ? { priceKey: p } : {}),
  };
}

/** A port as a select option: name and speed; where it is and its free capacity below. */
export function portOption(port: Port): PlainTextOption {
  const name = port.name?.trim() || port.id;
  const speed = port.speed?.value;
  const free = remainingCapacity(port);
  const details = [
    port.dataCenterFacility?.name ?? port.metro?.name,
    free !== undefined ? `${formatMbps(free)} free` : undefined,
    port.status && port.status !== "ACTIVE" ? port.status : undefined,
  ].filter((d): d is string => typeof d === "string" && d !== "");
  return option(
    typeof speed === "number" ? `${truncate(name, 60)} · ${formatSpeed(speed)}` : name,
    port.id,
    details.length > 0 ? details.join(" · ") : undefined,
  );
}

/** The port an order starts at: the person's ports as a select, or why there is none. */
export function yourPortBlocks(
  ports: Loaded<Port[]>,
  input: {
    blockId: string;
    actionId: string;
    label: string;
    chosenId: string | undefined;
    hint: string;
    /** Mrkdwn the caller wrote: what to do when there is no port to choose. */
    noPorts: string;
    /** Each port's option as this form shows it (default `portOption`), in this order. */
    options?: (ports: readonly Port[]) => PlainTextOption[];
  },
): KnownBlock[] {
  if (!ports.ok) {
    return [section(`:warning: Couldn't list your ports: ${escapeMrkdwn(ports.problem)}`)];
  }
  if (ports.value.length === 0) return [section(input.noPorts)];
  return [
    inputBlock(
      input.blockId,
      input.label,
      staticSelect(
        input.actionId,
        input.options ? input.options(ports.value) : ports.value.map(portOption),
        input.chosenId,
        "Choose one of your ports",
      ),
      // What is offered next depends on the port: Slack tells the app when it changes.
      { hint: plainText(input.hint), dispatch_action: true },
    ),
  ];
}

/** An order form: Request approval or Cancel, sandbox-labelled, within Slack's block limit. */
export function orderFormModal(
  callbackId: string,
  title: string,
  blocks: KnownBlock[],
  metadata: OrderModalMetadata,
  sandbox: boolean,
): ModalView {
  return modalView(
    callbackId,
    title,
    withSandboxLabel(blocks, sandbox).slice(0, LIMITS.modalBlocks),
    { submit: "Request approval", close: "Cancel" },
    encodeOrderMetadata(metadata),
  );
}

/** Shown at once (Slack's trigger lasts 3 s), replaced when the ports are loaded. */
export function orderLoadingModal(
  callbackId: string,
  title: string,
  what: string,
  sandbox: boolean,
): ModalView {
  return noticeModal(
    callbackId,
    title,
    `:hourglass_flowing_sand: Loading ${what}…`,
    "Cancel",
    sandbox,
  );
}

/** The form could not be loaded at all: say why, no submit button. */
export function orderProblemModal(
  callbackId: string,
  title: string,
  problem: string,
  sandbox: boolean,
): ModalView {
  return noticeModal(callbackId, title, problem, "Close", sandbox);
}

/** A form's modal that only says something (no inputs, no submit button). */
function noticeModal(
  callbackId: string,
  title: string,
  text: string,
  close: string,
  sandbox: boolean,
): ModalView {
  return modalView(callbackId, title, withSandboxLabel([section(text)], sandbox), { close });
}
