import { readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { COMMANDS } from "../../src/domain/commands.js";
import { QuoteNoLongerOffered } from "../../src/domain/errors.js";
import { nextLoaStep } from "../../src/domain/tracking/loa.js";
import { classifyQuoteFailure } from "../../src/jobs/quotes/quotePoller.js";
import { ORDER_KINDS } from "../../src/orders/kinds.js";
import type { OrderProgress } from "../../src/orders/progress.js";
import { type LookUpOutcome, readRequest } from "../../src/orders/readModel.js";
import { committedSpend } from "../../src/orders/spend/committed.js";
import type { TrackedOrder } from "../../src/orders/tracking/records.js";
import { readOffer, readQuoteResult } from "../../src/provider/edgeResponses.js";
import { httpError } from "../../src/provider/errors.js";
import { readBandwidths, readCountries, readTerms } from "../../src/usecases/edge/catalogue.js";
import type { EdgeOrderSource } from "../../src/usecases/edge/order.js";
import { quoteRef } from "../../src/usecases/edge/quote.js";
import { iodValues } from "../../src/usecases/iod/form.js";
import { type Layer2Quote, layer2Values } from "../../src/usecases/layer2/form.js";
import { loaPathOf } from "../../src/usecases/portOrder/form.js";
import * as approvalMessage from "../../views/approvals/approvals.js";
import * as approvalsList from "../../views/approvals/approvalsList.js";
import * as approvalThread from "../../views/approvals/approvalThread.js";
import * as lifecycleRefusals from "../../views/approvals/lifecycleRefusals.js";
import * as refusals from "../../views/approvals/refusals.js";
import * as rejectModal from "../../views/approvals/rejectModal.js";
import * as requestCard from "../../views/approvals/requestCard.js";
import * as trackerMessages from "../../views/approvals/trackerMessages.js";
import * as blocks from "../../views/blocks.js";
import * as dcf from "../../views/dcf.js";
import * as dcfOptions from "../../views/dcfOptions.js";
import * as edge from "../../views/edge/edge.js";
import * as edgeDrafts from "../../views/edge/edgeDrafts.js";
import * as edgeModals from "../../views/edge/edgeModals.js";
import * as edgeOrderModal from "../../views/edge/edgeOrderModal.js";
import * as edgeQuote from "../../views/edge/edgeQuote.js";
import * as failures from "../../views/failures.js";
import { describeFailure } from "../../views/failures.js";
import * as format from "../../views/format.js";
import * as policy from "../../views/general/policy.js";
import * as whoami from "../../views/general/whoami.js";
import * as help from "../../views/help.js";
import * as home from "../../views/home/home.js";
import * as inputs from "../../views/inputs.js";
import * as iodModal from "../../views/iod/iodModal.js";
import * as layer2Modal from "../../views/layer2/layer2Modal.js";
import * as list from "../../views/list.js";
import * as asn from "../../views/lookups/asn.js";
import * as metros from "../../views/lookups/metros.js";
import * as orders from "../../views/lookups/orders.js";
import * as ports from "../../views/lookups/ports.js";
import * as routers from "../../views/lookups/routers.js";
import * as services from "../../views/lookups/services.js";
import * as tracking from "../../views/lookups/tracking.js";
import * as modalMetadata from "../../views/modalMetadata.js";
import * as moneyAccess from "../../views/moneyAccess.js";
import * as orderForms from "../../views/orderForms.js";
import * as orderThis from "../../views/orderThis.js";
import * as portOrderModal from "../../views/portOrder/portOrderModal.js";
import * as pricing from "../../views/pricing/pricing.js";
import * as pricingModals from "../../views/pricing/pricingModals.js";
import * as pricingReplies from "../../views/pricing/pricingReplies.js";
import * as reply from "../../views/reply.js";
import * as requestState from "../../views/requestState.js";
import * as spend from "../../views/spend/spend.js";
import * as steps from "../../views/steps/steps.js";
import * as time from "../../views/time.js";
import { writeReliabilityResult } from "../faults/reliabilityResults.js";
import {
  asnPrivateUnknownStatus,
  asnPublic,
  capabilitiesIod,
  connectionPriceResult,
  dcfOffNet,
  dcfOnNet,
  drafts,
  edgeItems,
  edgeLocations,
  metroAms,
  NOW,
  orderDone,
  orderOffNet,
  portActive,
  portPriceResult,
  routerFull,
  TZ,
} from "../views/fixtures.js";
import {
  bareService,
  iodService,
  layer2BusinessToBusiness,
  layer2PortToPort,
} from "../views/serviceFixtures.js";
import {
  HOSTILE,
  hostileText,
  injectionIn,
  injectionsIn,
  mrkdwnTexts,
  poison,
  SLACK_KEYS,
  TRUSTED_CHANNELS,
  TRUSTED_LINK,
  TRUSTED_USERS,
} from "./hostileText.js";

/** The approval views (views/approvals/approvals.ts and the modules split from it), by name. */
const approvals = { ...approvalMessage, ...approvalsList, ...approvalThread, ...rejectModal };

/**
 * Nothing a requester, an approver or the provider types can ping a channel or plant a link:
 * every builder of views/ and every message the jobs post is fed hostile text in every string
 * of its input (except Slack's own ids), and no mrkdwn of its output — blocks, fields, context,
 * modal sections, fallback `text`, a returned message text — may hold a "<" the builder did
 * not put there itself (a mention of a real person, a date token, a Slack permalink).
 */

const [REQUESTER, APPROVER] = TRUSTED_USERS;
const [GENERAL, APPROVALS] = TRUSTED_CHANNELS;
const keep = (...keys: string[]) => new Set([...SLACK_KEYS, ...keys]);
/** Our own approval record's fields: validated ids, enums and timestamps. */
const RECORD_KEYS = keep("id", "kind", "status", "action", "operation", "from", "to", "at");
const RECORD_TIMES = keep(...RECORD_KEYS, "createdAt", "updatedAt");
const page = { page: 0, pageSize: 10, hasNext: true, total: 30 };

const approval: ApprovalRequest = {
  id: "apr_abcdefghijklmnop",
  kind: "port",
  title: "Port ams-core-9",
  summary: [
    { label: "Port name", value: "ams-core-9" },
    { label: "Data center", value: "Equinix AM3" },
  ],
  call: { operation: "createPortOrder", pathParams: { companyUsername: "acme" }, body: {} },
  reconcileKey: "ams-core-9",
  price: { total: 100, monthly: 100, text: "100.00 per month" },
  requester: { userId: REQUESTER, channelId: GENERAL },
  slack: { approvalChannel: APPROVALS, approvalTs: "1700000000.000100" },
  sandbox: true,
  status: "failed",
  decision: { by: APPROVER, at: "2026-11-12T13:05:00.000Z", action: "reject", reason: "no" },
  attempts: 1,
  result: { providerId: "po-1", status: "CREATED", record: { loaStatus: "TODO" } },
  error: { message: "The provider refused the port order.", httpStatus: 400 },
  history: [],
  createdAt: "2026-11-12T13:05:00.000Z",
  updatedAt: "2026-11-12T13:05:00.000Z",
};
/** A lone element as the message that carries it (the check reads blocks). */
const actionsOf = (element: object) => ({
  blocks: [{ type: "actions", elements: [element] }],
});

const approvalIn = (status: ApprovalRequest["status"], h: string) => ({
  ...poison(approval, h, RECORD_TIMES),
  status,
});
/** A request under a spend-aware policy rule: its rule and group names are an admin's text. */
const requirement = {
  rule: "1,000 a month or more",
  approvals: 2,
  from: ["network", "S0FINANCE", APPROVER],
  approvers: ["S0NETWORK", "S0FINANCE"],
  atLeastOneFrom: { name: "finance", ids: ["S0FINANCE"] },
};
const multiApprovalIn = (status: ApprovalRequest["status"], h: string): ApprovalRequest => ({
  ...approvalIn(status, h),
  requirement: poison(requirement, h, keep()),
  approvals: [{ by: APPROVER, at: "2026-11-12T13:05:00.000Z", inGroup: true }],
  decision: { by: REQUESTER, at: "2026-11-12T13:05:00.000Z", action: "approve" },
  history: [
    { at: "2026-11-12T13:05:00.000Z", actor: APPROVER, from: "pending", to: "pending" },
    {
      at: "2026-11-12T13:05:00.000Z",
      actor: REQUESTER,
      from: "pending",
      to: "cancelled",
      note: "withdrawn by the requester",
    },
  ],
});
const policyOf = (h: string) => ({
  groups: { network: ["S0NETWORK", APPROVER], [h]: ["S0FINANCE"] },
  rules: [
    { name: h, kinds: ["edge" as const], approvals: 2, from: [h, "network"], atLeastOneFrom: h },
    { name: h, monthlyFrom: 1000, monthlyBelow: 5000, approvals: 1, from: ["S0FINANCE"] },
    { name: h, approvals: 1, from: ["network"] },
  ],
});

const edgeRequest = {
  country: { id: "sg1", name: "Singapore", code: "SG" },
  bandwidth: "1",
  bandwidthUnit: "Gbps" as const,
  "contract-term": "12",
  contractTermUnit: "month",
  "formatted-address": "1 Raffles Place",
  postCode: "048616",
};
const offerItem = {
  quoteKey: "key-1",
  vendor: { name: "Vendor" },
  product: "Edge Ethernet Access",
  monthlyPrice: 1000,
  nonRecurringPrice: 500,
  totalContractPrice: 12500,
  term: { value: 12, unit: "month" },
  leadTimeDays: 30,
  note: "call us",
};
const quoteOf = (h: string, discount?: string) =>
  readQuoteResult(
    h,
    poison({ status: "COMPLETED", data: [offerItem], formattedAddress: "addr" }, h, keep()),
    discount,
  );
const catalogueOf = (h: string) => ({
  countries: readCountries(poison([{ id: "sg1", name: "Singapore", code: "SG" }], h, keep())),
  bandwidths: readBandwidths([100, 1000]),
  terms: readTerms([12, 24]),
});
const edgeSource = (h: string): EdgeOrderSource => ({
  request: poison(edgeRequest, h, keep("bandwidthUnit")),
  responseId: h,
  discountCode: h,
  offers: [readOffer(poison(offerItem, h, keep()), 0)],
  draft: { id: h, name: h },
});
const quoteRefOf = (h: string) => quoteRef(h, poison(edgeRequest, h, keep()), h);

const identity = (h: string) => ({
  userId: h,
  companyId: h,
  companyUsername: h,
  companyName: h,
});
const port = (h: string) => poison({ ...portActive, name: "ams-core-1" }, h, keep());
const layer2Quote = (h: string): Layer2Quote =>
  poison(
    {
      config: {
        srcDcf: dcfOnNet.id,
        destDcf: "dcf-lon",
        bandwidth: 500,
        classOfService: "SILVER",
        duration: { value: 12, unit: "m" },
      },
      result: connectionPriceResult,
      srcDcf: { id: dcfOnNet.id, name: "Equinix AM3" },
      destDcf: { id: "dcf-lon", name: "Telehouse North" },
      key: "k3y",
    },
    h,
    keep(),
  );
const term = { value: 12, unit: "m" as const, durationUnit: "m" as never };
const tracked = (h: string): TrackedOrder => ({
  target: { kind: "layer2", id: h },
  orderId: h,
  companyName: h,
  channel: GENERAL,
  threadTs: "1700000000.000100",
  requestedBy: REQUESTER,
  kind: "off-net",
  startedAt: NOW,
  open: true,
  status: h,
  loaStatus: h,
  changes: 1,
  checks: 2,
  failures: 1,
  lastError: h,
  lastCheckAt: NOW,
  nextCheckAt: NOW,
  loaSince: NOW,
  reminders: 0,
  waitReminders: 0,
  watchers: [],
});
const ref = (h: string) => ({ orderId: h, kind: "off-net" as const });
/** A business-to-business layer 2 connection waiting on a partner company named by the requester. */
const partnerRef = (h: string) => ({
  ...ref(h),
  target: { kind: "layer2" as const, id: h },
  counterparty: h,
});
const snapshot = (h: string) => ({
  status: h,
  loaStatus: h,
  port: { id: h, name: h, speed: h, location: h },
});

/** A Home for the requester: every request state, a tracker and spend, all fed hostile text. */
const homeTracked = (h: string): home.HomeTracked => ({
  kind: "port-order",
  id: h,
  status: h,
  changedAt: NOW,
  startedAt: NOW,
});
const homeInput = (h: string): home.HomeInput => {
  const records = (
    [
      "pending",
      "approved",
      "executing",
      "placed",
      "failed",
      "unknown",
      "rejected",
      "cancelled",
    ] as const
  ).map((status) =>
    model(
      { ...approvalIn(status, h), result: { providerId: h, status: h, record: {} } },
      { status: h, changedAt: h },
    ),
  );
  return {
    userId: REQUESTER,
    sandbox: true,
    currency: h,
    now: NOW,
    // Waiting on the approver: a decision, an unknown outcome (every way forward), a refusal.
    waiting: [
      model(approvalIn("pending", h)),
      model(approvalIn("unknown", h), undefined, "not-found"),
      model(approvalIn("failed", h)),
    ],
    mine: { records, page: 1, hasNext: true, total: 30 },
    tracked: [homeTracked(h)],
    spend: {
      team: committedSpend(records),
      mine: committedSpend(records, { requester: REQUESTER }),
    },
  };
};

type Case = (h: string) => unknown;

/** The read model of a record, as every surface renders it (src/orders/readModel.ts). */
const model = (record: ApprovalRequest, progress?: OrderProgress, lastLookUp?: LookUpOutcome) =>
  readRequest(record, { progress, lastLookUp });

/** Every builder whose output reaches Slack as mrkdwn, fed hostile text. */
const VIEW_CASES: Record<string, Case> = {
  // views/approvals/approvals.ts
  // Fixed words, nothing from a person or the provider: covered so a later change is checked.
  supersededApprovalView: () => approvals.supersededApprovalView(),
  approvalStatusLine: (h) => [
    approvals.approvalStatusLine(model(approvalIn("failed", h))),
    approvals.approvalStatusLine(model(approvalIn("placed", h), { status: h })),
    approvals.approvalStatusLine(
      model(approvalIn("placed", h), { status: h, outcome: "failed", detail: h }),
    ),
  ],
  approvalMessageView: (h) => [
    approvals.approvalMessageView(model(multiApprovalIn("pending", h))),
    approvals.approvalMessageView(model(multiApprovalIn("approved", h))),
    approvals.approvalMessageView(model(multiApprovalIn("cancelled", h))),
    approvals.approvalMessageView(model(approvalIn("pending", h))),
    approvals.approvalMessageView(model(approvalIn("rejected", h))),
    approvals.approvalMessageView(model(approvalIn("unknown", h), undefined, "not-found")),
    approvals.approvalMessageView(model(approvalIn("failed", h))),
  ],
  rejectReasonModal: (h) =>
    approvals.rejectReasonModal(approvalIn("pending", h), { id: approval.id, channel: h, ts: h }),
  readRejectOrigin: (h) => approvals.readRejectOrigin(h),
  approvalsListView: (h) => [
    approvals.approvalsListView(
      [
        model(approvalIn("pending", h)),
        model({ ...approvalIn("placed", h), id: "apr_bbbbbbbbbbbbbbbb" }, { status: h }),
      ],
      new Map([[approval.id, TRUSTED_LINK]]),
      "all",
    ),
    // What waits on an approver: a decision, an unknown outcome, a refused placement.
    approvals.approvalsListView(
      [
        model(approvalIn("pending", h)),
        model({ ...approvalIn("unknown", h), id: "apr_bbbbbbbbbbbbbbbb" }, undefined, "not-found"),
        model({ ...approvalIn("failed", h), id: "apr_cccccccccccccccc" }),
      ],
      new Map([[approval.id, TRUSTED_LINK]]),
      "pending",
    ),
  ],
  approverNextStepText: (h) =>
    (["pending", "unknown", "failed"] as const).map((status) =>
      approvals.approverNextStepText(model(approvalIn(status, h), undefined, "not-found")),
    ),
  approverButtons: (h) =>
    (["pending", "unknown", "failed"] as const).map((status) =>
      approvals.approverButtons(model(approvalIn(status, h), undefined, "not-found"), 0),
    ),
  // views/requestState.ts: the state line every surface shows (the read model's words)
  stateHeadline: (h) => requestState.stateHeadline(model(approvalIn("placed", h), { status: h })),
  stateLine: (h) =>
    (
      [
        "pending",
        "approved",
        "executing",
        "rejected",
        "cancelled",
        "failed",
        "unknown",
        "placed",
      ] as const
    ).flatMap((status) => [
      requestState.stateLine(model(approvalIn(status, h))),
      requestState.stateLine(model(approvalIn(status, h), { status: h, changedAt: h })),
      ...(["done", "failed", "cancelled", "stopped"] as const).map((outcome) =>
        requestState.stateLine(
          model(approvalIn(status, h), { status: h, outcome, detail: h, stoppedBy: h }),
        ),
      ),
    ]),
  // Marked as failed: the person from the history, the reason (hostile here) escaped.
  markedFailedStateLine: (h) =>
    requestState.stateLine(
      model({
        ...approvalIn("failed", h),
        error: { message: h },
        history: [
          {
            at: "2026-11-12T13:05:00.000Z",
            actor: APPROVER,
            from: "unknown",
            to: "failed",
            note: h,
          },
        ],
      }),
    ),
  markedFailedNextStep: (h) => requestState.markedFailedNextStep(h),
  orderRef: (h) => requestState.orderRef({ id: h, resource: "order", status: h }),
  listOfMentions: () => requestState.listOfMentions([APPROVER, REQUESTER]),
  offers: (h) => requestState.offers(model(approvalIn("pending", h)), "withdraw"),
  slackTime: (h) => requestState.slackTime(h),
  stateBlockIdOf: (h) =>
    requestState.stateBlockIdOf(model(approvalIn("placed", h), { outcome: "failed", status: h })),
  dmStateBlockIdOf: (h) =>
    requestState.dmStateBlockIdOf(model(approvalIn("placed", h), { outcome: "failed", status: h })),
  // The DMs that tell a state: the lifecycle's words, marked from the read model.
  stateDm: (h) => [
    requestState.stateDm(
      model(approvalIn("rejected", h)),
      approvals.rejectedRequesterText(approvalIn("rejected", h)),
    ),
    requestState.stateDm(
      model(approvalIn("placed", h), { status: h, outcome: "stopped", stoppedBy: h }),
      requestCard.orderEndedRequesterText(
        model(approvalIn("placed", h), { status: h, outcome: "stopped", stoppedBy: h }),
      ),
    ),
  ],
  requestCardView: (h) => [
    requestCard.requestCardView(model(approvalIn("pending", h)), {
      approvalLink: TRUSTED_LINK,
    }),
    requestCard.requestCardView(model(approvalIn("placed", h), { status: h })),
    requestCard.requestCardView(model(approvalIn("rejected", h))),
  ],
  requestCardReplyText: (h) =>
    requestCard.requestCardReplyText(
      model(approvalIn("placed", h), { status: h, outcome: "done" }),
    ),
  // Only Slack's own channel ids reach it; nothing a person typed.
  cardInDmText: () => [
    requestCard.cardInDmText("not-in-channel", GENERAL),
    requestCard.cardInDmText("setting", undefined),
  ],
  orderFailedRequesterText: (h) => requestCard.orderFailedRequesterText(approvalIn("failed", h)),
  // Fixed words only: nothing a person typed.
  supersededCardView: () => requestCard.supersededCardView(),
  // `by` is an actor from the record: a Slack user id is mentioned, anything else escaped.
  markedFailedRequesterText: (h) =>
    requestCard.markedFailedRequesterText(approvalIn("failed", h), h),
  orderEndedRequesterText: (h) =>
    requestCard.orderEndedRequesterText(
      model(approvalIn("placed", h), { status: h, outcome: "cancelled", detail: h }),
    ),
  retriedOutcomeUnknownRequesterText: (h) =>
    requestCard.retriedOutcomeUnknownRequesterText(model(approvalIn("unknown", h))),
  personStepText: (h) => {
    const at = "2026-11-20T10:00:00.000Z";
    const steps = [
      { from: "pending", to: "approved" },
      { from: "failed", to: "approved" },
      { from: "unknown", to: "approved" },
      { from: "pending", to: "rejected" },
      { from: "unknown", to: "failed" },
    ] as const;
    const multi = multiApprovalIn("cancelled", h);
    return [
      ...multi.history.map((entry) => approvals.personStepText(multi, entry)),
      approvals.personStepText(multiApprovalIn("approved", h), {
        at,
        actor: APPROVER,
        from: "pending",
        to: "approved",
      }),
      ...steps.map((step) =>
        approvals.personStepText(
          {
            ...approvalIn(step.to, h),
            decision: { by: APPROVER, at, action: "reject", reason: h },
          },
          { ...step, at, actor: APPROVER, note: h },
        ),
      ),
    ];
  },
  rejectedRequesterText: (h) =>
    approvals.rejectedRequesterText({
      ...approvalIn("rejected", h),
      decision: { by: APPROVER, at: "2026-11-20T10:00:00.000Z", action: "reject", reason: h },
    }),
  placedNextStepsText: (h) =>
    (
      [
        { shape: "port-order", order: { id: h, loaStatus: h } as never },
        { shape: "port-found" },
        { shape: "connection", what: "Connection" },
      ] as const
    ).map((next) => approvals.placedNextStepsText(next, { providerId: h, status: h, record: {} })),
  placedThreadText: (h) =>
    approvals.placedThreadText(
      model({ ...approvalIn("placed", h), result: { providerId: h, status: h, record: {} } }),
      { shape: "port-order", order: { id: h, loaStatus: h } as never },
      { providerId: h, status: h, record: {} },
    ),
  placedRequesterText: (h) =>
    approvals.placedRequesterText({
      ...approvalIn("placed", h),
      result: { providerId: h, status: h, record: {} },
    }),
  failedThreadText: (h) => approvals.failedThreadText({ message: h }),
  placementFailureWords: (h) => [
    approvals.placementFailureWords({ message: h }),
    approvals.placementFailureWords({ message: `The provider refused the port order: ${h}` }),
  ],
  // Workflow Builder steps (views/steps/steps.ts): outputs and errors a workflow may paste anywhere.
  placedStepOutputs: (h) =>
    Object.values(
      steps.placedStepOutputs({
        ...approvalIn("placed", h),
        result: { providerId: h, status: h, record: {} },
      }),
    ).map((text) => ({ text })),
  requestStepSummary: (h) => steps.requestStepSummary(approvalIn("placed", h), h, h),
  endedStepError: (h) =>
    (["rejected", "cancelled", "failed", "unknown"] as const).map((status) => ({
      text: steps.endedStepError(
        {
          ...approvalIn(status, h),
          decision: {
            by: "U0APPROVE1",
            at: "2026-11-28T07:00:00.000Z",
            action: "reject",
            reason: h,
          },
          error: { message: h },
        },
        { person: () => h, group: () => h },
      ),
    })),
  stepGoneText: (h) => steps.stepGoneText(approvalIn("placed", h)),
  plainStepText: (h) => [
    { text: steps.plainStepText(h, steps.NO_STEP_NAMES) },
    {
      text: steps.plainStepText(
        `<@U0VICTIM9> <!subteam^S0X> ${h}`,
        { person: () => h, group: () => h },
        100,
      ),
    },
  ],
  escalationText: (h) =>
    (["not-found", "lookup-failed", "not-lookable"] as const).flatMap((kind) => [
      approvals.escalationText(approvalIn("unknown", h), { kind, detail: h }),
      approvals.escalationText(approvalIn("unknown", h), { kind, detail: h }, { again: true }),
    ]),
  submittedText: (h) => approvals.submittedText(h, TRUSTED_LINK),
  submittedView: (h) => approvals.submittedView(approvalIn("pending", h), TRUSTED_LINK),
  withdrawButton: (h) => [approvals.withdrawButton(approvalIn("pending", h))],
  describeRefusal: (h) =>
    (["approved", "rejected", "cancelled", "placed", "failed", "pending"] as const).flatMap(
      (status) => [
        refusals.describeRefusal({
          ok: false,
          reason: "not-pending",
          id: approval.id,
          record: multiApprovalIn(status, h),
        }),
        refusals.describeRefusal({
          ok: false,
          reason: "not-requester",
          id: approval.id,
          record: multiApprovalIn(status, h),
        }),
        refusals.describeRefusal({
          ok: false,
          reason: "group-required",
          id: approval.id,
          record: multiApprovalIn(status, h),
        }),
      ],
    ),
  refusedText: (h) => [
    ...(["approved", "rejected", "cancelled", "placed", "failed"] as const).map((status) =>
      lifecycleRefusals.refusedText({
        ok: false,
        reason: "not_pending",
        refusal: {
          ok: false,
          reason: "not-pending",
          id: approval.id,
          record: multiApprovalIn(status, h),
        },
      }),
    ),
    lifecycleRefusals.refusedText({
      ok: false,
      reason: "name_taken",
      name: h,
      heldBy: approval.id,
      message: `A request named "${h}" is already waiting or being ordered; choose another name`,
    }),
    lifecycleRefusals.refusedText({
      ok: false,
      reason: "look_up_first",
      record: multiApprovalIn("unknown", h),
    }),
  ],
  describeState: (h) =>
    (["approved", "rejected", "cancelled", "placed", "failed", "unknown"] as const).map((status) =>
      refusals.describeState(multiApprovalIn(status, h)),
    ),
  refusalAbout: (h) => [refusals.refusalAbout(multiApprovalIn("cancelled", h))],
  withdrawnView: (h) => approvals.withdrawnView(readRequest(multiApprovalIn("cancelled", h))),
  withdrawRefusedText: (h) =>
    (["approved", "rejected", "cancelled", "placed", "failed"] as const).map((status) =>
      approvals.withdrawRefusedText({
        ok: false,
        reason: "not-pending",
        id: approval.id,
        record: multiApprovalIn(status, h),
      }),
    ),
  requirementText: (h) => [
    approvals.requirementText(
      multiApprovalIn("pending", h).requirement!,
      multiApprovalIn("pending", h),
    ),
  ],
  requirementWords: (h) => approvals.requirementWords(poison(requirement, h, keep())),
  approverRefText: (h) => [approvals.approverRefText(h), approvals.approverRefText(APPROVER)],
  // Its confirm dialog names the title (a person's text) and the amounts.
  approveButton: (h) => [
    actionsOf(approvals.approveButton(model(approvalIn("pending", h)), 0)),
    actionsOf(
      approvals.approveButton(
        model({ ...approvalIn("pending", h), price: { monthly: 2000, termMonths: 12, text: h } }),
        1000,
      ),
    ),
  ],
  // Its confirm dialog names the title (a person's text).
  rejectButton: (h) => actionsOf(approvals.rejectButton(model(approvalIn("pending", h)))),
  // views/general/policy.ts
  policyView: (h) => [
    policy.policyView(policyOf(h), { fromFile: true, allowSelfApproval: false }),
    policy.policyView(
      { groups: {}, rules: [{ name: "", approvals: 1, from: [APPROVER] }] },
      {
        fromFile: false,
        allowSelfApproval: true,
      },
    ),
  ],
  conditionWords: (h) => policyOf(h).rules.map((rule) => policy.conditionWords(rule)),
  // views/lookups/asn.ts
  prefixCount: (h) => asn.prefixCount(poison(asnPublic, h, keep())),
  asnView: (h) =>
    asn.asnView(
      poison({ asn: 64600 }, h, keep()),
      poison([asnPublic, asnPrivateUnknownStatus], h, keep()),
    ),
  // views/dcf.ts
  dcfFeatures: (h) => dcf.dcfFeatures(poison(dcfOnNet, h, keep())),
  dcfPlace: (h) => dcf.dcfPlace(poison(dcfOnNet, h, keep())),
  metroLabel: (h) => dcf.metroLabel(poison(metroAms, h, keep()), h),
  dcfSpeeds: (h) => dcf.dcfSpeeds(poison(dcfOnNet, h, keep())),
  dcfSummary: (h) => dcf.dcfSummary(poison(dcfOffNet, h, keep()), poison([metroAms], h, keep())),
  dcfListView: (h) =>
    dcf.dcfListView(poison([dcfOnNet, dcfOffNet], h, keep()), {
      ...page,
      query: h,
      metros: poison([metroAms], h, keep()),
    }),
  // views/edge/edge.ts
  edgeLocationsView: (h) => edge.edgeLocationsView(poison(edgeLocations, h, keep()), page),
  countdownWords: (h) => edge.countdownWords(h),
  deletionCountdown: (h) => edge.deletionCountdown(h),
  edgeOrdersView: (h) => edge.edgeOrdersView(poison(edgeItems, h, keep()), page, TZ, NOW),
  edgeDraftsView: (h) => edge.edgeDraftsView(poison(drafts, h, keep()), page, TZ, NOW),
  // views/edge/edgeModals.ts
  edgeLoadingModal: (h) => edgeModals.edgeLoadingModal(h, h),
  edgeModal: (h) => edgeModals.edgeModal(h, h, [], { channelId: h, threadTs: h, draftId: h }),
  edgeProblemModal: (h) => edgeModals.edgeProblemModal(h, h),
  edgeQuoteModal: (h) => {
    const catalogue = catalogueOf(h);
    return edgeModals.edgeQuoteModal({ catalogue, metadata: {}, country: catalogue.countries[0] });
  },
  edgeDiscountModal: (h) => edgeModals.edgeDiscountModal({ quote: quoteRefOf(h) } as never),
  edgeOrderModal: (h) =>
    edgeOrderModal.edgeOrderModal({
      currency: "USD",
      source: edgeSource(h),
      metadata: {},
      speedMbps: 1000,
    }),
  renameDraftModal: (h) => edgeModals.renameDraftModal({ draft: { id: h, name: h }, metadata: {} }),
  // views/edge/edgeQuote.ts
  quoteRequestedMessage: (h) =>
    edgeQuote.quoteRequestedMessage({
      request: poison(edgeRequest, h, keep()),
      requestedBy: REQUESTER,
      responseId: h,
    }),
  quoteAnsweredRootMessage: (h) =>
    (["ready", "failed"] as const).map((outcome) =>
      edgeQuote.quoteAnsweredRootMessage({
        request: poison(edgeRequest, h, keep()),
        requestedBy: REQUESTER,
        responseId: h,
        outcome,
      }),
    ),
  quoteActionsBlock: (h) => edgeQuote.quoteActionsBlock(quoteRefOf(h), true, true),
  quoteReadyMessage: (h) =>
    edgeQuote.quoteReadyMessage({
      currency: "USD",
      quote: quoteOf(h, h),
      request: poison(edgeRequest, h, keep()),
      requestedBy: REQUESTER,
      ref: quoteRefOf(h),
    }),
  quoteFailureText: (h) => [
    ...[400, 404, 409, 422, 500].map((status) => {
      const failure = classifyQuoteFailure(status);
      return failure && edgeQuote.quoteFailureText(failure);
    }),
    edgeQuote.quoteFailureText({ kind: "timeout", afterMs: 600_000 }),
    edgeQuote.quoteFailureText({ kind: "partners-failed", providerStatus: h }),
  ],
  quoteFailedMessage: (h) =>
    edgeQuote.quoteFailedMessage({ message: h, requestedBy: REQUESTER, ref: quoteRefOf(h) }),
  enquirySentMessage: () =>
    (["ten-gig", "support"] as const).map((k) => edgeQuote.enquirySentMessage(k, REQUESTER)),
  draftActionsBlock: (h) => edgeDrafts.draftActionsBlock({ id: h, name: h }),
  draftSavedMessage: (h) => edgeDrafts.draftSavedMessage({ id: h, name: h }, REQUESTER),
  draftExpiryReminder: (h) => [
    edgeDrafts.draftExpiryReminder({ draftId: h, name: h, daysLeft: 3 }),
    edgeDrafts.draftExpiryReminder({ draftId: h, name: h, daysLeft: 1 }),
  ],
  draftNoticeText: (h) =>
    (["renamed", "deleted", "not-owner", "no-owner", "not-found"] as const).map((k) =>
      edgeDrafts.draftNoticeText(k, { id: h, name: h }),
    ),
  // views/format.ts
  code: (h) => format.code(h),
  formatTerm: (h) => [
    format.formatTerm(12, h),
    format.formatTerm(12, h, "adjective"),
    format.formatTerm(undefined, h),
  ],
  statusBadge: (h) => format.statusBadge(h),
  statusHint: (h) => format.statusHint(h),
  textOr: (h) => format.textOr(h),
  loaStatusText: (h) => format.loaStatusText(h) ?? "",
  // views/help.ts
  helpView: () => help.helpView(COMMANDS),
  unknownCommandReply: (h) => [
    help.unknownCommandReply(h, []),
    help.unknownCommandReply(h, COMMANDS.slice(0, 2)),
  ],
  commandGroupReply: (h) => [
    help.commandGroupReply(h, COMMANDS.slice(0, 2)),
    help.commandGroupReply("edge", COMMANDS.slice(0, 2), h),
  ],
  // views/iod/iodModal.ts
  iodModal: (h) => {
    const values = poison(iodValues({ routing: "DYNAMIC" }), h, keep("routing", "asnChoice"));
    return iodModal.iodModal(
      {
        values,
        identity: identity(h),
        ports: { ok: true, value: [port(h)] },
        port: port(h),
        capability: { kind: "unknown", problem: h } as never,
        suggestedAsn: 64512,
        publicAsns: { ok: false, problem: h } as never,
        asnChoice: "public",
      },
      { metadata: { channelId: GENERAL }, sandbox: true },
    );
  },
  // No text from outside: days are a number (a hostile one is refused, not echoed).
  // views/orderThis.ts: the value holds ids and numbers; text in it is never shown
  encodePortOrderThis: (h) => [
    orderThis.withOrderThisButton(
      { text: "x", blocks: [] },
      orderThis.ACTION_ORDER_THIS_PORT,
      orderThis.encodePortOrderThis({ dcf: h, speedMbps: 1000, term: h }),
    ),
  ],
  parsePortOrderThis: (h) => [JSON.stringify(orderThis.parsePortOrderThis(h) ?? null)],
  encodeLayer2OrderThis: (h) => [
    orderThis.withOrderThisButton(
      { text: "x", blocks: [] },
      orderThis.ACTION_ORDER_THIS_L2,
      orderThis.encodeLayer2OrderThis({
        srcDcfId: h,
        destDcfId: h,
        bandwidthMbps: 500,
        classOfService: h,
        duration: { value: 6, unit: h },
      }),
    ),
  ],
  parseLayer2OrderThis: (h) => [JSON.stringify(orderThis.parseLayer2OrderThis(h) ?? null)],
  withOrderThisButton: (h) => [
    orderThis.withOrderThisButton({ text: "x", blocks: [] }, orderThis.ACTION_ORDER_THIS_PORT, h),
  ],
  // The layer 2 price's Share in channel carries the Order this value, never shown.
  shareLayer2PriceButton: (h) => [orderThis.shareLayer2PriceButton(h)],
  // views/layer2/layer2Modal.ts
  layer2Modal: (h) => [
    layer2Modal.layer2Modal(
      {
        values: poison(layer2Values({}), h, keep("mode")),
        identity: identity(h),
        ports: { ok: true, value: [port(h)] },
        source: port(h),
        destination: { ok: true, value: port(h) },
        price: { ok: true, value: layer2Quote(h) },
      },
      { metadata: { channelId: GENERAL }, sandbox: true, currency: "USD", review: true },
    ),
    layer2Modal.layer2Modal(
      {
        values: layer2Values({ mode: "business-to-business" }),
        identity: identity(h),
        ports: { ok: false, problem: h } as never,
        metros: { ok: false, problem: h } as never,
        price: { ok: false, problem: h } as never,
      },
      { metadata: {}, sandbox: false, currency: "USD" },
    ),
  ],
  // views/orderForms.ts
  // What is loading is our own words ("your ports"); the problem is describeFailure's mrkdwn.
  orderLoadingModal: (h) => orderForms.orderLoadingModal("cb", h, "your ports", true),
  orderProblemModal: (h) =>
    orderForms.orderProblemModal("cb", h, describeFailure(new Error(h)), true),
  orderFormModal: (h) => orderForms.orderFormModal("cb", h, [], { channelId: h }, true),
  yourPortBlocks: (h) =>
    [
      { ok: false as const, problem: h },
      { ok: true as const, value: [] },
    ].map((ports) =>
      orderForms.yourPortBlocks(ports, {
        blockId: "b",
        actionId: "a",
        label: h,
        chosenId: h,
        hint: h,
        noPorts: "none",
      }),
    ),
  // views/list.ts
  fallbackText: (h) => list.fallbackText(h),
  rangeText: () => list.rangeText(1, 10, 30),
  // views/lookups/orders.ts (and the LOA step it shows, src/domain/tracking/loa.ts)
  nextLoaStep: (h) => nextLoaStep(poison(orderOffNet, h, keep())),
  portOrderView: (h) => [
    orders.portOrderView(poison(orderOffNet, h, keep()), TZ, NOW),
    orders.portOrderView(poison(orderDone, h, keep()), TZ, NOW),
  ],
  // views/portOrder/portOrderModal.ts
  dcfLine: (h) => portOrderModal.dcfLine(poison(dcfOnNet, h, keep())),
  loaBlock: (h) => portOrderModal.loaBlock({ kind: "off-net", text: h }),
  priceBlock: (h) => [
    portOrderModal.priceBlock({ price: { kind: "unavailable", message: h } }, "USD"),
    portOrderModal.priceBlock(
      {
        price: {
          kind: "priced",
          speedMbps: 1000,
          term,
          result: poison(portPriceResult, h, keep()),
        },
      },
      "USD",
    ),
  ],
  portOrderModal: (h) => [
    portOrderModal.portOrderModal({
      metadata: {},
      sandbox: true,
      currency: "USD",
      preview: {
        chosen: { dcf: poison(dcfOnNet, h, keep()) },
        loa: loaPathOf(poison(dcfOffNet, h, keep())),
        speedMbps: 1000,
        term,
        price: { kind: "unavailable", message: h },
      },
    }),
    portOrderModal.portOrderModal({
      metadata: {},
      sandbox: false,
      currency: "USD",
      preview: { chosen: { problem: h } },
    }),
  ],
  // views/lookups/ports.ts
  capacityText: (h) => ports.capacityText(port(h)),
  connectionsSummary: (h) => ports.connectionsSummary(port(h)),
  portListView: (h) => ports.portListView([port(h), port(h)], page),
  iodCapability: (h) => ports.iodCapability(poison(capabilitiesIod, h, keep())),
  portDetailView: (h) => ports.portDetailView(port(h), poison(capabilitiesIod, h, keep()), TZ, NOW),
  // views/lookups/services.ts (the requester is a real person: a trusted mention)
  serviceDetailView: (h) =>
    [layer2PortToPort, layer2BusinessToBusiness, iodService, bareService].map((service) =>
      services.serviceDetailView(
        {
          ...poison(service, h, keep("kind")),
          ...(service.approval
            ? { approval: { id: service.approval.id, requesterId: REQUESTER } }
            : {}),
        },
        TZ,
        NOW,
      ),
    ),
  serviceNotFoundText: (h) => [
    services.serviceNotFoundText("layer2", h),
    services.serviceNotFoundText("iod", h),
  ],
  // views/pricing/pricing.ts
  portPriceView: (h) =>
    pricing.portPriceView(
      { dcf: { name: h, username: h }, speedMbps: 1000, term: { value: 12, unit: h } },
      poison(portPriceResult, h, keep()),
      "USD",
    ),
  factorValue: (h) =>
    pricing.factorValue(poison({ name: "x", value: 1, unit: "u" }, h, keep()) as never, "USD", h),
  regionRate: (h) => pricing.regionRate(poison({ name: "x", rate: 1 }, h, keep()) as never),
  connectionPriceView: (h) =>
    pricing.connectionPriceView(
      {
        srcDcf: { name: h, username: h },
        destDcf: { name: h, username: h },
        bandwidthMbps: 500,
        classOfService: h,
        term: { value: 12, unit: h },
      },
      poison(connectionPriceResult, h, keep()),
      "USD",
    ),
  priceChoicesView: (h) =>
    pricing.priceChoicesView(h, poison([dcfOnNet, dcfOffNet], h, keep()), {
      speedMbps: 1000,
      term: { value: 12, unit: h },
    }),
  // views/pricing/pricingModals.ts
  dcfSuggestionOptions: (h) =>
    [
      { kind: "found", dcfs: poison([dcfOnNet], h, keep()) },
      { kind: "failed", message: h },
    ].map((s) => dcfOptions.dcfSuggestionOptions(s as never, h)),
  portPriceModal: (h) => [
    pricingModals.portPriceModal({
      metadata: {},
      chosen: { dcf: poison(dcfOnNet, h, keep()) },
      // The note is mrkdwn its builders escaped (severalDcfsNote, incompleteCommandNote).
      note: pricingModals.severalDcfsNote(h, 3),
    }),
    pricingModals.portPriceModal({ metadata: {}, chosen: { problem: h } }),
  ],
  incompleteCommandNote: (h) => pricingModals.incompleteCommandNote(h, ["dcf", "speed"] as never),
  connectionPriceModal: () => pricingModals.connectionPriceModal({}),
  noDcfMatchReply: (h) => pricingReplies.noDcfMatchReply(h),
  speedNotOfferedReply: (h) =>
    pricingReplies.speedNotOfferedReply(poison(dcfOnNet, h, keep()), 25000, [1000], term),
  dcfNotReadyReply: (h) => pricingReplies.dcfNotReadyReply(poison(dcfOnNet, h, keep())),
  portArgsProblemReply: (h) =>
    [
      { kind: "speed", text: h },
      { kind: "term", text: h, value: 12, unit: h },
      { kind: "dcf-too-long", length: 4000 },
    ].map((p) => pricingReplies.portArgsProblemReply(p as never)),
  withNarrowedNote: (h) => pricingReplies.withNarrowedNote({ text: "x", blocks: [] }, h, 3, 1000),
  connectionArgsNote: (h) => [
    pricingModals.connectionArgsNote(
      [
        { side: "Source", query: h, found: { name: h, matched: 3 } },
        { side: "Destination", query: h },
      ],
      h,
    ),
  ],
  withIgnoredNote: (h) => pricingReplies.withIgnoredNote({ text: "x", blocks: [] }, [h, "more"]),
  severalDcfsNote: (h) => pricingModals.severalDcfsNote(h, 3),
  // views/reply.ts
  sharedByContext: (h) => reply.sharedByContext(REQUESTER, `/connect ${h}`, [h, h]),
  // views/lookups/routers.ts
  rateLimitText: (h) => routers.rateLimitText(h as never),
  classesOfService: (h) => routers.classesOfService([h, h] as never),
  cloudRoutersView: (h) => routers.cloudRoutersView(poison([routerFull], h, keep()), page),
  // views/lookups/metros.ts
  metrosView: (h) => [
    metros.metrosView(
      [{ id: h, name: h, code: h, country: h, capabilities: { layer2: true }, regionIds: [h] }],
      page,
      h,
    ),
    metros.metrosView([], { ...page, hasNext: false }, h),
  ],
  // views/failures.ts: a provider's own words, quoted in the failure message
  describeFailure: (h) => [
    failures.describeFailure(
      httpError(
        { operation: "createPortOrder", method: "POST", path: "/x", subject: "the port order" },
        400,
        JSON.stringify({ message: h }),
      ),
    ),
    // A gone draft's plain words, as a button's refusal shows them.
    failures.describeFailure(new QuoteNoLongerOffered(edgeDrafts.draftGoneWords(h))),
  ],
  // views/spend/spend.ts (group keys, the currency and the month key as if anything could reach them)
  spendView: (h) => {
    const figures = {
      committedMonthly: 10,
      running: 2,
      runningPayAsYouGo: 1,
      newMonthly: 5,
      newTotal: 60,
      placed: 1,
      placedPayAsYouGo: 0,
    };
    const groups = [
      { key: h, ...figures },
      { key: REQUESTER, ...figures },
      { key: GENERAL, ...figures },
    ];
    const summary = {
      month: { key: h, start: NOW },
      currency: h,
      totals: figures,
      byKind: groups,
      byRequester: groups,
      byChannel: groups,
      entries: [{}],
      termUnknown: 1,
      termTooLong: 1,
      noMonthly: 1,
      payAsYouGo: 1,
      otherCurrency: 1,
    };
    return [spend.spendView(summary), spend.spendView({ ...summary, entries: [] })];
  },
  spendExportNotice: (h) => [
    spend.spendExportNotice({ ok: true, monthKey: h, rows: 2 }),
    spend.spendExportNotice({ ok: false, reason: h }),
  ],
  spendFileMessage: (h) => spend.spendFileMessage(h, 3, h),
  // views/moneyAccess.ts (a failed group look-up's detail is Slack's text: anything)
  ownOnlyNote: (h) => [
    moneyAccess.ownOnlyNote({ sees: "own" }),
    moneyAccess.ownOnlyNote({
      sees: "own",
      failure: { groupId: "S0NETWORK", kind: "unreachable", detail: h },
    }),
  ],
  moneyRefusal: (h) =>
    moneyAccess.moneyRefusal(
      { sees: "own", failure: { groupId: "S0NETWORK", kind: "missing", detail: h } },
      "The team's spend",
    ),
  // views/time.ts
  formatWhen: (h) => time.formatWhen(h, TZ, NOW),
  // views/approvals/trackerMessages.ts: the tracker's thread messages (injected into src/jobs)
  statusLineText: (h) => [
    trackerMessages.statusLineText(ref(h), snapshot(h), h),
    trackerMessages.statusLineText(ref(h), snapshot(h), h, true),
  ],
  trackingStartedText: (h) => trackerMessages.trackingStartedText(ref(h), snapshot(h)),
  changeText: (h) => [
    trackerMessages.changeText(ref(h), { status: `${h}1`, loaStatus: `${h}1` }, snapshot(h)),
    trackerMessages.changeText(ref(h), {}, snapshot(h)),
  ],
  finalText: (h) =>
    ["done", "cancelled", h].map((status) =>
      trackerMessages.finalText(ref(h), { ...snapshot(h), status }),
    ),
  acceptanceReminderText: (h) =>
    trackerMessages.acceptanceReminderText(
      partnerRef(h),
      { ...snapshot(h), status: "PENDING", waitingOn: h },
      3,
      { channel: GENERAL },
    ),
  partnerFinalText: (h) =>
    ["DENIED", h].map((status) =>
      trackerMessages.finalText(partnerRef(h), {
        ...snapshot(h),
        status,
        waitingOn: h,
        details: h,
      }),
    ),
  deadlineText: (h) => trackerMessages.deadlineText(ref(h), 90, { status: h, loaStatus: h }),
  reminderText: (h) => trackerMessages.reminderText(ref(h), 3, h, REQUESTER),
  stoppedText: (h) => trackerMessages.stoppedText(ref(h), REQUESTER),
  portSpeedText: (h) => trackerMessages.portSpeedText(h),
  // views/lookups/tracking.ts
  trackedOrdersView: (h) => tracking.trackedOrdersView([tracked(h)], TZ),
  stopTrackingText: (h) => [
    tracking.stopTrackingText({ ok: true, kind: "edge-order" }, h),
    tracking.stopTrackingText({ ok: false, reason: "not_tracked" }, h),
  ],
  // views/home/home.ts
  homeView: (h) => [
    home.homeView(homeInput(h)),
    home.homeView({ ...homeInput(h), currency: undefined }),
  ],
  myRequestStatus: (h) =>
    (["placed", "failed", "unknown", "rejected"] as const).map((status) =>
      home.myRequestStatus(model(approvalIn(status, h), { status: h, changedAt: h })),
    ),
  myRequestButtons: (h) => home.myRequestButtons(model(approvalIn("pending", h))),
  // views/general/whoami.ts
  whoamiView: (h) => whoami.whoamiView(identity(h), REQUESTER),
};

/**
 * Exports of views/ that are not message builders, and why their output is safe without being
 * fed here: block primitives take mrkdwn their callers already escaped (every caller is a case
 * above); the rest build plain_text, parse input, or return numbers and flags.
 */
const NOT_BUILDERS: Record<string, string> = {
  escapeMrkdwn: "the escaping function itself (tested below)",
  stepTextReferences: "lists the ids a text refers to; words nothing",
  plainFromMrkdwn: "plain_text helper",
  truncate: "length only",
  draftGoneWords:
    "plain words raised as QuoteNoLongerOffered, escaped where shown (describeFailure: fed below)",
  header: "plain_text block",
  section: "primitive: takes mrkdwn its caller escaped",
  fields: "primitive: takes mrkdwn its caller escaped",
  context: "primitive: takes mrkdwn its caller escaped",
  divider: "no text",
  button: "plain_text",
  actions: "container",
  option: "plain_text",
  withSandboxLabel: "adds a fixed label",
  withoutSandboxLabel: "removes a fixed label",
  capBlocks: "adds a fixed line",
  labelledModal: "adds a fixed label to a view its caller built",
  sandboxLabelledBlocks:
    "primitive: text its caller built (and escaped) as sections, plus a fixed label",
  textSections: "primitive: text its caller built (and escaped) as sections",
  encodeEdgeMetadata: "private_metadata",
  parseEdgeMetadata: "parser",
  countryOption: "plain_text option",
  countryOptions: "plain_text options",
  quoteRef: "data",
  encodeQuoteRef: "button value",
  parseQuoteRef: "parser",
  toNumber: "number",
  formatSpeed: "number formatting",
  formatMoney: "number formatting",
  formatNumber: "number formatting",
  formatMbps: "number formatting",
  percentOf: "number formatting",
  yesNo: "fixed words",
  encodeOrderMetadata: "private_metadata",
  parseOrderMetadata: "parser",
  plainText: "plain_text object",
  modalView: "primitive: blocks its caller built; plain_text title and buttons",
  inputBlock: "input block: plain_text label",
  staticSelect: "plain_text options",
  externalSelect: "input element: plain_text option",
  radioButtons: "plain_text options",
  numberInput: "input element",
  textInput: "input element",
  portOption: "plain_text option",
  paginate: "data",
  linesWithin: "primitive: joins mrkdwn lines its caller escaped",
  pageFooter: "primitive: takes a mrkdwn hint its caller escaped",
  pageItems: "data",
  fitBlocks: "block budget",
  metadataFields: "parser",
  channelIdField: "parser",
  loaKind: "enum",
  encodePortOrderMetadata: "private_metadata",
  parsePortOrderMetadata: "parser",
  speedOptions: "plain_text options",
  parsePricePick: "parser",
  portPriceCommand: "a raw command line; its callers escape it (portPriceView is a case)",
  encodeMetadata: "private_metadata",
  parseMetadata: "parser",
  dcfOption: "plain_text option",
  dcfSelect: "input element: plain_text option",
  problemReply: "primitive: takes mrkdwn its caller escaped",
  parseTimestamp: "parser",
  isSet: "flag",
  formatAbsolute: "date formatting",
  formatRelative: "date formatting",
  monthName: "date formatting",
  spendWords:
    "primitive: amounts its caller formatted and escaped, with a count (spendView: fed above)",
  payAsYouGoNote: "a count in fixed words",
};

const VIEW_MODULES = {
  approvals,
  lifecycleRefusals,
  failures,
  metros,
  orderThis,
  asn,
  blocks,
  dcf,
  dcfOptions,
  edge,
  edgeModals,
  edgeOrderModal,
  edgeQuote,
  edgeDrafts,
  format,
  inputs,
  help,
  home,
  iodModal,
  layer2Modal,
  list,
  modalMetadata,
  moneyAccess,
  orderForms,
  orders,
  policy,
  portOrderModal,
  ports,
  pricing,
  pricingModals,
  pricingReplies,
  refusals,
  reply,
  requestCard,
  requestState,
  routers,
  services,
  spend,
  steps,
  time,
  tracking,
  trackerMessages,
  whoami,
};

/**
 * Every message the jobs post that is worded outside views/ (Edge quotes, placement outcomes);
 * the tracker's are views/approvals/trackerMessages.ts', fed above with the views.
 */
const JOB_CASES: Record<string, Case> = {
  // The thread line after placement: each order kind's next steps (src/orders/kinds.ts).
  orderKindNextSteps: (h) =>
    Object.values(ORDER_KINDS).flatMap((spec) =>
      (["order", "port", undefined] as const).map((resource) =>
        spec.nextSteps(approvalIn("placed", h), {
          providerId: h,
          status: h,
          resource,
          record: { loaStatus: h, status: h },
        }),
      ),
    ),
  // A provider error, as any command answers it (src/slack/connect.ts describeFailure).
  describeFailure: (h) =>
    describeFailure(
      httpError(
        { operation: "createPortOrder", method: "POST", path: "/x", subject: "the port order" },
        400,
        JSON.stringify({ message: h }),
      ),
    ),
};

const exportedFunctions = (module: Record<string, unknown>) =>
  Object.entries(module)
    .filter(([, value]) => typeof value === "function" && !/^[A-Z]/.test(String(value.name)))
    .map(([name]) => name);

const tally = { runs: 0, texts: 0, builders: 0 };

function expectNoInjection(name: string, build: Case) {
  fc.assert(
    fc.property(hostileText, (h) => {
      const output = build(h);
      const texts = mrkdwnTexts(output);
      tally.runs++;
      tally.texts += texts.length;
      const found = injectionsIn(output);
      expect(found, `${name} with ${JSON.stringify(h.slice(0, 60))}: ${found.join(" ‖ ")}`).toEqual(
        [],
      );
    }),
    { seed: 20, numRuns: 60 },
  );
  // Each attack once, on its own, so a failure names it plainly.
  for (const h of HOSTILE) {
    const found = injectionsIn(build(h));
    expect(found, `${name} with ${h}: ${found.join(" ‖ ")}`).toEqual([]);
  }
}

describe("hostile text never forms a mention or a link", () => {
  it("lists every module of views/, so a new module's builders are fed hostile text too", async () => {
    const dir = new URL("../../views/", import.meta.url);
    const names = new Set(Object.values(VIEW_MODULES).flatMap((m) => exportedFunctions(m)));
    const unlisted: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const module = (await import(new URL(file, dir).href)) as Record<string, unknown>;
      for (const name of exportedFunctions(module)) {
        if (!names.has(name)) unlisted.push(`${file}: ${name}`);
      }
    }
    expect(unlisted, "add these modules to VIEW_MODULES").toEqual([]);
  });

  it("covers every exported function of views/ (a new builder must be added here)", () => {
    const uncovered: string[] = [];
    const both: string[] = [];
    for (const [moduleName, module] of Object.entries(VIEW_MODULES)) {
      for (const name of exportedFunctions(module)) {
        const covered = name in VIEW_CASES;
        const exempt = name in NOT_BUILDERS;
        if (!covered && !exempt) uncovered.push(`${moduleName}.${name}`);
        if (covered && exempt) both.push(`${moduleName}.${name}`);
      }
    }
    expect(uncovered, "feed these to VIEW_CASES (or say in NOT_BUILDERS why not)").toEqual([]);
    expect(both).toEqual([]);
    // Every word the tracker is given (startJobs' `trackerMessages`) is fed hostile text.
    const jobs = Object.keys(trackerMessages.trackerMessages);
    expect(jobs.filter((n) => !(n in VIEW_CASES))).toEqual([]);
  });

  for (const [name, build] of Object.entries(VIEW_CASES)) {
    it(`views: ${name}`, () => {
      tally.builders++;
      expectNoInjection(name, build);
    });
  }
  for (const [name, build] of Object.entries(JOB_CASES)) {
    it(`jobs: ${name}`, () => {
      tally.builders++;
      expectNoInjection(name, build);
    });
  }

  it("escapes once: escaped text shows as typed and never becomes markup again", () => {
    fc.assert(
      fc.property(hostileText, (h) => {
        const escaped = blocks.escapeMrkdwn(h);
        expect(escaped).not.toMatch(/[<>]/);
        // What Slack shows (entities decoded once) is exactly what was typed.
        expect(blocks.plainFromMrkdwn(escaped)).toBe(h);
        expect(injectionIn(escaped)).toBeUndefined();
      }),
      { seed: 20, numRuns: 200 },
    );
    expect(blocks.escapeMrkdwn("&lt;!channel&gt;")).toBe("&amp;lt;!channel&amp;gt;");
    expect(blocks.escapeMrkdwn("<!channel>", 5)).toBe("&lt;!ch…");
  });

  it("leaves plain_text as typed: headers and options show the characters, not entities", () => {
    const typed = "<!channel> & <b>";
    const view = approvals.approvalMessageView(model({ ...approval, title: typed }));
    const header = view.blocks.find((b) => b.type === "header");
    expect(header?.type === "header" && header.text.text).toBe(`Port order: ${typed}`);
    const option = dcfOptions.dcfOption({ ...dcfOnNet, name: typed });
    expect(option.text.text).toContain(typed);
    expect(option.text.text).not.toContain("&lt;");
  });

  it("finds what it looks for (the check itself is not blind)", () => {
    for (const h of [
      "<!channel>",
      "<@U0VICTIM9>",
      "<#C123>",
      "<https://evil.example|x>",
      "<mailto:a@b>",
    ])
      expect(injectionIn(`ok ${h}`)).toBeDefined();
    expect(injectionIn(`<@${REQUESTER}> <#${GENERAL}> <${TRUSTED_LINK}|here>`)).toBeUndefined();
    expect(injectionsIn({ text: "<!here>", blocks: [] })).toHaveLength(1);
    expect(injectionsIn({ type: "plain_text", text: "<!here>" })).toHaveLength(0);
    expect(
      injectionsIn([{ type: "section", fields: [{ type: "mrkdwn", text: "<!here>" }] }]),
    ).toHaveLength(1);
    // A section's text object, in a message and in a modal.
    const hostileSection = { type: "section", text: { type: "mrkdwn", text: "<!here>" } };
    expect(injectionsIn({ blocks: [hostileSection] })).toHaveLength(1);
    expect(injectionsIn({ type: "modal", blocks: [hostileSection] })).toHaveLength(1);
    // A confirm dialog's mrkdwn text.
    const confirm = { type: "button", confirm: { text: { type: "mrkdwn", text: "<!here>" } } };
    expect(injectionsIn(actionsOf(confirm))).toHaveLength(1);
    // Every item of a list of outputs (a case that builds several messages or texts).
    expect(injectionsIn(["fine", "<!here>", { text: "<!channel>" }])).toHaveLength(2);
  });

  it("records its figures", () => {
    writeReliabilityResult({
      suite: "hostile-text",
      checks:
        "hostile strings (mentions, links, escaped entities, control/zero-width/RTL, 40 kB) through every view builder and job message: no mention or link in any mrkdwn or fallback text",
      figures: { ...tally, attacks: HOSTILE.length },
      settings: { seed: 20 },
    });
    expect(tally.runs).toBeGreaterThan(0);
  });
});
