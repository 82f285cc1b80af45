import { randomBytes } from "node:crypto";
import { slackId } from "../ids.js";

/**
 * Slack's external file upload, as the stand-in keeps it: `files.getUploadURLExternal` hands
 * out a file id and a one-time upload URL on the stand-in (`POST /upload/v1/:token`, raw
 * bytes), and `files.completeUploadExternal` shares the uploaded file in a channel (a file
 * message there). Tests read the bytes back with `file(id)` / `files()`.
 */

export const UPLOAD_PATH = "/upload/v1";
/** Slack's own ceiling for one file is 1 GB; the stand-in keeps its files in memory. */
export const MAX_UPLOAD_BYTES = 16 * 1024 * 1024;

export interface StandinFile {
  id: string;
  name: string;
  /** The length announced to files.getUploadURLExternal. */
  length: number;
  title?: string;
  /** What was posted to the upload URL; undefined until then. */
  bytes?: Buffer;
  /** Where files.completeUploadExternal shared it (undefined: private, or not completed). */
  channel?: string;
  completed: boolean;
}

/** A copy for callers (structuredClone would turn the Buffer into a bare Uint8Array). */
function copy(file: StandinFile): StandinFile {
  return { ...file, ...(file.bytes ? { bytes: Buffer.from(file.bytes) } : {}) };
}

export class FileStore {
  private readonly byId = new Map<string, StandinFile>();
  private readonly byToken = new Map<string, string>();

  /** files.getUploadURLExternal: a new file awaiting its bytes, and the token of its URL. */
  create(name: string, length: number): { file: StandinFile; token: string } {
    const file: StandinFile = { id: slackId("F"), name, length, completed: false };
    const token = randomBytes(12).toString("hex");
    this.byId.set(file.id, file);
    this.byToken.set(token, file.id);
    return { file: copy(file), token };
  }

  /** The POST to the upload URL: the bytes are kept once; a second post or unknown token fails. */
  receive(token: string, bytes: Buffer): "ok" | "not-found" | "too-large" {
    const id = this.byToken.get(token);
    const file = id ? this.byId.get(id) : undefined;
    if (!file) return "not-found";
    if (bytes.length > MAX_UPLOAD_BYTES) return "too-large";
    this.byToken.delete(token);
    file.bytes = bytes;
    return "ok";
  }

  /** files.completeUploadExternal: every file must exist and have received its bytes. */
  complete(
    items: ReadonlyArray<{ id: string; title?: string }>,
    channel: string | undefined,
  ): StandinFile[] | "file_not_found" | "file_upload_not_complete" {
    const files = items.map((item) => this.byId.get(item.id));
    if (files.some((f) => f === undefined || f.completed)) return "file_not_found";
    if (files.some((f) => f?.bytes === undefined)) return "file_upload_not_complete";
    return files.map((file, i) => {
      const f = file as StandinFile;
      f.completed = true;
      const title = items[i]?.title;
      if (title) f.title = title;
      if (channel) f.channel = channel;
      return copy(f);
    });
  }

  file(id: string): StandinFile | undefined {
    const file = this.byId.get(id);
    return file ? copy(file) : undefined;
  }

  /** Every completed file, oldest first. */
  list(): StandinFile[] {
    return [...this.byId.values()].filter((f) => f.completed).map(copy);
  }
}
