/**
 * The answer Kafka gives when handling a request failed: each request class's getErrorResponse puts the
 * error in every per-topic, per-partition or top-level error field the way that API's response expects.
 */
import type { ApiError } from '../api-error.js';
import type { ApiDescriptor } from '../generated/api-descriptor.js';

/** Integer.MIN_VALUE: "authorized operations not requested", the schemas' default. */
export const AUTHORIZED_OPERATIONS_OMITTED = -2147483648;

export interface ErrorResponseBuilder<Req = unknown, Res = unknown> {
  readonly api: ApiDescriptor<Req, Res>;
  /** The error response to `request`, or null when the request gets none (the connection is closed instead). */
  build(request: Req, version: number, error: ApiError): Res | null;
}

/** Types a builder against its generated request/response interfaces, then erases them for the table. */
export function errorResponse<Req, Res>(
  api: ApiDescriptor<Req, Res>,
  build: (request: Req, version: number, error: ApiError) => Res | null,
): ErrorResponseBuilder {
  return { api, build } as unknown as ErrorResponseBuilder;
}

/** Groups (topic, item) pairs by topic in first-seen order, as Kafka's per-topic maps do. */
export function byTopic<T>(entries: Iterable<readonly [string, T]>): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const [topic, item] of entries) {
    const list = out.get(topic);
    if (list === undefined) out.set(topic, [item]);
    else list.push(item);
  }
  return out;
}
