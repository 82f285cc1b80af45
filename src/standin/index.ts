export { blockProblems, viewProblems } from "./blockKit.js";
export {
  type AppAck,
  type CommandOutcome,
  type EnterOutcome,
  type HttpAppTarget,
  HttpTransport,
  type MessageRef,
  type RawPostOptions,
  SlackAppDriver,
  SocketTransport,
  type SubmitOptions,
  type Transport,
  type ViewRef,
  type ViewSubmissionOutcome,
} from "./driver.js";
export type { FaultSpec, RateLimitOptions } from "./faults.js";
export type { StandinFile } from "./files.js";
export {
  createLocalModalSession,
  type EnterKeyEffect,
  enterKeyEffect,
  type FieldInput,
  type FillOptions,
  fillModal,
  findElement,
  findInputByLabel,
  inputLabels,
  interactiveElements,
  type ModalInputs,
  type ModalSession,
  missingRequiredInputs,
  REQUIRED_FIELD_MESSAGE,
  requiredFieldErrors,
  stateValueFor,
  viewStateValues,
} from "./modal.js";
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
export type * from "./types.js";
export type { WaitOptions } from "./waiters.js";
