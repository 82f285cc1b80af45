// Reading the Edge quote form's state (whatever arrived: a forged payload looks the same) into
// the use case's EdgeQuoteForm, with the kit's form value readers.
import type { ViewOutput } from "@slack/bolt";
import { EDGE_QUOTE_BLOCKS, EDGE_QUOTE_INPUTS } from "../../../../views/edge/edgeModals.js";
import type { EdgeQuoteForm } from "../../../usecases/edge/quote.js";
import { selectedValue, typedValue } from "../../kit/index.js";

/** A select's key, or a number input and its unit combined into the same `<value>|<unit>` key. */
function keyOf(
  values: unknown,
  block: string,
  action: string,
  unitBlock: string,
  unitAction: string,
): unknown {
  const selected = selectedValue(values, block, action);
  if (selected !== undefined && selected !== null) return selected;
  const typed = typedValue(values, block, action);
  if (typeof typed !== "string" || typed.trim() === "") return typed ?? undefined;
  const unit = selectedValue(values, unitBlock, unitAction);
  return `${typed.trim()}|${typeof unit === "string" ? unit : ""}`;
}

export function readEdgeQuoteForm(values: ViewOutput["state"]["values"] | unknown): EdgeQuoteForm {
  const B = EDGE_QUOTE_BLOCKS;
  const I = EDGE_QUOTE_INPUTS;
  return {
    country: selectedValue(values, B.country, I.country),
    bandwidth: keyOf(values, B.bandwidth, I.bandwidth, B.bandwidthUnit, I.bandwidthUnit),
    term: keyOf(values, B.term, I.term, B.termUnit, I.termUnit),
    address: typedValue(values, B.address, I.address),
    postCode: typedValue(values, B.postCode, I.postCode),
  };
}

/** Whether the submitted or shown view has a block (the quote form's Post code). */
export function hasBlock(view: Pick<ViewOutput, "blocks">, blockId: string): boolean {
  return (view.blocks as unknown as Array<{ block_id?: unknown }>).some(
    (b) => b?.block_id === blockId,
  );
}
