/**
 * Each order kind in people's words ("Port order"), one entry per kind. In src/domain so the
 * lifecycle's per-kind table (src/orders/kinds.ts), the read model and every view take the same
 * label without src/orders loading views at run time. A missing kind is a compile error.
 */
export const ORDER_KIND_LABEL = {
  port: "Port order",
  layer2: "Layer 2 connection",
  iod: "IO-D service",
  edge: "Edge port order",
} as const satisfies Record<"port" | "layer2" | "iod" | "edge", string>;
