import { DCF_PAGE_SIZE, dcfListView } from "../../../../views/dcf.js";
import {
  EDGE_ITEM_PAGE_SIZE,
  EDGE_LOCATION_PAGE_SIZE,
  edgeDraftsView,
  edgeLocationsView,
  edgeOrdersView,
} from "../../../../views/edge/edge.js";
import { code } from "../../../../views/format.js";
import { asnView } from "../../../../views/lookups/asn.js";
import { METRO_PAGE_SIZE, metrosView } from "../../../../views/lookups/metros.js";
import { portOrderView } from "../../../../views/lookups/orders.js";
import { PORT_PAGE_SIZE, portDetailView, portListView } from "../../../../views/lookups/ports.js";
import { cloudRoutersView, ROUTER_PAGE_SIZE } from "../../../../views/lookups/routers.js";
import { serviceDetailView, serviceNotFoundText } from "../../../../views/lookups/services.js";
import { stopTrackingText, trackedOrdersView } from "../../../../views/lookups/tracking.js";
import { problemReply } from "../../../../views/reply.js";
import { COMMAND } from "../../../domain/commands.js";
import { lookUpAsns } from "../../../usecases/asn.js";
import { DCF_QUERY_MAX, parseDcfQuery, searchFacilities } from "../../../usecases/dcf.js";
import { listEdgeDrafts, listEdgeLocations, listEdgeOrders } from "../../../usecases/edge/lists.js";
import { listMetros, METRO_QUERY_MAX } from "../../../usecases/metros.js";
import { lookUpPortOrder } from "../../../usecases/orderLookup.js";
import {
  type IdCheck,
  listCompanyPorts,
  lookUpPort,
  parseRecordId,
} from "../../../usecases/ports.js";
import { listRouters } from "../../../usecases/routers.js";
import { lookUpService, type ServiceDetail } from "../../../usecases/services.js";
import type { CommandContext, CommandHandler, CommandOf, CommandTable } from "../../connect.js";
import type { LookupDeps } from "./index.js";

// The look-up commands: parse the arguments, call the use case, render the view. Input problems
// answer with a short usage line (Reply.problem); provider failures are thrown to the router,
// which turns them into a short message.

/** What a person typed, quoted back short: enough to spot the typo, never a wall of text. */
function typed(ctx: CommandContext): string {
  return code(ctx.args.join(" ").slice(0, 80));
}

function usage(synopsis: string, more = ""): string {
  return `Usage: \`${COMMAND} ${synopsis}\`${more ? ` — ${more}` : ""}`;
}

/** Commands without arguments say so rather than silently ignoring what was typed. */
async function noArguments(ctx: CommandContext): Promise<boolean> {
  if (ctx.args.length === 0) return true;
  await ctx.reply(
    problemReply(`${usage(ctx.name)} (it takes no arguments; you typed ${typed(ctx)}).`),
  );
  return false;
}

function idProblem(check: Exclude<IdCheck, { ok: true }>, ctx: CommandContext, what: string) {
  const synopsis = `${ctx.name} &lt;${what}Id&gt;`;
  if (check.problem === "missing") {
    const where =
      what === "order"
        ? "the order id is in the order confirmation and the approval thread."
        : `find ${what === "port" ? "port" : `a port's ${what}`} ids with \`${COMMAND} ${what === "port" ? "ports" : "port &lt;portId&gt;"}\`.`;
    return problemReply(usage(synopsis, where));
  }
  return problemReply(
    `${typed(ctx)} does not look like ${/^[aeiou]/.test(what) ? "an" : "a"} ${what} id (one word of letters, digits, - or _). ${usage(synopsis)}`,
  );
}

export const dcf: CommandOf<LookupDeps> = async (ctx, deps) => {
  const query = parseDcfQuery(ctx.args);
  if (!query.ok) {
    await ctx.reply(
      problemReply(
        `The search text is too long (${DCF_QUERY_MAX} characters at most): try part of a name, a city or an airport code. ${usage("dcf [text]", `e.g. \`${COMMAND} dcf amsterdam\``)}`,
      ),
    );
    return;
  }
  const result = await searchFacilities(deps, {
    text: query.query,
    page: ctx.page,
    pageSize: DCF_PAGE_SIZE,
  });
  await ctx.reply(
    dcfListView(result.dcfs, { ...result.page, query: result.query, metros: result.metros }),
  );
};

export const metros: CommandOf<LookupDeps> = async (ctx, deps) => {
  const text = ctx.args.join(" ").trim();
  if (text.length > METRO_QUERY_MAX) {
    await ctx.reply(
      problemReply(
        `The search text is too long (${METRO_QUERY_MAX} characters at most): try a city, a metro code or a country code. ${usage("metros [text]", `e.g. \`${COMMAND} metros AMS\``)}`,
      ),
    );
    return;
  }
  const result = await listMetros(deps, {
    text,
    page: ctx.page,
    pageSize: METRO_PAGE_SIZE,
  });
  await ctx.reply(metrosView(result.metros, result.page, result.query));
};

export const ports: CommandOf<LookupDeps> = async (ctx, deps) => {
  if (!(await noArguments(ctx))) return;
  const result = await listCompanyPorts(deps, {
    page: ctx.page,
    pageSize: PORT_PAGE_SIZE,
  });
  await ctx.reply(portListView(result.ports, result.page));
};

export const port: CommandOf<LookupDeps> = async (ctx, deps) => {
  const id = parseRecordId(ctx.args);
  if (!id.ok) {
    await ctx.reply(idProblem(id, ctx, "port"));
    return;
  }
  const [found, timeZone] = await Promise.all([lookUpPort(deps, id.id), ctx.timeZone()]);
  if (!found.found) {
    await ctx.reply(
      problemReply(
        `No port with id ${code(found.portId)}. Your ports and their ids: \`${COMMAND} ports\`.`,
      ),
    );
    return;
  }
  await ctx.reply(portDetailView(found.port, found.capabilities, timeZone, deps.clock.now()));
};

export const order: CommandOf<LookupDeps> = async (ctx, deps) => {
  const id = parseRecordId(ctx.args);
  if (!id.ok) {
    await ctx.reply(idProblem(id, ctx, "order"));
    return;
  }
  const [found, timeZone] = await Promise.all([lookUpPortOrder(deps, id.id), ctx.timeZone()]);
  if (!found.found) {
    // A layer 2 connection or IO-D service id is what people paste here too (the approval
    // thread shows it as the order's id): show it rather than saying no.
    // Its failure must not hide the answer asked for: "no port order" still holds.
    const service = await lookUpService(deps, id.id).catch((error: unknown) => {
      deps.logger.warn({ err: error }, "order look-up: connections unavailable");
      return undefined;
    });
    if (service?.found) {
      await replyWithService(ctx, deps, service.service);
      return;
    }
    await ctx.reply(
      problemReply(
        `No port order with id ${code(found.orderId)} in your company${service ? ", nor a layer 2 connection or IO-D service on your ports" : ""}. Check the id in the order confirmation or the approval thread.`,
      ),
    );
    return;
  }
  await ctx.reply(portOrderView(found.order, timeZone, deps.clock.now()));
};

async function replyWithService(
  ctx: CommandContext,
  deps: LookupDeps,
  service: ServiceDetail,
): Promise<void> {
  await ctx.reply(serviceDetailView(service, await ctx.timeZone(), deps.clock.now()));
}

/**
 * `/connect l2 <connectionId>` and `/connect iod <serviceId>`. An id of the other kind is shown
 * all the same (with its own title), so a person who picked the wrong word still gets the answer.
 */
async function serviceLookup(
  ctx: CommandContext,
  deps: LookupDeps,
  kind: "layer2" | "iod",
): Promise<void> {
  const id = parseRecordId(ctx.args);
  if (!id.ok) {
    await ctx.reply(idProblem(id, ctx, kind === "layer2" ? "connection" : "service"));
    return;
  }
  const found = await lookUpService(deps, id.id);
  if (!found.found) {
    await ctx.reply(problemReply(serviceNotFoundText(kind, found.id)));
    return;
  }
  await replyWithService(ctx, deps, found.service);
}

/**
 * The order commands `l2` and `iod` open their form; given an id, they look the connection or
 * service up instead (the form takes no arguments).
 */
export function formOrLookup(form: CommandHandler, kind: "layer2" | "iod"): CommandOf<LookupDeps> {
  return (ctx, deps) => (ctx.args.length === 0 ? form(ctx) : serviceLookup(ctx, deps, kind));
}

export const asn: CommandOf<LookupDeps> = async (ctx, deps) => {
  if (!(await noArguments(ctx))) return;
  const overview = await lookUpAsns(deps);
  await ctx.reply(
    asnView(
      overview.suggestedPrivateAsn !== undefined
        ? { asn: overview.suggestedPrivateAsn }
        : undefined,
      overview.verified,
    ),
  );
};

export const routers: CommandOf<LookupDeps> = async (ctx, deps) => {
  if (!(await noArguments(ctx))) return;
  const result = await listRouters(deps, { page: ctx.page, pageSize: ROUTER_PAGE_SIZE });
  await ctx.reply(cloudRoutersView(result.routers, result.page));
};

export const edgeLocations: CommandOf<LookupDeps> = async (ctx, deps) => {
  if (!(await noArguments(ctx))) return;
  const result = await listEdgeLocations(deps, {
    page: ctx.page,
    pageSize: EDGE_LOCATION_PAGE_SIZE,
  });
  await ctx.reply(edgeLocationsView(result.locations, result.page));
};

export const edgeOrders: CommandOf<LookupDeps> = async (ctx, deps) => {
  if (!(await noArguments(ctx))) return;
  const [result, timeZone] = await Promise.all([
    listEdgeOrders(deps, { page: ctx.page, pageSize: EDGE_ITEM_PAGE_SIZE }),
    ctx.timeZone(),
  ]);
  await ctx.reply(edgeOrdersView(result.items, result.page, timeZone, deps.clock.now()));
};

export const edgeDrafts: CommandOf<LookupDeps> = async (ctx, deps) => {
  if (!(await noArguments(ctx))) return;
  const [result, timeZone] = await Promise.all([
    listEdgeDrafts(deps, { page: ctx.page, pageSize: EDGE_ITEM_PAGE_SIZE }),
    ctx.timeZone(),
  ]);
  await ctx.reply(edgeDraftsView(result.drafts, result.page, timeZone, deps.clock.now()));
};

/** `/connect track` lists tracked orders; `/connect track stop <orderId>` stops one (owner or approver). */
export const track: CommandOf<LookupDeps> = async (ctx, deps) => {
  const tracker = deps.jobs.tracker;
  if (ctx.args[0]?.toLowerCase() === "stop") {
    const orderId = ctx.args[1];
    if (!orderId || ctx.args.length > 2) {
      await ctx.reply({
        text: "Usage: `/connect track stop &lt;orderId&gt;`",
        blocks: [],
        problem: true,
      });
      return;
    }
    const result = await ctx.requests.stopTracking({
      orderId,
      by: ctx.userId,
      groups: ctx.groups,
    });
    // A storage outage is worded by the router, as every command's.
    if (!result.ok && result.reason === "storage_unavailable") throw result.error;
    const text = stopTrackingText(result, orderId);
    await ctx.reply({ text, blocks: [], problem: !result.ok });
    return;
  }
  const open = (await tracker.list()).filter((t) => t.open);
  await ctx.reply(trackedOrdersView(open, await ctx.timeZone()));
};

/** The `/connect` subcommands this feature answers (the table in src/slack/commandTable.ts). */
export const lookupCommands = {
  dcf,
  ports,
  port,
  order,
  asn,
  routers,
  metros,
  "edge locations": edgeLocations,
  "edge orders": edgeOrders,
  "edge drafts": edgeDrafts,
  track,
} satisfies CommandTable<LookupDeps>;
