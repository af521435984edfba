/**
 * The counts behind Kafka's RequestMetrics (RequestsPerSec per request and version, ErrorsPerSec per request and
 * error, TotalTimeMs per request), kept as plain numbers the router adds to: no label lookup, no allocation per
 * request (a slot per API and version is made on its first request). src/http/metrics/ reads them at scrape time.
 *
 * Errors are counted as Kafka's errorCounts: each error code the response carries (top-level and per topic,
 * partition or group), NONE included; a request the handler failed counts the error code it was answered with.
 * The time is from the request's dispatch to its response encoded (Kafka's TotalTimeMs also holds the time
 * the request waited in its queue and the response was being sent).
 */

/** Upper bounds (ms) of the latency histogram's buckets. */
export const LATENCY_BUCKETS_MS: readonly number[] = [0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];
/** Versions per API a slot is kept for (Kafka 4.3.1's highest is Fetch v18). */
const VERSIONS = 32;
/** Error codes counted: -1 (UNKNOWN_SERVER_ERROR) up to ERROR_CODES - 2. */
const ERROR_CODES = 160;
/** How deep the response is walked for error codes: topics, partitions and their entries are within it. */
const ERROR_DEPTH = 4;

export class VersionStats {
  requests = 0;
  timeSumMs = 0;
  /** Requests per bucket (not cumulative); the last is past the highest bound. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS_MS.length + 1);
}

export class RequestMetrics {
  private readonly versions: (VersionStats | undefined)[] = [];
  private readonly errors: (Float64Array | undefined)[] = [];

  /** A request answered (or to be answered by no response): its time since `startedMs` (performance.now()) and the error codes in `response`. */
  completed(apiKey: number, version: number, startedMs: number, response: unknown): void {
    const stats = this.slot(apiKey, version);
    const ms = performance.now() - startedMs;
    stats.requests++;
    stats.timeSumMs += ms;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS_MS.length && ms > LATENCY_BUCKETS_MS[bucket]!) bucket++;
    stats.buckets[bucket]!++;
    if (response !== null && typeof response === 'object') this.countErrorCodes(this.errorsOf(apiKey), response, ERROR_DEPTH);
  }

  /** A request the handler failed, answered with its error response carrying `errorCode`. */
  failed(apiKey: number, version: number, startedMs: number, errorCode: number): void {
    this.completed(apiKey, version, startedMs, null);
    this.count(this.errorsOf(apiKey), errorCode);
  }

  /** Each API and version with requests so far. */
  *byVersion(): Generator<{ apiKey: number; version: number; stats: VersionStats }> {
    for (let i = 0; i < this.versions.length; i++) {
      const stats = this.versions[i];
      if (stats !== undefined) yield { apiKey: Math.floor(i / VERSIONS), version: i % VERSIONS, stats };
    }
  }

  /** Each API and error code counted so far. */
  *byError(): Generator<{ apiKey: number; errorCode: number; count: number }> {
    for (let apiKey = 0; apiKey < this.errors.length; apiKey++) {
      const counts = this.errors[apiKey];
      if (counts === undefined) continue;
      for (let i = 0; i < counts.length; i++) if (counts[i]! > 0) yield { apiKey, errorCode: i - 1, count: counts[i]! };
    }
  }

  private slot(apiKey: number, version: number): VersionStats {
    const index = apiKey * VERSIONS + Math.min(version, VERSIONS - 1);
    return (this.versions[index] ??= new VersionStats());
  }

  private errorsOf(apiKey: number): Float64Array {
    return (this.errors[apiKey] ??= new Float64Array(ERROR_CODES));
  }

  private count(counts: Float64Array, errorCode: number): void {
    const index = errorCode + 1;
    if (index >= 0 && index < counts.length) counts[index]!++;
  }

  /** Every `errorCode` field down to `depth` levels, skipping record bytes (a Buffer is never walked). */
  private countErrorCodes(counts: Float64Array, value: object, depth: number): void {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (item !== null && typeof item === 'object' && depth > 0) this.countErrorCodes(counts, item, depth - 1);
      }
      return;
    }
    if (ArrayBuffer.isView(value)) return;
    const record = value as Record<string, unknown>;
    for (const key in record) {
      const field = record[key];
      if (key === 'errorCode') {
        if (typeof field === 'number') this.count(counts, field);
      } else if (field !== null && typeof field === 'object' && depth > 0) {
        this.countErrorCodes(counts, field, depth - 1);
      }
    }
  }
}
