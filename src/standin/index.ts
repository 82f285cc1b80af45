export type { MessageRef, ViewRef } from "./driver/actionTargets.js";
export {
  type CommandOutcome,
  type EnterOutcome,
  SlackAppDriver,
  type SubmitOptions,
} from "./driver/driver.js";
export {
  type Actor,
  blockActionsPayload,
  blockSuggestionPayload,
  interactionBody,
  requestBody,
  slashCommandBody,
  slashCommandPayload,
  viewClosedPayload,
  viewSubmissionPayload,
} from "./driver/payloads.js";
export {
  FORM_CONTENT_TYPE,
  type SignedSlackHeaders,
  signSlackRequest,
  slackSignature,
} from "./driver/signing.js";
export {
  type AppAck,
  type HttpAppTarget,
  HttpTransport,
  type RawPostOptions,
  SocketTransport,
  type Transport,
} from "./driver/transport.js";
export type { FaultSpec, RateLimitOptions } from "./faults.js";
export {
  findElement,
  findInputByLabel,
  inputLabels,
  interactiveElements,
} from "./modals/elements.js";
export * from "./modals/modal.js";
export {
  type FieldInput,
  missingRequiredInputs,
  REQUIRED_FIELD_MESSAGE,
  requiredFieldErrors,
  stateValueFor,
  viewStateValues,
} from "./modals/viewState.js";
export type { ViewSubmissionOutcome } from "./modals/viewSubmission.js";
export {
  defaultWorkspaceSeed,
  makeChannel,
  makeUser,
  STANDIN_IDS,
  type WorkspaceSeed,
} from "./seed.js";
export {
  DEFAULT_APP_TOKEN,
  DEFAULT_BOT_TOKEN,
  SlackStandin,
  type SlackStandinOptions,
  startSlackStandin,
} from "./server.js";
export type * from "./types.js";
export type { WaitOptions } from "./waiters.js";
export { blockProblems, viewProblems } from "./webApi/blockKit.js";
export type { StandinFile } from "./webApi/files.js";
export type { ExecutionState, StepExecution } from "./webApi/functions.js";
