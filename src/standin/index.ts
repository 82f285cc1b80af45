export type { MessageRef, ViewRef } from "./actionTargets.js";
export { blockProblems, viewProblems } from "./blockKit.js";
export {
  type CommandOutcome,
  type EnterOutcome,
  SlackAppDriver,
  type SubmitOptions,
} from "./driver.js";
export {
  findElement,
  findInputByLabel,
  inputLabels,
  interactiveElements,
} from "./elements.js";
export type { FaultSpec, RateLimitOptions } from "./faults.js";
export type { StandinFile } from "./files.js";
export type { ExecutionState, StepExecution } from "./functions.js";
export * from "./modal.js";
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
} from "./payloads.js";
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
export {
  FORM_CONTENT_TYPE,
  type SignedSlackHeaders,
  signSlackRequest,
  slackSignature,
} from "./signing.js";
export {
  type AppAck,
  type HttpAppTarget,
  HttpTransport,
  type RawPostOptions,
  SocketTransport,
  type Transport,
} from "./transport.js";
export type * from "./types.js";
export {
  type FieldInput,
  missingRequiredInputs,
  REQUIRED_FIELD_MESSAGE,
  requiredFieldErrors,
  stateValueFor,
  viewStateValues,
} from "./viewState.js";
export type { ViewSubmissionOutcome } from "./viewSubmission.js";
export type { WaitOptions } from "./waiters.js";
