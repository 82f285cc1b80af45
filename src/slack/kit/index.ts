// The Slack kit: the patterns every listener uses, written once (issue 21). A feature imports
// what it needs from here; nothing here knows a feature.
export {
  postForApproval,
  type StoreOutcome,
  type SubmitOutcome,
  type SubmitRefusal,
  storeForApproval,
  submitForApproval,
  submittedReply,
} from "./approvalRequest.js";
export { groupMembersVia } from "./approvers.js";
export { recordCommand } from "./audit.js";
export { dcfOptionsLoad } from "./dcfOptions.js";
export { acknowledgeEnter, acknowledgeEnterIn } from "./enterKey.js";
export { blockErrors } from "./fieldErrors.js";
export { checkboxTicked, selectedValue, typedValue } from "./formValues.js";
export { modalOpener, type OpenedModal, type OpenModal } from "./modals.js";
export { moneySightOf } from "./moneySight.js";
export { actionOrder, NewestWins, rebuildOnChange, registerFormChanges } from "./newestWins.js";
export { openThenFill } from "./openThenFill.js";
export { type OrderRefusal, orderRefusal } from "./orderRefusal.js";
export { type OrderThisAt, orderThisButton } from "./orderThis.js";
export { APPROVALS_NOT_SET_UP, approvalsUnavailable } from "./requireApprovals.js";
export { sandboxLabelledChat } from "./sandboxLabel.js";
export {
  checkThenSubmit,
  type OrderFormCheck,
  type OrderFormDeps,
  submitAndTell,
  submitFromForm,
} from "./submitForm.js";
export { type Said, tellPrivately, type Where, whereFormOpened } from "./tellPrivately.js";
