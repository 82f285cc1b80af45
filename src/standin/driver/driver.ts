import type { BlockElementAction, SlashCommand } from "@slack/bolt";
import { isObject } from "../json.js";
import {
  findElement,
  findInputByLabel,
  isExternalSelect,
  type LocatedElement,
  optionsOf,
} from "../modals/elements.js";
import {
  enterKeyEffect,
  type FillOptions,
  fillModal,
  type ModalInputs,
  type ModalSession,
} from "../modals/modal.js";
import {
  type FieldInput,
  missingRequiredInputs,
  requiredFieldErrors,
  stateValueFor,
  typedQuery,
  untouchedStateValue,
} from "../modals/viewState.js";
import { applySubmissionAck, type ViewSubmissionOutcome } from "../modals/viewSubmission.js";
import type {
  Option,
  StandinResponse,
  StandinView,
  ViewOutput,
  ViewStateValue,
  ViewStateValues,
} from "../types.js";
import type { StepExecution } from "../webApi/functions.js";
import type { Workspace } from "../workspace.js";
import { viewChanged, waitForModal } from "../workspaceWaits.js";
import { type ActionTarget, actionFor, actionSource, openStoredView } from "./actionTargets.js";
import {
  type ActionSource,
  type Actor,
  blockActionsPayload,
  blockSuggestionPayload,
  eventCallbackPayload,
  slashCommandPayload,
  viewClosedPayload,
  viewSubmissionPayload,
} from "./payloads.js";
import type { AppAck, Transport } from "./transport.js";

/**
 * Acting as Slack towards the app: a person runs a command, clicks, picks, types into a modal,
 * submits or closes it; the driver sends what Slack would send through a transport
 * (transport.ts: signed HTTP or a Socket Mode envelope), returns the app's acknowledgement, and
 * applies it the way Slack does (an ack body shown as a message, `response_action` applied to
 * the person's modals, viewSubmission.ts).
 */

export interface CommandOutcome extends AppAck {
  triggerId: string;
  responseUrl: string;
  /** What the ack body put in front of the person (Slack shows it as a message). */
  response?: StandinResponse;
}

/** What Enter in a modal's text or number input led to (see modal.ts `enterKeyEffect`). */
export type EnterOutcome =
  /** The block dispatches: `block_actions` went to the app (its ack is here); nothing submitted. */
  | { effect: "dispatch"; ack: AppAck }
  /** A multiline input: a new line, nothing sent. */
  | { effect: "newline" }
  /**
   * Enter submitted the modal, but a required input was empty: Slack's client shows its own
   * message next to each (by block_id) and sends nothing to the app.
   */
  | { effect: "submit"; refused: Record<string, string> }
  /** Enter submitted the modal: the app's answer, applied as for the submit button. */
  | { effect: "submit"; submitted: ViewSubmissionOutcome };

export interface SubmitOptions {
  /** Send even when a required input is empty (Slack's client would not). */
  allowMissingRequired?: boolean;
}

export class SlackAppDriver<T extends Transport = Transport> {
  constructor(
    private readonly workspace: Workspace,
    readonly transport: T,
    private readonly verificationToken: string,
  ) {}

  private actor(userId: string): Actor {
    const user = this.workspace.users.get(userId);
    if (!user) throw new Error(`No user ${userId} in the stand-in workspace`);
    return {
      team: this.workspace.team,
      user,
      apiAppId: this.workspace.bot.appId,
      verificationToken: this.verificationToken,
    };
  }

  /** The person's open modal: the given one, else the top of their stack (waiting for one to open). */
  private async openModal(userId: string, viewId?: string): Promise<StandinView> {
    if (viewId !== undefined) return openStoredView(this.workspace, viewId);
    return waitForModal(this.workspace, userId, () => true, {
      what: `a modal to open for ${userId}`,
    });
  }

  /** Sends a block_actions payload for these actions, as this person, with a fresh trigger id. */
  private sendActions(userId: string, source: ActionSource, actions: BlockElementAction[]) {
    const payload = blockActionsPayload({
      actor: this.actor(userId),
      source,
      actions,
      triggerId: this.workspace.issueTrigger(userId),
    });
    return this.transport.send("interaction", payload);
  }

  /**
   * The person opens the app's Home tab (or, with `tab: "messages"`, its Messages tab): Slack
   * sends `app_home_opened`, with the Home view the app last published for them, if any.
   */
  openAppHome(userId: string, tab: "home" | "messages" = "home"): Promise<AppAck> {
    const dm = this.workspace.directMessage(userId);
    const published = this.workspace.homeView(userId);
    const payload = eventCallbackPayload({
      actor: this.actor(userId),
      event: {
        type: "app_home_opened",
        user: userId,
        channel: dm?.id ?? "",
        tab,
        ...(tab === "home" && published ? { view: published.view } : {}),
      },
    });
    return this.transport.send("event", payload);
  }

  /**
   * Slack runs one of the app's Workflow Builder steps: a new run with its own step-scoped
   * token (functions.ts) and the `function_executed` event. Resolves with the app's ack and the
   * run; `standin.waitForStepEnd(run.executionId)` waits for the app to end it.
   */
  async runStep(
    callbackId: string,
    inputs: Record<string, unknown>,
    options: { userId?: string } = {},
  ): Promise<AppAck & { run: StepExecution }> {
    const run = this.workspace.functions.start(callbackId, inputs);
    const payload = eventCallbackPayload({
      // The person whose workflow run it is (the authorizations Slack sends name someone).
      actor: this.actor(options.userId ?? [...this.workspace.users.keys()][0] ?? ""),
      event: {
        type: "function_executed",
        function: {
          id: `Fn${callbackId
            .replace(/[^a-z0-9]/gi, "")
            .slice(0, 10)
            .toUpperCase()}`,
          callback_id: callbackId,
          title: callbackId,
          type: "app",
          input_parameters: [],
          output_parameters: [],
          app_id: this.workspace.bot.appId,
          date_created: Math.floor(run.startedAt / 1000),
          date_updated: Math.floor(run.startedAt / 1000),
          date_deleted: 0,
        },
        inputs,
        function_execution_id: run.executionId,
        workflow_execution_id: run.workflowExecutionId,
        bot_access_token: run.token,
      },
    });
    const ack = await this.transport.send("event", payload);
    return { ...ack, run };
  }

  /** Runs a slash command as `userId` in `channelId`; an ack body is shown like Slack shows it. */
  async command(
    userId: string,
    channelId: string,
    command: string,
    text = "",
    overrides: Partial<SlashCommand> = {},
  ): Promise<CommandOutcome> {
    const channel = this.workspace.resolveChannel(channelId);
    if (!channel) throw new Error(`No channel ${channelId} in the stand-in workspace`);
    const triggerId = this.workspace.issueTrigger(userId);
    const responseUrl = this.workspace.createResponseUrl({ channel: channel.id, userId });
    const payload = slashCommandPayload(
      { actor: this.actor(userId), channel, command, text, responseUrl, triggerId },
      overrides,
    );
    const ack = await this.transport.send("command", payload);
    const outcome: CommandOutcome = { ...ack, triggerId, responseUrl };
    const shown =
      typeof ack.body === "string" ? { text: ack.body } : isObject(ack.body) ? ack.body : undefined;
    if (ack.status === 200 && shown && (shown.text !== undefined || shown.blocks !== undefined)) {
      const id = responseUrl.slice(responseUrl.lastIndexOf("/") + 1);
      outcome.response = this.workspace.applyResponse(id, shown, "ack");
    }
    return outcome;
  }

  /** Sends a block_actions for one element; for a view, the change is entered first. */
  private async act(
    target: ActionTarget,
    input: FieldInput | undefined,
    value?: string,
  ): Promise<AppAck> {
    const { source, blocks } = actionSource(this.workspace, target);
    const located = findElement(blocks, target.actionId, target.blockId);
    let stateValue: ViewStateValue | undefined;
    if (located.element.type !== "button") {
      if (input === undefined)
        throw new Error(`"${target.actionId}" is a ${located.element.type}; give a value`);
      let suggestions: Option[] | undefined;
      if (isExternalSelect(located)) {
        const query = typedQuery(input);
        suggestions = await this.suggestFrom(target.userId, source, located, query);
      }
      stateValue = stateValueFor(located, input, suggestions);
    }
    if (source.kind === "view" && stateValue) {
      this.workspace.enterValue(source.view.id, located.blockId, located.actionId, stateValue);
      source.view = openStoredView(this.workspace, source.view.id).view;
    }
    const action = actionFor(located, stateValue);
    if (value !== undefined && "value" in action) (action as { value?: string }).value = value;
    return this.sendActions(target.userId, source, [action]);
  }

  /** Clicks a button in a message or a view (`value` overrides the button's value). */
  clickButton(target: ActionTarget & { value?: string }): Promise<AppAck> {
    return this.act(target, undefined, target.value);
  }

  /** Picks an option (by text or value) in a select, radio group or overflow menu outside an input. */
  selectOption(target: ActionTarget & { option: FieldInput }): Promise<AppAck> {
    return this.act(target, target.option);
  }

  /** Changes any other element (a datepicker, checkboxes, a users select) to `input`. */
  changeElement(target: ActionTarget & { input: FieldInput }): Promise<AppAck> {
    return this.act(target, target.input);
  }

  private async suggestFrom(
    userId: string,
    source: ActionSource,
    located: LocatedElement,
    query: string,
  ): Promise<Option[]> {
    const where =
      source.kind === "view"
        ? ({ kind: "view", view: source.view } as const)
        : ({
            kind: "message",
            channel: source.channel,
            messageTs: source.kind === "message" ? source.message.ts : source.messageTs,
          } as const);
    const payload = blockSuggestionPayload({
      actor: this.actor(userId),
      actionId: located.actionId,
      blockId: located.blockId,
      value: query,
      source: where,
    });
    const ack = await this.transport.send("interaction", payload);
    return ack.status === 200 && isObject(ack.body) ? optionsOf(ack.body) : [];
  }

  /** Types `query` into an external select of a view; returns the options the app offers. */
  suggest(
    userId: string,
    viewId: string,
    actionId: string,
    blockId: string | undefined,
    query: string,
  ): Promise<Option[]> {
    const stored = openStoredView(this.workspace, viewId);
    const located = findElement(stored.view.blocks, actionId, blockId);
    return this.suggestFrom(userId, { kind: "view", view: stored.view }, located, query);
  }

  /** A session for modal.ts over a view in the stand-in, with the app behind it. */
  modalSession(userId: string, viewId: string): ModalSession {
    const workspace = this.workspace;
    return {
      view: () => openStoredView(this.workspace, viewId).view,
      enter: (blockId, actionId, value) => workspace.enterValue(viewId, blockId, actionId, value),
      suggest: (blockId, actionId, query) => this.suggest(userId, viewId, actionId, blockId, query),
      dispatch: async (located, value) => {
        const view = openStoredView(this.workspace, viewId).view;
        await this.sendActions(userId, { kind: "view", view }, [actionFor(located, value)]);
      },
      viewChanged: (hash, timeoutMs) => viewChanged(workspace, viewId, hash, timeoutMs),
    };
  }

  /**
   * Fills the person's open modal (or `options.viewId`) by labels, as they would; returns the
   * state it would submit. Waits for a modal to open when none is open yet.
   */
  async fillView(
    userId: string,
    inputs: ModalInputs,
    options: FillOptions & { viewId?: string } = {},
  ): Promise<ViewStateValues> {
    const stored = await this.openModal(userId, options.viewId);
    return fillModal(this.modalSession(userId, stored.view.id), inputs, options);
  }

  /**
   * Submits a modal (the person's top one by default) with what was entered, or with `values`
   * given whole, and applies the app's `response_action` as Slack does: `errors` shown next to
   * the inputs, `update` replaces the view, `push` stacks a new one, `clear` closes all, and an
   * empty ack closes the submitted view.
   */
  async submitView(
    userId: string,
    viewId?: string,
    values?: ViewStateValues,
    options: SubmitOptions = {},
  ): Promise<ViewSubmissionOutcome> {
    const stored = await this.openModal(userId, viewId);
    const view: ViewOutput = values ? { ...stored.view, state: { values } } : stored.view;
    if (!options.allowMissingRequired) {
      const missing = missingRequiredInputs(view.blocks, view.state.values);
      if (missing.length > 0) {
        throw new Error(
          `Slack would not submit "${view.callback_id}": required input(s) empty: ${missing.map((l) => `"${l}"`).join(", ")}`,
        );
      }
    }
    const payload = viewSubmissionPayload({
      actor: this.actor(userId),
      view,
      triggerId: this.workspace.issueTrigger(userId),
    });
    const ack = await this.transport.send("interaction", payload);
    return applySubmissionAck(this.workspace, userId, stored, ack);
  }

  /**
   * The person presses Enter in the input labelled `label` of their open modal (or
   * `options.viewId`), with what was entered so far: Slack's client dispatches, adds a line, or
   * submits the whole modal (refusing to send while a required input is empty).
   */
  async pressEnter(
    userId: string,
    label: string,
    options: { viewId?: string } = {},
  ): Promise<EnterOutcome> {
    const stored = await this.openModal(userId, options.viewId);
    const view = stored.view;
    const located = findInputByLabel(view.blocks, label);
    const effect = enterKeyEffect(located);
    if (effect === "newline") return { effect };
    if (effect === "dispatch") {
      const value =
        view.state.values[located.blockId]?.[located.actionId] ??
        untouchedStateValue(located.element);
      return {
        effect,
        ack: await this.sendActions(userId, { kind: "view", view }, [actionFor(located, value)]),
      };
    }
    const refused = requiredFieldErrors(view.blocks, view.state.values);
    if (Object.keys(refused).length > 0) return { effect, refused };
    return { effect, submitted: await this.submitView(userId, view.id) };
  }

  /**
   * The person closes a modal (Cancel or ×). Slack tells the app only when the view asked for it
   * (`notify_on_close`); then the app's ack is returned, else undefined.
   */
  async closeView(userId: string, viewId?: string): Promise<AppAck | undefined> {
    const stored = await this.openModal(userId, viewId);
    const clear = stored.view.clear_on_close;
    if (clear) this.workspace.clearModals(userId);
    else this.workspace.closeView(userId, stored.view.id);
    if (!stored.view.notify_on_close) return undefined;
    const payload = viewClosedPayload({
      actor: this.actor(userId),
      view: stored.view,
      isCleared: clear,
    });
    return this.transport.send("interaction", payload);
  }

  /** Sends any interaction payload as is (for cases the helpers above do not cover). */
  sendInteraction(payload: object): Promise<AppAck> {
    return this.transport.send("interaction", payload);
  }
}
