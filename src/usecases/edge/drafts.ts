import {
  countryName,
  EDGE_NAME_MAX,
  type EdgeQuotationRequest,
  type EdgeQuote,
  type EdgeRecord,
  num,
  PRINTABLE,
  requestMbps,
  text,
} from "../../domain/catalog/edge.js";
import { isRecord } from "../../domain/records.js";
import { formatTerm } from "../../domain/units.js";
import type { DraftOrder, DraftOrderRequest } from "../../provider/api.js";
import { edgeDraftOrderRule } from "../../provider/rules/edge.js";
import type { CatalogueDeps } from "./catalogue.js";
import { readStoredRequest } from "./quote.js";

/**
 * Edge drafts: a quote saved as a provider draft order (its name, its body holding the request,
 * the quote and who saved it), renaming one, and finding one (the provider has no single-draft
 * read).
 */

/** Where the Slack user who saved a draft is kept in its edgePayload (Delete is theirs only). */
export const SAVED_BY_FIELD = "savedBySlackUser";

/** A draft's name from its request: "Edge Singapore 1 Gbps 12 months". */
export function defaultDraftName(request: EdgeQuotationRequest): string {
  const term = num(request["contract-term"]);
  return `Edge ${countryName(request.country)} ${request.bandwidth} ${request.bandwidthUnit} ${formatTerm(term, request.contractTermUnit)}`
    .replace(/\s+/g, " ")
    .slice(0, EDGE_NAME_MAX);
}

/**
 * A draft's body: everything needed to recreate the form (the quotation request's fields, at
 * the top level as "form parameters") and the quote (its key, discount and offers as the
 * provider returned them), plus who saved it.
 */
export function draftBody(input: {
  request: EdgeQuotationRequest;
  quote: EdgeQuote;
  savedBy: string;
  name?: string;
}): DraftOrderRequest {
  const speed = requestMbps(input.request) ?? 0;
  const edgePayload: EdgeRecord = {
    ...input.request,
    responseId: input.quote.responseId,
    quoteKey: input.quote.responseId,
    ...(input.quote.discountCode ? { discountCode: input.quote.discountCode } : {}),
    offers: input.quote.offers.map((o) => o.raw),
    [SAVED_BY_FIELD]: input.savedBy,
  };
  return edgeDraftOrderRule.parse({
    name: input.name ?? defaultDraftName(input.request),
    speed,
    edgePayload,
  });
}

export type DraftNameCheck = { ok: true; name: string } | { ok: false; message: string };

export function checkDraftName(value: unknown): DraftNameCheck {
  const name = typeof value === "string" ? value.trim() : "";
  if (name === "") return { ok: false, message: "Enter a name for the draft" };
  if (!PRINTABLE.test(name)) {
    return { ok: false, message: "Draft name can't contain line breaks or control characters" };
  }
  const parsed = edgeDraftOrderRule.shape.name.safeParse(name);
  if (!parsed.success) {
    return { ok: false, message: parsed.error.issues[0]?.message ?? "Not a valid name" };
  }
  return { ok: true, name };
}

/**
 * The body that renames a draft: PATCH needs speed and edgePayload again, so they are sent as
 * they are (the speed from the saved request when the record lacks it). Undefined when the
 * speed can't be known: guessing one would change the draft.
 */
export function renameBody(draft: DraftOrder, name: string): DraftOrderRequest | undefined {
  const payload = isRecord(draft.edgePayload) ? draft.edgePayload : {};
  const stored = readStoredRequest(payload);
  const speed =
    typeof draft.speed === "number" && draft.speed > 0
      ? draft.speed
      : stored
        ? requestMbps(stored)
        : undefined;
  return speed === undefined ? undefined : { name, speed, edgePayload: payload };
}

export function draftSavedBy(draft: Pick<DraftOrder, "edgePayload">): string | undefined {
  const payload = draft.edgePayload;
  return isRecord(payload) ? text(payload[SAVED_BY_FIELD]) : undefined;
}

/** A draft by id, from the drafts list (the provider has no single-draft read). */
export async function findDraft(
  deps: CatalogueDeps,
  id: string,
  signal?: AbortSignal,
): Promise<DraftOrder | undefined> {
  const drafts = await deps.provider.listDrafts({ signal });
  return drafts.find((d) => d.id === id);
}
