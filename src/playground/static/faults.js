import { $, act, post, ui } from "./client.js";

/**
 * "Try a failure" in the sidebar (issue 32, item 8; embedded sandbox only): the sandbox's fault
 * knobs, so the README's failure stories can be tried by clicking. Fail the next order (400 /
 * 500 / no answer), slow the provider, have the partner accept or deny the newest layer 2
 * connection waiting on it, or clear every fault. The server turns each into the sandbox's own
 * admin calls (src/playground/sandboxFaults.ts).
 */

/** What the last knob did, shown while the sandbox's faults are still as that knob left them. */
let lastSaid = { text: "", faults: "" };

/** A new run of the playground has no faults: what was said about the last one is gone. */
export function forgetFaults() {
  lastSaid = { text: "", faults: "" };
}

const OUTCOME = {
  400: "refused (400)",
  500: "a server error (500)",
  timeout: "no answer (times out)",
};

export function renderFaults() {
  const section = $("sandbox-faults");
  const faults = ui.data?.sandbox ? ui.data.sandboxFaults : undefined;
  section.hidden = !faults;
  if (!faults) return;
  const armed = [];
  if (faults.nextOrder) armed.push(`Next order: ${OUTCOME[faults.nextOrder]}.`);
  if (faults.slowMs) armed.push(`Provider slowed by ${faults.slowMs / 1000} s.`);
  const slow = $("fault-slow");
  if (document.activeElement !== slow) slow.checked = Boolean(faults.slowMs);
  for (const button of section.querySelectorAll("[data-fail-next]")) {
    button.classList.toggle("armed", faults.nextOrder === button.dataset.failNext);
  }
  const state = armed.length > 0 ? armed.join(" ") : "No faults armed.";
  const said = lastSaid.faults === JSON.stringify(faults) ? lastSaid.text : "";
  $("sandbox-faults-note").textContent = said ? `${said} ${state}` : state;
}

async function turn(knob, controls) {
  for (const control of controls) control.disabled = true;
  try {
    const result = await act(() => post("sandbox/fault", knob));
    lastSaid = { text: result.said, faults: JSON.stringify(result.faults) };
    if (ui.data) ui.data.sandboxFaults = result.faults;
    renderFaults();
  } catch {
    // act() has shown why.
  } finally {
    for (const control of controls) control.disabled = false;
  }
}

export function wireFaults() {
  const section = $("sandbox-faults");
  const controls = [...section.querySelectorAll("button, input")];
  for (const button of section.querySelectorAll("[data-fail-next]")) {
    button.addEventListener("click", () =>
      turn({ knob: "fail-next-order", outcome: button.dataset.failNext }, controls),
    );
  }
  for (const button of section.querySelectorAll("[data-partner]")) {
    button.addEventListener("click", () =>
      turn({ knob: "partner", decision: button.dataset.partner }, controls),
    );
  }
  $("fault-slow").addEventListener("change", (event) =>
    turn({ knob: "slow", on: event.target.checked }, controls),
  );
  $("fault-clear").addEventListener("click", () => turn({ knob: "clear" }, controls));
}
