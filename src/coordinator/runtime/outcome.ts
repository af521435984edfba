/**
 * What the group state machine returns for every request or timer event (Kafka's CoordinatorResult):
 * the records to persist and the response, released once the records are durable.
 */
import type { GroupRecord } from '../group/records.js';

export interface Outcome<R> {
  readonly records: readonly GroupRecord[];
  readonly response: R;
  /**
   * Whether the runtime replays the records into the state as they are generated (offsets, tombstones).
   * Classic group metadata is written but not replayed live, as in Kafka: the in-memory group already
   * holds it (and more: parked requests, timers); replay rebuilds it at load.
   */
  readonly replay: boolean;
  /** Called once the records are in the log (error null) or could not be written; may start a follow-up event. */
  readonly onWritten?: (error: Error | null) => Outcome<void> | void;
}

export function outcome<R>(response: R, records: readonly GroupRecord[] = [], replay = true, onWritten?: (error: Error | null) => Outcome<void> | void): Outcome<R> {
  return onWritten === undefined ? { records, response, replay } : { records, response, replay, onWritten };
}

export const NOTHING: Outcome<void> = { records: [], response: undefined, replay: true };
