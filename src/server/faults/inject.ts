/**
 * Carries out a fault rule's action on one request, around the router's own handling of it:
 *   error        a rule naming partitions (or a group) on an API that answers per partition: those fail alone, the rest is
 *                handled (partition-errors.ts); otherwise the handler is not run and the answer is Kafka's error response
 *                for the API with the rule's code (Fetch: the code in every partition asked for, top-level NONE and no
 *                session, as a real leader move answers)
 *   delay        handled, then the response waits `ms` of wall time (a manual clock would never let it go)
 *   throttle     handled; throttle_time_ms = max(its own, ms) and the connection is muted for ms, as a quota does
 *   drop         the connection closes before the request is handled, or after (its effects kept, no answer)
 *   swallow      handled, no response written (the client times out)
 *   corrupt-crc  Fetch handled; the first batch of every partition's records is copied and its CRC flipped in the
 *                copy (the log's bytes are never touched)
 */
import { createFetchResponse, createPartitionData, type FetchRequest, type FetchResponse } from '../../protocol/generated/fetch.js';
import type { RecordsValue } from '../../protocol/io/writer.js';
import { CloseConnection, type ResponseBytes } from '../connection.js';
import type { FaultRule } from './fault-rule.js';
import { partitionErrorPlan, type FaultedPartition, type PartitionErrorSite } from './partition-errors.js';

const FETCH_KEY = 1;
/** Record batch v2: baseOffset (8), batchLength (4), partitionLeaderEpoch (4), magic (1), then the CRC (4). */
const CRC_OFFSET = 17;
const EMPTY: readonly Buffer[] = [];

export interface FaultSite extends PartitionErrorSite {
  /** Runs the handler (on `request`, else the one received); `shape` may change the response object before it is encoded. */
  handle(request?: unknown, shape?: (response: unknown) => unknown, faulted?: FaultedPartition): ResponseBytes | Promise<ResponseBytes>;
  /** Encodes a response built here (the API's error response, or Fetch's per-partition one). */
  answer(response: unknown): ResponseBytes;
  /** The API's error response with this code (Kafka's getErrorResponse). */
  errorResponse(code: number, message: string | null): ResponseBytes | Promise<ResponseBytes>;
  /** Mutes the connection for ms. */
  mute(ms: number): void;
}

export function injectFault(rule: FaultRule, site: FaultSite): ResponseBytes | Promise<ResponseBytes> {
  const { action } = rule;
  switch (action.type) {
    case 'error': {
      // A rule naming partitions (or a group) fails those alone where the API answers per partition (partition-errors.ts).
      const plan = partitionErrorPlan(site, { code: action.code, message: action.message, match: rule.match });
      if (plan !== null) return plan() as ResponseBytes | Promise<ResponseBytes>;
      if (site.apiKey === FETCH_KEY) return site.answer(fetchPartitionErrors(site.request as FetchRequest, action.code));
      return site.errorResponse(action.code, action.message);
    }
    case 'delay':
      return Promise.resolve(site.handle()).then((bytes) => new Promise<ResponseBytes>((resolve) => setTimeout(() => resolve(bytes), action.ms)));
    case 'throttle':
      site.mute(action.ms);
      return site.handle(undefined, (response) => {
        if (typeof response === 'object' && response !== null && 'throttleTimeMs' in response) {
          const r = response as { throttleTimeMs: number };
          r.throttleTimeMs = Math.max(r.throttleTimeMs, action.ms);
        }
        return response;
      });
    case 'drop':
      if (action.when === 'before') throw new CloseConnection('an injected fault dropped the connection before handling', true);
      return Promise.resolve(site.handle()).then(() => {
        throw new CloseConnection('an injected fault dropped the connection after handling', true);
      });
    case 'swallow':
      return Promise.resolve(site.handle()).then(() => null);
    case 'corrupt-crc':
      return site.handle(undefined, (response) => corruptFetchCrcs(response as FetchResponse));
  }
}

/**
 * What a broker that no longer leads the partitions answers a Fetch (Kafka's readFromLog error: unknown high watermark,
 * LSO and log start, empty records, no aborted transactions): each partition's error, top-level NONE, no session.
 */
function fetchPartitionErrors(request: FetchRequest, code: number): FetchResponse {
  return {
    ...createFetchResponse(),
    responses: request.topics.map((topic) => ({
      topic: topic.topic,
      topicId: topic.topicId,
      partitions: topic.partitions.map((p) => ({
        ...createPartitionData(), partitionIndex: p.partition, errorCode: code, highWatermark: -1n, abortedTransactions: null, records: EMPTY,
      })),
    })),
  };
}

function corruptFetchCrcs(response: FetchResponse): FetchResponse {
  if (response === null || typeof response !== 'object' || !Array.isArray(response.responses)) return response;
  for (const topic of response.responses) {
    for (const partition of topic.partitions) {
      if (partition.records !== null) partition.records = corruptFirstBatch(partition.records);
    }
  }
  return response;
}

/** A copy of the records whose first batch's CRC has every bit flipped; the buffers given (the log's) stay as they are. */
function corruptFirstBatch(records: RecordsValue): RecordsValue {
  const copy = Buffer.concat(Buffer.isBuffer(records) ? [records] : [...records]);
  if (copy.length >= CRC_OFFSET + 4) copy.writeUInt32BE(~copy.readUInt32BE(CRC_OFFSET) >>> 0, CRC_OFFSET);
  return copy;
}
