import { watchLength } from "./fieldLength.js";
import { emojify, isSafeUrl, renderMrkdwn } from "./mrkdwn.js";

/**
 * Block Kit as DOM: the blocks the bot uses in messages and modals (header, section with text,
 * fields and an accessory, context, divider, actions, input) and their elements (buttons,
 * selects, text and number inputs, radio buttons, checkboxes, date and time pickers). Every
 * string from a block becomes a text node or an attribute value, never markup.
 *
 * `env`: `document`, `surface` ("message" | "modal"), `mrkdwn` (renderMrkdwn's context),
 * `people` and `channels` (for user and channel selects), `values` and `errors` (a modal's
 * state and the app's field errors, by block_id), `onAction(block, element, value)` (a button,
 * or a select outside an input), `onInput(block, element, value)` (an input changed),
 * `suggest(block, element, query)` (an external select asks the app), `confirm(dialog)`
 * (resolves true to go on), and `register(field)` (the modal collects its inputs).
 */

function el(env, tag, className, children = []) {
  const node = env.document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** A text object: mrkdwn rendered, plain_text with its emoji shortcodes turned into characters. */
export function textObject(env, text) {
  if (!isObject(text) || typeof text.text !== "string") return env.document.createTextNode("");
  if (text.type === "mrkdwn") return renderMrkdwn(text.text, env.mrkdwn);
  return env.document.createTextNode(text.emoji === false ? text.text : emojify(text.text));
}

const plainText = (text) =>
  isObject(text) && typeof text.text === "string"
    ? text.emoji === false
      ? text.text
      : emojify(text.text)
    : "";

/** The options of a select, flattened with their group (option_groups). */
function optionsOf(element) {
  if (Array.isArray(element.options)) return element.options.map((option) => ({ option }));
  if (Array.isArray(element.option_groups)) {
    return element.option_groups.flatMap((group) =>
      Array.isArray(group.options)
        ? group.options.map((option) => ({ option, group: plainText(group.label) }))
        : [],
    );
  }
  return [];
}

function stateOf(env, block, element) {
  return env.values?.[block.block_id]?.[element.action_id];
}

function selectElement(env, element, selectedValue, placeholder) {
  const select = el(env, "select", "select");
  const empty = el(env, "option", "", [placeholder || "Select an option"]);
  empty.value = "";
  select.append(empty);
  let group;
  let groupNode;
  for (const { option, group: label } of optionsOf(element)) {
    if (label !== undefined && label !== group) {
      group = label;
      groupNode = el(env, "optgroup");
      groupNode.label = label;
      select.append(groupNode);
    }
    const node = el(env, "option", "", [plainText(option.text)]);
    node.value = String(option.value ?? "");
    if (isObject(option.description)) node.title = plainText(option.description);
    (groupNode ?? select).append(node);
  }
  select.value = selectedValue ?? "";
  return select;
}

/** A dialog before a button's action, as Slack's `confirm` object asks. */
async function confirmed(env, element) {
  if (!isObject(element.confirm)) return true;
  return env.confirm(element.confirm);
}

function buttonElement(env, block, element) {
  const style = element.style === "primary" || element.style === "danger" ? element.style : "";
  const button = el(env, "button", `btn ${style}`.trim(), [plainText(element.text)]);
  button.type = "button";
  button.dataset.actionId = String(element.action_id ?? "");
  button.addEventListener("click", async () => {
    if (!(await confirmed(env, element))) return;
    if (typeof element.url === "string" && isSafeUrl(element.url)) {
      env.document.defaultView?.open(element.url, "_blank", "noopener,noreferrer");
    }
    env.onAction(block, element);
  });
  return button;
}

/** A select whose options the app gives as the person types (block_suggestion). */
function externalSelect(env, block, element, onPick) {
  const wrapper = el(env, "div", "combo");
  const input = el(env, "input", "text-input");
  input.type = "text";
  input.autocomplete = "off";
  input.placeholder = plainText(element.placeholder) || "Type to search";
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-expanded", "false");
  const list = el(env, "ul", "combo-list");
  list.setAttribute("role", "listbox");
  list.hidden = true;
  wrapper.append(input, list);
  const current = stateOf(env, block, element)?.selected_option ?? element.initial_option;
  if (isObject(current)) input.value = plainText(current.text);
  const minLength = Number.isInteger(element.min_query_length) ? element.min_query_length : 3;
  let timer;
  let asked = 0;
  const show = (options, query) => {
    list.replaceChildren();
    if (options.length === 0) {
      list.append(el(env, "li", "combo-empty", ["No matches"]));
    }
    for (const option of options) {
      const item = el(env, "li", "combo-option", [plainText(option.text)]);
      item.setAttribute("role", "option");
      item.addEventListener("mousedown", (event) => {
        // mousedown, not click: the input's blur would hide the list before a click lands.
        event.preventDefault();
        input.value = plainText(option.text);
        list.hidden = true;
        input.setAttribute("aria-expanded", "false");
        onPick({ query, pick: String(option.value ?? "") }, option);
      });
      list.append(item);
    }
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
  };
  const ask = (query) => {
    const ticket = ++asked;
    Promise.resolve(env.suggest(block, element, query))
      .then((options) => {
        // Only the answer to the latest query is shown.
        if (ticket === asked) show(Array.isArray(options) ? options : [], query);
      })
      .catch(() => {
        if (ticket === asked) show([], query);
      });
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    const query = input.value;
    if (query.length < minLength) {
      list.hidden = true;
      return;
    }
    timer = setTimeout(() => ask(query), 200);
  });
  input.addEventListener("focus", () => {
    if (minLength === 0) ask(input.value);
  });
  input.addEventListener("blur", () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
  });
  return wrapper;
}

/** An element outside an input block (in a section's accessory or an actions block). */
function actionElement(env, block, element) {
  const type = element.type;
  if (type === "button") return buttonElement(env, block, element);
  if (type === "static_select" || type === "overflow") {
    const initial = type === "static_select" ? element.initial_option?.value : undefined;
    const selected = stateOf(env, block, element)?.selected_option?.value ?? initial;
    const select = selectElement(
      env,
      element,
      selected,
      type === "overflow" ? "⋯" : plainText(element.placeholder),
    );
    if (type === "overflow") select.classList.add("overflow");
    select.dataset.actionId = String(element.action_id ?? "");
    select.addEventListener("change", () => {
      if (select.value === "") return;
      env.onAction(block, element, select.value);
      if (type === "overflow") select.value = "";
    });
    return select;
  }
  if (type === "external_select" && env.surface === "modal") {
    return externalSelect(env, block, element, (pick) => env.onAction(block, element, pick));
  }
  if (type === "datepicker" || type === "timepicker") {
    const input = el(env, "input", "text-input");
    input.type = type === "datepicker" ? "date" : "time";
    input.value = element.initial_date ?? element.initial_time ?? "";
    input.addEventListener("change", () => env.onAction(block, element, input.value));
    return input;
  }
  if (type === "image") return el(env, "span", "image-alt", [`[image: ${element.alt_text ?? ""}]`]);
  return el(env, "span", "unsupported", [`[${String(type)} not shown in the playground]`]);
}

function section(env, block) {
  const node = el(env, "div", "block section");
  const body = el(env, "div", "section-body");
  if (isObject(block.text))
    body.append(el(env, "div", "section-text", [textObject(env, block.text)]));
  if (Array.isArray(block.fields)) {
    body.append(
      el(
        env,
        "div",
        "section-fields",
        block.fields.map((field) => el(env, "div", "section-field", [textObject(env, field)])),
      ),
    );
  }
  node.append(body);
  if (isObject(block.accessory)) {
    node.append(el(env, "div", "accessory", [actionElement(env, block, block.accessory)]));
  }
  return node;
}

function context(env, block) {
  const elements = Array.isArray(block.elements) ? block.elements : [];
  return el(
    env,
    "div",
    "block context",
    elements.map((element) =>
      element?.type === "image"
        ? el(env, "span", "image-alt", [`[${element.alt_text ?? "image"}]`])
        : el(env, "span", "context-item", [textObject(env, element)]),
    ),
  );
}

/** Slack dispatches on Enter unless dispatch_action_config lists only other triggers. */
function enterDispatches(element) {
  const triggers = element.dispatch_action_config?.trigger_actions_on;
  return !Array.isArray(triggers) || triggers.includes("on_enter_pressed");
}

/** The value a person gives an input element, read from the widget when the modal is submitted. */
function inputElement(env, block, element) {
  const type = element.type;
  const state = stateOf(env, block, element);
  const id = `in-${block.block_id}-${element.action_id}`.replace(/[^A-Za-z0-9_-]/g, "_");
  let widget;
  let read;
  let filled;
  let textual = false;
  const changed = (value) => env.onInput(block, element, value);

  if (
    type === "plain_text_input" ||
    type === "number_input" ||
    type === "email_text_input" ||
    type === "url_text_input"
  ) {
    textual = true;
    widget =
      type === "plain_text_input" && element.multiline
        ? el(env, "textarea", "text-input")
        : el(env, "input", "text-input");
    if (widget.tagName === "INPUT") {
      widget.type =
        type === "email_text_input" ? "email" : type === "url_text_input" ? "url" : "text";
    }
    if (type === "number_input")
      widget.inputMode = element.is_decimal_allowed ? "decimal" : "numeric";
    // No maxLength attribute: the browser would cut a long paste without a word. Too long is
    // said at the field instead (input() below), and the submit is refused, as in Slack.
    widget.placeholder = plainText(element.placeholder);
    widget.value = state?.value ?? element.initial_value ?? "";
    // The value Enter already sent: the change event when the field is left sends it again.
    let sentOnEnter;
    widget.addEventListener("change", () => {
      const value = widget.value === "" ? null : widget.value;
      if (sentOnEnter !== undefined && value === sentOnEnter) return;
      sentOnEnter = undefined;
      changed(value);
    });
    if (widget.tagName === "INPUT" && block.dispatch_action === true) {
      // As in Slack: Enter in a dispatch_action input sends the value (block_actions) and does
      // not submit the modal; without dispatch_action it submits, as the browser's form does.
      widget.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" || !enterDispatches(element)) return;
        event.preventDefault();
        sentOnEnter = widget.value === "" ? null : widget.value;
        changed(sentOnEnter);
      });
    }
    read = () => (widget.value === "" ? null : widget.value);
  } else if (
    type === "static_select" ||
    type === "users_select" ||
    type === "conversations_select" ||
    type === "channels_select"
  ) {
    let options = element;
    let selected = state?.selected_option?.value ?? element.initial_option?.value;
    if (type !== "static_select") {
      const list = type === "users_select" ? env.people : env.channels;
      options = {
        options: list.map((item) => ({
          text: { type: "plain_text", text: item.label },
          value: item.id,
        })),
      };
      const key =
        type === "users_select"
          ? "selected_user"
          : type === "channels_select"
            ? "selected_channel"
            : "selected_conversation";
      const initialKey =
        type === "users_select"
          ? "initial_user"
          : type === "channels_select"
            ? "initial_channel"
            : "initial_conversation";
      selected = state?.[key] ?? element[initialKey];
    }
    widget = selectElement(env, options, selected, plainText(element.placeholder));
    widget.addEventListener("change", () => changed(widget.value === "" ? null : widget.value));
    read = () => (widget.value === "" ? null : widget.value);
  } else if (type === "multi_static_select") {
    widget = selectElement(env, element, undefined, "");
    widget.multiple = true;
    widget.firstChild?.remove();
    const chosen = new Set(
      (state?.selected_options ?? element.initial_options ?? []).map((o) => String(o.value)),
    );
    for (const option of widget.querySelectorAll("option"))
      option.selected = chosen.has(option.value);
    const value = () => [...widget.selectedOptions].map((o) => o.value);
    widget.addEventListener("change", () => changed(value()));
    read = value;
  } else if (type === "external_select") {
    let picked = null;
    widget = externalSelect(env, block, element, (pick) => {
      picked = pick;
      changed(pick);
    });
    const existing = state?.selected_option ?? element.initial_option;
    read = () => picked;
    // A pick is entered at once (the app's options cannot be re-read here), so only say whether
    // there is one: the person's, or the one the view came with.
    filled = () => picked !== null || isObject(existing);
  } else if (type === "radio_buttons" || type === "checkboxes") {
    const multiple = type === "checkboxes";
    widget = el(env, "div", multiple ? "checkboxes" : "radios");
    widget.setAttribute("role", multiple ? "group" : "radiogroup");
    const chosen = new Set(
      multiple
        ? (state?.selected_options ?? element.initial_options ?? []).map((o) => String(o.value))
        : [state?.selected_option?.value ?? element.initial_option?.value].filter(Boolean),
    );
    const inputs = [];
    for (const [index, option] of (element.options ?? []).entries()) {
      const box = el(env, "input");
      box.type = multiple ? "checkbox" : "radio";
      box.name = id;
      box.value = String(option.value ?? "");
      box.id = `${id}-${index}`;
      box.checked = chosen.has(box.value);
      inputs.push(box);
      const label = el(env, "label", "choice", [
        box,
        el(env, "span", "", [textObject(env, option.text)]),
      ]);
      if (isObject(option.description)) {
        label.append(el(env, "span", "choice-description", [textObject(env, option.description)]));
      }
      widget.append(label);
    }
    const value = () => {
      const on = inputs.filter((box) => box.checked).map((box) => box.value);
      return multiple ? on : (on[0] ?? null);
    };
    for (const box of inputs) box.addEventListener("change", () => changed(value()));
    read = value;
  } else if (type === "datepicker" || type === "timepicker") {
    widget = el(env, "input", "text-input");
    widget.type = type === "datepicker" ? "date" : "time";
    widget.value =
      (type === "datepicker" ? state?.selected_date : state?.selected_time) ??
      element.initial_date ??
      element.initial_time ??
      "";
    widget.addEventListener("change", () => changed(widget.value === "" ? null : widget.value));
    read = () => (widget.value === "" ? null : widget.value);
  } else {
    widget = el(env, "span", "unsupported", [`[${String(type)} not shown in the playground]`]);
    read = () => undefined;
  }
  widget.id = widget.id || id;
  filled ??= () => {
    const value = read();
    return value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0);
  };
  return { widget, read, filled, textual, id };
}

function input(env, block) {
  const node = el(env, "div", "block input");
  node.dataset.blockId = String(block.block_id ?? "");
  const element = isObject(block.element) ? block.element : { type: "unknown" };
  const { widget, read, filled, textual, id } = inputElement(env, block, element);
  const label = el(env, "label", "input-label", [plainText(block.label)]);
  label.htmlFor = id;
  if (block.optional) label.append(el(env, "span", "optional", [" (optional)"]));
  node.append(label, widget);
  if (isObject(block.hint)) node.append(el(env, "div", "hint", [textObject(env, block.hint)]));
  const error = el(env, "div", "field-error");
  error.setAttribute("role", "alert");
  const message = env.errors?.[block.block_id];
  if (typeof message === "string") {
    error.textContent = message;
    node.classList.add("has-error");
  }
  node.append(error);
  if (textual && Number.isInteger(element.max_length))
    watchLength(widget, element.max_length, error, node);
  env.register?.({
    blockId: String(block.block_id ?? ""),
    actionId: String(element.action_id ?? ""),
    label: plainText(block.label),
    optional: block.optional === true,
    textual,
    read,
    filled,
    widget,
    showError(text) {
      error.textContent = text ?? "";
      node.classList.toggle("has-error", Boolean(text));
    },
  });
  return node;
}

/** One block as DOM; an unknown type says so rather than vanishing. */
export function renderBlock(env, block) {
  if (!isObject(block)) return el(env, "div");
  switch (block.type) {
    case "header":
      return el(env, "div", "block header", [plainText(block.text)]);
    case "section":
      return section(env, block);
    case "context":
      return context(env, block);
    case "divider":
      return el(env, "hr", "block divider");
    case "actions":
      return el(
        env,
        "div",
        "block actions",
        (Array.isArray(block.elements) ? block.elements : []).map((element) =>
          actionElement(env, block, element),
        ),
      );
    case "input":
      return input(env, block);
    case "image":
      return el(env, "div", "block image-alt", [`[image: ${block.alt_text ?? ""}]`]);
    default:
      return el(env, "div", "block unsupported", [
        `[${String(block.type)} block not shown in the playground]`,
      ]);
  }
}

export function renderBlocks(env, blocks) {
  return el(
    env,
    "div",
    "blocks",
    (Array.isArray(blocks) ? blocks : []).map((block) => renderBlock(env, block)),
  );
}
