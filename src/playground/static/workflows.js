import { $, el, get, post, toast, ui } from "./client.js";

/**
 * The Workflows panel (issue 30): a sample Workflow Builder workflow run on the bot's custom
 * steps — a form (data center, speed, term) → Price a port → Request a port order → a message
 * with the order id. Self-contained: its own sidebar link, panel, styles (workflows.css) and API
 * (/playground/api/workflows); while it is open the channel pane's messages and composer are
 * hidden by a class on the body, and any other sidebar link closes it.
 */

const POLL_MS = 1000;
/** Words, not emoji: what a step's badge says (the state is also `data-state`). */
const STATE_WORD = { waiting: "Next", running: "Waiting", done: "Done", failed: "Failed" };

let open = false;
let timer;

function setOpen(value) {
  open = value;
  document.body.classList.toggle("workflows-open", value);
  $("workflows").hidden = !value;
  $("workflows-link").classList.toggle("active", value);
  clearTimeout(timer);
  if (value) refresh();
}

function stepView(step, index) {
  const state = el("span", `wf-state wf-${step.state}`, [STATE_WORD[step.state] ?? step.state]);
  const title = el("div", "wf-step-title", [`${index + 1}. ${step.title}`]);
  const children = [state, el("div", "wf-step-body", [title])];
  if (step.detail) children[1].append(el("div", "wf-step-detail", [step.detail]));
  if (step.outputs) {
    const shown = Object.entries(step.outputs).filter(([key]) => key !== "summary");
    if (shown.length > 0) {
      children[1].append(
        el(
          "dl",
          "wf-outputs",
          shown.flatMap(([key, value]) => [el("dt", "", [key]), el("dd", "", [String(value)])]),
        ),
      );
    }
  }
  const item = el("li", `wf-step wf-step-${step.state}`, children);
  item.dataset.state = step.state;
  return item;
}

function runView(run) {
  const started = new Date(run.startedAt).toLocaleTimeString();
  const header = el("div", "wf-run-header", [`Run ${run.id.slice(4)} · started ${started}`]);
  const item = el("li", "wf-run", [header, el("ol", "wf-steps", run.steps.map(stepView))]);
  item.dataset.runId = run.id;
  return item;
}

async function refresh() {
  if (!open) return;
  try {
    const { runs } = await get("workflows");
    $("wf-runs").replaceChildren(...runs.map(runView));
    $("wf-empty").hidden = runs.length > 0;
  } catch (error) {
    toast(error.message);
  } finally {
    clearTimeout(timer);
    if (open) timer = setTimeout(refresh, POLL_MS);
  }
}

async function runWorkflow(event) {
  event.preventDefault();
  const form = $("wf-form");
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    await post("workflows/run", {
      userId: ui.user,
      dataCenter: $("wf-data-center").value,
      speedMbps: $("wf-speed").value,
      termMonths: $("wf-term").value,
    });
    await refresh();
  } catch (error) {
    toast(error.message);
  } finally {
    button.disabled = false;
  }
}

function wire() {
  $("workflows-link").addEventListener("click", () => setOpen(true));
  $("wf-form").addEventListener("submit", runWorkflow);
  // Any other place in the sidebar (a channel, a DM, Home) closes the panel.
  document.querySelector(".sidebar nav").addEventListener("click", (event) => {
    const link = event.target.closest("button");
    if (link && link.id !== "workflows-link") setOpen(false);
  });
}

wire();
