export * from "./api.js";
export {
  type AttemptInfo,
  createProviderClient,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  type HttpMethod,
  OPERATIONS,
  type OperationId,
  operationIdFor,
  type ProviderClient,
  type ProviderClientOptions,
  type RetryOptions,
} from "./client.js";
export {
  isProviderError,
  ProviderError,
  type ProviderErrorFields,
  type ProviderErrorKind,
  parseProviderMessage,
} from "./errors.js";
export * from "./normalize.js";
