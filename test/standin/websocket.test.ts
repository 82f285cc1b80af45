import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_APP_TOKEN,
  type SlackStandin,
  startSlackStandin,
} from "../../src/standin/index.js";

/** A client frame: clients must mask (RFC 6455 §5.3). */
function clientFrame(opcode: number, payload: Buffer, fin = true): Buffer {
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] as number)));
  const header =
    payload.length < 126
      ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | payload.length])
      : Buffer.concat([
          Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 126]),
          Buffer.from([payload.length >> 8, payload.length & 0xff]),
        ]);
  return Buffer.concat([header, mask, masked]);
}

/** Reads unmasked server frames from a raw socket. */
class RawClient {
  private buffer = Buffer.alloc(0);
  private readonly frames: { opcode: number; payload: Buffer }[] = [];
  private waiting: (() => void) | undefined;
  handshake = "";

  constructor(readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      if (!this.handshake) {
        const end = this.buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        this.handshake = this.buffer.subarray(0, end).toString();
        this.buffer = this.buffer.subarray(end + 4);
      }
      for (;;) {
        if (this.buffer.length < 2) break;
        let length = (this.buffer[1] as number) & 0x7f;
        let offset = 2;
        if (length === 126) {
          length = this.buffer.readUInt16BE(2);
          offset = 4;
        }
        if (this.buffer.length < offset + length) break;
        this.frames.push({
          opcode: (this.buffer[0] as number) & 0x0f,
          payload: this.buffer.subarray(offset, offset + length),
        });
        this.buffer = this.buffer.subarray(offset + length);
      }
      this.waiting?.();
    });
  }

  async next(): Promise<{ opcode: number; payload: Buffer }> {
    while (this.frames.length === 0) {
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
    return this.frames.shift() as { opcode: number; payload: Buffer };
  }

  async headers(): Promise<string> {
    while (!this.handshake) {
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
    return this.handshake;
  }
}

async function openRaw(url: string): Promise<RawClient> {
  const { hostname, port, pathname, search } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once("connect", resolve));
  const client = new RawClient(socket);
  socket.write(
    [
      `GET ${pathname}${search} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      "Upgrade: websocket",
      "Connection: Upgrade",
      "Sec-WebSocket-Version: 13",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
      "",
      "",
    ].join("\r\n"),
  );
  return client;
}

async function connectionUrl(standin: SlackStandin): Promise<string> {
  const response = await fetch(`${standin.apiUrl}apps.connections.open`, {
    method: "POST",
    headers: { authorization: `Bearer ${DEFAULT_APP_TOKEN}` },
  });
  const body = (await response.json()) as { ok: boolean; url: string };
  expect(body.ok).toBe(true);
  expect(body.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/socket\?ticket=/);
  return body.url;
}

describe("the stand-in's WebSocket server (Socket Mode wire level)", () => {
  let standin: SlackStandin;

  beforeAll(async () => {
    standin = await startSlackStandin();
  });

  afterAll(async () => {
    await standin.close();
  });

  it("refuses a connection whose ticket apps.connections.open did not issue", async () => {
    const url = (await connectionUrl(standin)).replace(/ticket=.*/, "ticket=forged");
    const client = await openRaw(url);
    expect(await client.headers()).toMatch(/^HTTP\/1\.1 401/);
    client.socket.destroy();
    expect(standin.socketConnectionCount).toBe(0);
  });

  it("says hello, answers pings, reassembles fragmented acks, and completes the close handshake", async () => {
    const client = await openRaw(await connectionUrl(standin));
    // The accept key for the RFC's sample nonce.
    expect(await client.headers()).toContain("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    const hello = await client.next();
    expect(JSON.parse(hello.payload.toString())).toMatchObject({
      type: "hello",
      connection_info: { app_id: "A0STANDIN1" },
    });

    client.socket.write(clientFrame(0x9, Buffer.from("are you there")));
    const pong = await client.next();
    expect(pong.opcode).toBe(0xa);
    expect(pong.payload.toString()).toBe("are you there");

    const delivered = standin.socketHub.deliver("slash_commands", {
      command: "/connect",
      text: "help",
    });
    const envelope = JSON.parse((await client.next()).payload.toString()) as {
      envelope_id: string;
      type: string;
      accepts_response_payload: boolean;
    };
    expect(envelope).toMatchObject({
      type: "slash_commands",
      accepts_response_payload: true,
      payload: { command: "/connect" },
    });
    const ack = Buffer.from(
      JSON.stringify({ envelope_id: envelope.envelope_id, payload: { text: "x".repeat(300) } }),
    );
    // Two fragments, the first split across two TCP writes.
    const first = clientFrame(0x1, ack.subarray(0, 100), false);
    client.socket.write(first.subarray(0, 5));
    client.socket.write(first.subarray(5));
    client.socket.write(clientFrame(0x0, ack.subarray(100)));
    await expect(delivered).resolves.toEqual({ text: "x".repeat(300) });

    const disconnected = once(standin.socketHub, "disconnected");
    const closeCode = Buffer.from([0x03, 0xe8]);
    client.socket.write(clientFrame(0x8, closeCode));
    const closing = await client.next();
    expect(closing.opcode).toBe(0x8);
    expect(closing.payload.readUInt16BE(0)).toBe(1000);
    await disconnected;
    expect(standin.socketConnectionCount).toBe(0);
  });

  it("rejects a delivery nobody acknowledges, naming the envelope", async () => {
    const client = await openRaw(await connectionUrl(standin));
    await client.next();
    await expect(standin.socketHub.deliver("interactive", {}, { timeoutMs: 50 })).rejects.toThrow(
      /did not acknowledge interactive envelope .* within 50 ms/,
    );
    client.socket.destroy();
  });
});
