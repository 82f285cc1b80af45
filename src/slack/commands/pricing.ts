import type { App } from "@slack/bolt";
import type { Services } from "../../services.js";
import type { CommandHandler } from "../connect.js";
import { notYetAvailable } from "./notYetAvailable.js";

export const pricePort: CommandHandler = notYetAvailable;
export const priceL2: CommandHandler = notYetAvailable;

/** Listeners (modal submissions, options loads, buttons) that belong to pricing. */
export function registerPricingListeners(_app: App, _services: Services): void {}
