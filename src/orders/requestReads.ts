import type { ApprovalRequest, ApprovalStore } from "../approvals/index.js";
import { isMarkedFailed } from "../domain/markedFailed.js";
import type { LifecycleNotes } from "./lifecycleNotes.js";
import type { ProgressStore } from "./progress.js";
import { type RequestReadModel, readRequest } from "./readModel.js";

/**
 * The reads behind the read model (readModel.ts): a request's record, what tracking said of it
 * (a placed one) and its last look-up (an unknown one), for one request or a list. Every surface
 * that shows a request reads it here, so none shows a record without its tracking.
 */
export class RequestReads {
  constructor(
    private readonly options: {
      get: ApprovalStore["get"];
      nameHeldElsewhere: ApprovalStore["nameHeldElsewhere"];
      notes: Pick<LifecycleNotes, "lastLookUp">;
      progress: Pick<ProgressStore, "get" | "many">;
    },
  ) {}

  /** The request as a person should see it now, and its version (what changes it). */
  async one(id: string): Promise<{ model: RequestReadModel; record: ApprovalRequest } | undefined> {
    const record = await this.options.get(id);
    if (!record) return undefined;
    return { model: await this.of(record), record };
  }

  /** The read model of a record already read. */
  async of(record: ApprovalRequest): Promise<RequestReadModel> {
    const lookUp =
      record.status === "unknown" ? await this.options.notes.lastLookUp(record) : undefined;
    const tracked =
      record.status === "placed" ? await this.options.progress.get(record.id) : undefined;
    return readRequest(record, {
      progress: tracked?.progress,
      lastLookUp: lookUp?.kind,
      nameHeldBy: await this.nameHeldBy(record),
    });
  }

  /** For a failed request that could be retried: another request holding its name now. */
  private async nameHeldBy(record: ApprovalRequest): Promise<string | undefined> {
    if (record.status !== "failed" || isMarkedFailed(record)) return undefined;
    return this.options.nameHeldElsewhere(record);
  }

  /** The read models of many records (App Home, `/connect approvals all`, `/connect spend`). */
  async many(records: readonly ApprovalRequest[]): Promise<RequestReadModel[]> {
    const placed = records.filter((record) => record.status === "placed").map((r) => r.id);
    const progress = await this.options.progress.many(placed);
    return Promise.all(
      records.map(async (record) =>
        record.status === "unknown" || record.status === "failed"
          ? this.of(record)
          : readRequest(record, { progress: progress.get(record.id) }),
      ),
    );
  }
}
