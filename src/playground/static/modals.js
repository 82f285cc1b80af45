import { renderBlocks } from "./blocks.js";
import { $, act, blocksEnv, el, expectChanges, get, post, toast, ui } from "./client.js";

/**
 * The person's modal: the top of their stack shown as a form, each input sent as it changes
 * (so the app sees dispatches and the server checks values), Slack's own required-field check
 * before submitting, the app's errors under their fields, and Cancel or × closing it.
 */

const modal = { key: null, id: null, fields: [], pending: new Set() };

function syncInput(viewId, block, element, value) {
  const work = post("view/input", {
    viewId,
    blockId: block.block_id,
    actionId: element.action_id,
    value,
  })
    .then(() => {
      const field = modal.fields.find(
        (f) => f.blockId === block.block_id && f.actionId === element.action_id,
      );
      if (field) {
        field.shown = field.widget.value;
        field.showError("");
      }
      expectChanges();
    })
    .catch((error) => {
      const field = modal.fields.find((f) => f.blockId === block.block_id);
      if (field) field.showError(error.message);
      else toast(error.message);
    });
  modal.pending.add(work);
  work.finally(() => modal.pending.delete(work));
  return work;
}

async function submitModal(view, buttons) {
  let missing = false;
  for (const field of modal.fields) {
    field.showError("");
    if (!field.optional && !field.filled()) {
      field.showError("Please complete this required field.");
      missing = true;
    }
  }
  if (missing) return;
  for (const button of buttons) button.disabled = true;
  try {
    await Promise.allSettled([...modal.pending]);
    const values = {};
    for (const field of modal.fields.filter((f) => f.textual)) {
      values[field.blockId] ??= {};
      values[field.blockId][field.actionId] = field.read();
    }
    const result = await post("view/submit", { viewId: view.id, values });
    for (const [blockId, message] of Object.entries(result.errors ?? {})) {
      modal.fields.find((f) => f.blockId === blockId)?.showError(message);
    }
    if (Array.isArray(result.problems) && result.problems.length > 0) {
      toast(`The app's answer has problems Slack would refuse: ${result.problems.join("; ")}`);
    }
  } catch (error) {
    if (error.fieldErrors) {
      for (const [blockId, message] of Object.entries(error.fieldErrors)) {
        modal.fields.find((f) => f.blockId === blockId)?.showError(message);
      }
    } else {
      toast(error.message);
    }
  } finally {
    for (const button of buttons) button.disabled = false;
    expectChanges();
  }
}

function closeModal(view) {
  act(() => post("view/close", { viewId: view.id })).catch(() => {});
}

export function renderModal() {
  const root = $("modal-root");
  const stack = ui.data?.modals ?? [];
  const view = stack[stack.length - 1];
  const key = view ? `${ui.user}|${view.id}|${view.hash}|${JSON.stringify(view.errors)}` : null;
  if (key === modal.key) return;
  // Keep what the person typed but has not sent yet when the app updates the same view.
  const typed = new Map();
  if (view && view.id === modal.id) {
    for (const field of modal.fields) {
      if (field.textual && field.widget.value !== field.shown) {
        typed.set(`${field.blockId}/${field.actionId}`, field.widget.value);
      }
    }
  }
  const opened = view && view.id !== modal.id;
  modal.key = key;
  modal.id = view?.id ?? null;
  modal.fields = [];
  if (!view) {
    root.replaceChildren();
    return;
  }
  const env = blocksEnv(
    "modal",
    { viewId: view.id },
    {
      values: view.values,
      errors: view.errors,
      people: (ui.data?.people ?? []).map((p) => ({ id: p.id, label: p.realName })),
      channels: (ui.data?.channels ?? []).map((c) => ({ id: c.id, label: `#${c.name}` })),
      register: (field) => {
        field.shown = field.widget.value;
        modal.fields.push(field);
      },
      onInput: (block, element, value) => syncInput(view.id, block, element, value),
      suggest: async (block, element, query) => {
        const result = await get("suggest", {
          user: ui.user,
          viewId: view.id,
          blockId: block.block_id,
          actionId: element.action_id,
          query,
        });
        return result.options;
      },
    },
  );
  const title = el("h2", "", [view.title]);
  title.id = "modal-title";
  const closeX = el("button", "icon-btn", ["×"]);
  closeX.type = "button";
  closeX.setAttribute("aria-label", "Close");
  closeX.addEventListener("click", () => closeModal(view));
  const body = el("div", "modal-body", [renderBlocks(env, view.blocks)]);
  const cancel = el("button", "btn", [view.close ?? "Cancel"]);
  cancel.type = "button";
  cancel.addEventListener("click", () => closeModal(view));
  const footer = el("div", "modal-footer", [cancel]);
  const buttons = [cancel];
  if (view.submit) {
    const submit = el("button", "btn primary", [view.submit]);
    submit.type = "submit";
    buttons.push(submit);
    footer.append(submit);
  }
  const form = el("form", "modal", [el("div", "modal-header", [title, closeX]), body, footer]);
  form.noValidate = true;
  form.setAttribute("role", "dialog");
  form.setAttribute("aria-modal", "true");
  form.setAttribute("aria-labelledby", "modal-title");
  form.dataset.viewId = view.id;
  form.dataset.callbackId = view.callbackId;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (view.submit) submitModal(view, buttons);
  });
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeModal(view);
  });
  const backdrop = el("div", "backdrop", [form]);
  if (stack.length > 1) backdrop.dataset.depth = String(stack.length);
  root.replaceChildren(backdrop);
  for (const field of modal.fields) {
    const value = typed.get(`${field.blockId}/${field.actionId}`);
    if (value !== undefined) field.widget.value = value;
  }
  if (opened) (form.querySelector("input, textarea, select") ?? cancel).focus();
}
