import type { App } from "@slack/bolt";
import type { Services } from "../../services.js";
import type { CommandHandler } from "../connect.js";
import { notYetAvailable } from "./notYetAvailable.js";

export const dcf: CommandHandler = notYetAvailable;
export const ports: CommandHandler = notYetAvailable;
export const port: CommandHandler = notYetAvailable;
export const order: CommandHandler = notYetAvailable;
export const asn: CommandHandler = notYetAvailable;
export const routers: CommandHandler = notYetAvailable;
export const edgeLocations: CommandHandler = notYetAvailable;
export const edgeOrders: CommandHandler = notYetAvailable;
export const edgeDrafts: CommandHandler = notYetAvailable;

/** Listeners (buttons, options) that belong to the look-up commands. */
export function registerLookupListeners(_app: App, _services: Services): void {}
