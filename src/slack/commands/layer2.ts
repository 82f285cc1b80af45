import type { App } from "@slack/bolt";
import type { Services } from "../../services.js";
import type { CommandHandler } from "../connect.js";
import { notYetAvailable } from "./notYetAvailable.js";

export const layer2: CommandHandler = notYetAvailable;

/** Listeners (modal submissions, options loads, buttons) of this command. */
export function registerLayer2Listeners(_app: App, _services: Services): void {}
