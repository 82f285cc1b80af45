import type { SlackAppDriver, SlackStandin } from "../../src/standin/index.js";

/**
 * What an approver can do from a request's message in the approvals channel: the buttons it
 * shows now. Found by their words (the ids are the bot's business), so the suite acts as a
 * person would: "Look up again", "Place again", "Mark as failed" (issue 19, no dead ends).
 */
export interface OfferedButton {
  text: string;
  actionId: string;
  value?: string;
}

export function offeredButtons(
  standin: SlackStandin,
  channel: string,
  ts: string,
): OfferedButton[] {
  const message = standin.messages(channel).find((m) => m.ts === ts);
  const buttons: OfferedButton[] = [];
  for (const block of message?.blocks ?? []) {
    const elements =
      block.type === "actions" && "elements" in block
        ? block.elements
        : block.type === "section" && "accessory" in block && block.accessory
          ? [block.accessory]
          : [];
    for (const element of elements) {
      if (element.type !== "button" || !("action_id" in element) || !element.action_id) continue;
      buttons.push({
        text: element.text.text,
        actionId: element.action_id,
        ...(element.value !== undefined ? { value: element.value } : {}),
      });
    }
  }
  return buttons;
}

/**
 * Clicks the request's button whose words match `label`, as `userId`; when the click opens a
 * modal (a confirmation), submits it as shown. Returns false when no such button is offered.
 */
export async function clickOffered(input: {
  standin: SlackStandin;
  slack: SlackAppDriver;
  userId: string;
  channel: string;
  ts: string;
  label: RegExp;
}): Promise<boolean> {
  const { standin, slack, userId, channel, ts, label } = input;
  const button = offeredButtons(standin, channel, ts).find((b) => label.test(b.text));
  if (!button) return false;
  const before = standin.currentView(userId)?.view.id;
  const ack = await slack.clickButton({
    userId,
    message: { channel, ts },
    actionId: button.actionId,
  });
  if (ack.status !== 200) throw new Error(`"${button.text}" answered ${ack.status}`);
  const opened = await standin
    .waitForView(userId, (v) => v.view.id !== before, { timeoutMs: 1_500 })
    .catch(() => undefined);
  if (opened) await slack.submitView(userId, opened.view.id);
  return true;
}
