import { createServer, type Server } from "node:http";
import type { OrderRead } from "../../src/orders/tracking/index.js";
import { httpError } from "../../src/provider/errors.js";

/**
 * A port order source a test changes step by step: what `readOrder` returns, how many reads
 * happened, and failures to inject (as the provider client's own ProviderError).
 */
export class FakeOrders {
  private readonly orders = new Map<string, OrderRead>();
  private readonly failures = new Map<string, number>();
  readonly reads = new Map<string, number>();
  private gate: Promise<void> | undefined;

  /** Holds every read (started, unanswered) until the returned function is called. */
  hold(): () => void {
    let release = () => {};
    this.gate = new Promise<void>((resolve) => {
      release = () => {
        this.gate = undefined;
        resolve();
      };
    });
    return release;
  }

  set(orderId: string, order: OrderRead): void {
    this.orders.set(orderId, order);
  }

  /** The next `count` reads of the order fail with a provider 503. */
  failNext(orderId: string, count: number): void {
    this.failures.set(orderId, count);
  }

  readCount(orderId: string): number {
    return this.reads.get(orderId) ?? 0;
  }

  read = async (_companyName: string, orderId: string): Promise<OrderRead> => {
    this.reads.set(orderId, this.readCount(orderId) + 1);
    if (this.gate) await this.gate;
    const failing = this.failures.get(orderId) ?? 0;
    if (failing > 0) {
      this.failures.set(orderId, failing - 1);
      throw httpError(
        {
          operation: "getPortOrder",
          method: "GET",
          path: "/api/company/{companyName}/ports/orders/{orderId}",
          subject: "the port order",
        },
        503,
        '{"error":{"message":"Service Unavailable","status":"error","statusCode":503}}',
      );
    }
    const order = this.orders.get(orderId);
    if (!order) {
      throw httpError(
        {
          operation: "getPortOrder",
          method: "GET",
          path: "/api/company/{companyName}/ports/orders/{orderId}",
          subject: "the port order",
        },
        404,
        "not found",
      );
    }
    return structuredClone(order);
  };
}

/**
 * The same source over HTTP, for child processes: GET /orders/:id answers the order,
 * PUT /orders/:id sets it.
 */
export async function serveOrders(
  orders: FakeOrders,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const match = /^\/orders\/([^/]+)$/.exec(request.url ?? "");
    const id = match?.[1] ? decodeURIComponent(match[1]) : undefined;
    if (!id) {
      response.writeHead(404).end();
      return;
    }
    if (request.method === "PUT") {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        orders.set(id, JSON.parse(body) as OrderRead);
        response.writeHead(204).end();
      });
      return;
    }
    orders.read("company", id).then(
      (order) => {
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(order));
      },
      (error: { httpStatus?: number }) => {
        response.writeHead(error.httpStatus ?? 500).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address !== "object") throw new Error("no address");
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
