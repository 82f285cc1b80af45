/**
 * How the job layer writes a caught error into a log line or a record: its message, or the
 * thrown value as text. One definition for every part (the notifier, tracker, placement and the
 * wiring all log failures they survive).
 */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
