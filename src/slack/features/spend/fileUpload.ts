import type { KnownBlock } from "@slack/types";
import type { WebClient } from "@slack/web-api";

/**
 * A file into a person's direct messages with the bot, by Slack's external upload (files.upload
 * is retired): `files.getUploadURLExternal` gives a file id and an upload URL, the bytes are
 * POSTed there, and `files.completeUploadExternal` shares the file. Its `channel_id` takes a
 * conversation id (C/G/D…), never a user id, so the DM is opened first (`conversations.open`).
 * The upload URL is pre-signed: the bot token is not sent to it.
 */

const UPLOAD_TIMEOUT_MS = 30_000;

export interface DirectMessageFile {
  userId: string;
  filename: string;
  title: string;
  content: string;
  /** The message the file is shared with (section blocks; Slack shows them above the file). */
  blocks: KnownBlock[];
}

export async function uploadToDirectMessage(
  client: WebClient,
  input: DirectMessageFile,
): Promise<{ fileId: string; channelId: string }> {
  const opened = await client.conversations.open({ users: input.userId });
  const channelId = opened.channel?.id;
  if (!channelId) throw new Error("Slack opened no direct message conversation");
  const bytes = Buffer.from(input.content, "utf8");
  const ticket = await client.files.getUploadURLExternal({
    filename: input.filename,
    length: bytes.length,
  });
  if (!ticket.upload_url || !ticket.file_id) throw new Error("Slack gave no upload URL");
  const response = await fetch(ticket.upload_url, {
    method: "POST",
    headers: { "content-type": "application/octet-stream" },
    body: bytes,
    signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`Slack's upload service answered HTTP ${response.status}`);
  await client.files.completeUploadExternal({
    files: [{ id: ticket.file_id, title: input.title }],
    channel_id: channelId,
    blocks: input.blocks,
  });
  return { fileId: ticket.file_id, channelId };
}
