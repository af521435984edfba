/**
 * Turns one request frame into its encoded response: reads the header, finds the handler in the
 * registry, checks the version, decodes the body, invokes the handler and encodes the response
 * with the response header version of that API and version.
 *
 * As Kafka's SocketServer does, anything it cannot serve closes the connection: an unknown api
 * key, a version outside the handler's range (ApiVersions excepted: its handler answers in v0), or
 * bytes that do not parse. A handler that throws (or returns a response its version cannot carry) is
 * answered as Kafka's KafkaApis answers it: the request's error response (src/protocol/error-responses/)
 * with the error's code, UNKNOWN_SERVER_ERROR for an unexpected one, and an error log line with the stack;
 * only a request without an error response (acks=0 Produce) closes its connection.
 *
 * A lazily registered API is loaded on its first request. Requests that arrive meanwhile (on any
 * connection) wait and are then handled in arrival order, so a pipelined request never overtakes one
 * whose handler was still loading. If the load fails, that request is answered with its error response
 * (UNKNOWN_SERVER_ERROR) and the next request of that API tries again.
 */
import { Reader } from '../protocol/io/reader.js';
import { encodeResponseFrame } from '../protocol/response-frame.js';
import {
  decodeRequestHeader,
  requestHeaderVersion,
} from '../protocol/generated/headers.js';
import type { ErrorResponseBuilder } from '../protocol/error-responses/index.js';
import { CloseConnection, type ConnectionInfo, type Dispatch, type ResponseBytes } from './connection.js';
import { apiErrorOf } from '../protocol/kafka-error.js';
import type { ApiError } from '../protocol/api-error.js';
import {
  isLazy,
  NO_RESPONSE,
  type BrokerState,
  type Handler,
  type HandlerResult,
  type LazyHandler,
  type RegisteredApi,
  type RequestContext,
} from './handler.js';
import { AuthorizationFailure, clusterOperationRefusal } from './authorization.js';
import { applyRequestQuota, newRequestQuotaState, recordAfterResponse } from './throttle.js';
import { injectFault } from './faults/inject.js';
import { SHARE_FETCH_KEY, shareSessionPartitions } from './faults/partition-errors.js';
import { currentLeader } from './cluster-view.js';
import type { RequestMetrics } from './request-metrics.js';

/** api key (int16), api version (int16), correlation id (int32): present in every request header version. */
const FIXED_HEADER_BYTES = 8;

/** Indexes a registry by api key; two handlers for one key is a programming error caught at start-up. */
export function indexHandlers(handlers: readonly RegisteredApi[]): ReadonlyMap<number, RegisteredApi> {
  const byKey = new Map<number, RegisteredApi>();
  for (const handler of handlers) {
    if (byKey.has(handler.api.apiKey)) throw new Error(`api key ${handler.api.apiKey} (${handler.api.name}) is registered twice`);
    if (handler.minVersion > handler.maxVersion) throw new Error(`${handler.api.name} is registered with v${handler.minVersion}-v${handler.maxVersion}`);
    // A lazy handler's codec range is checked when it is loaded (checkLoaded).
    if (!isLazy(handler)) checkCodecRange(handler);
    byKey.set(handler.api.apiKey, handler);
  }
  return byKey;
}

function checkCodecRange(handler: Handler): void {
  const codecMin = handler.advertisesRemovedVersions === true ? 0 : handler.api.minVersion;
  if (handler.minVersion < codecMin || handler.maxVersion > handler.api.maxVersion) {
    throw new Error(
      `${handler.api.name} handler serves v${handler.minVersion}-v${handler.maxVersion}, outside the codec's v${handler.api.minVersion}-v${handler.api.maxVersion}`,
    );
  }
}

/** The handler a lazy line loaded must be the API, and serve the versions, that the registry advertises. */
export function checkLoaded(registration: LazyHandler, handler: Handler): Handler {
  const { api, minVersion, maxVersion } = registration;
  if (handler.api.apiKey !== api.apiKey || handler.api.name !== api.name || handler.minVersion !== minVersion || handler.maxVersion !== maxVersion) {
    throw new Error(
      `the registry advertises ${api.name} (key ${api.apiKey}) v${minVersion}-v${maxVersion}, but its module serves ` +
        `${handler.api.name} (key ${handler.api.apiKey}) v${handler.minVersion}-v${handler.maxVersion}`,
    );
  }
  checkCodecRange(handler);
  return handler;
}

/** `metrics`, when given, counts each request served: API, version, time, error codes (request-metrics.ts). */
export function createDispatch(broker: BrokerState, metrics?: RequestMetrics): Dispatch {
  const byKey = indexHandlers(broker.handlers);
  const loaded = new Map<number, Handler>();
  /** Set while a lazy handler loads: every request that arrives meanwhile waits for it, in arrival order. */
  let loading: Promise<unknown> | null = null;

  const dispatch = (frame: Buffer, connection: ConnectionInfo): ResponseBytes | Promise<ResponseBytes> => {
    if (loading !== null) return loading.then(() => dispatch(frame, connection));
    if (frame.length < FIXED_HEADER_BYTES) {
      throw new CloseConnection(`request of ${frame.length} bytes is shorter than a request header`);
    }
    const apiKey = frame.readInt16BE(0);
    const registered = byKey.get(apiKey);
    if (registered === undefined) {
      throw new CloseConnection(`unknown api key ${apiKey} (version ${frame.readInt16BE(2)}, client id ${peekClientId(frame) ?? '-'})`);
    }
    if (!isLazy(registered)) return serve(broker, registered, frame, connection, metrics);
    const handler = loaded.get(apiKey);
    if (handler !== undefined) return serve(broker, handler, frame, connection, metrics);

    const settled: Promise<Handler | null> = loadHandler(broker, registered, loaded).then((h) => {
      if (loading === settled) loading = null;
      return h;
    });
    loading = settled;
    // Chained before any request that arrives while loading, so this one is handled first.
    return settled.then((h) => {
      if (h === null) throw new CloseConnection(`${registered.api.name} could not be loaded and has no error response to answer with`);
      return serve(broker, h, frame, connection, metrics);
    });
  };
  return dispatch;
}

/**
 * Loads a lazy handler and keeps it. A failure is logged; the request is then served by a stand-in with
 * the API's codec that fails it, so the client gets its error response (null if there is none).
 */
async function loadHandler(broker: BrokerState, registration: LazyHandler, loaded: Map<number, Handler>): Promise<Handler | null> {
  try {
    const handler = checkLoaded(registration, await registration.load());
    loaded.set(registration.api.apiKey, handler);
    return handler;
  } catch (err) {
    broker.log.error({ err, api: registration.api.name }, 'loading the handler of this API failed; answering with its error response');
    let builder: ErrorResponseBuilder | undefined;
    try {
      builder = (await errorResponseTable()).get(registration.api.apiKey);
    } catch (tableError) {
      broker.log.error({ err: tableError }, 'loading the error responses failed');
    }
    if (builder === undefined) return null;
    return {
      api: builder.api,
      minVersion: registration.minVersion,
      maxVersion: registration.maxVersion,
      // An unexpected error: the error response carries UNKNOWN_SERVER_ERROR, as Kafka's for any exception.
      handle() {
        throw new Error(`the ${registration.api.name} handler could not be loaded`);
      },
    };
  }
}

/** Parses the header, checks the version, decodes the body and invokes the handler. */
function serve(broker: BrokerState, handler: Handler, frame: Buffer, connection: ConnectionInfo, metrics: RequestMetrics | undefined): ResponseBytes | Promise<ResponseBytes> {
  // request_percentage measures the time spent on a client's requests; nothing is timed while no such quota exists.
  const started = broker.quotas.request.enabled ? process.hrtime.bigint() : null;
  const startedMs = metrics === undefined ? 0 : performance.now();
  const apiKey = handler.api.apiKey;
  const apiVersion = frame.readInt16BE(2);
  const reader = new Reader(frame);
  let clientId: string | null;
  let correlationId: number;
  try {
    const header = decodeRequestHeader(reader, requestHeaderVersion(apiKey, apiVersion));
    clientId = header.clientId;
    correlationId = header.correlationId;
  } catch (err) {
    throw new CloseConnection(`unparsable ${handler.api.name} v${apiVersion} request header: ${messageOf(err)}`);
  }
  connection.clientId = clientId;
  const ctx: RequestContext = { broker, connection, header: { apiKey, apiVersion, correlationId, clientId, size: frame.length }, quota: newRequestQuotaState() };

  if (apiVersion < handler.minVersion || apiVersion > handler.maxVersion) {
    if (handler.unsupportedVersion === undefined) {
      throw new CloseConnection(
        `${handler.api.name} v${apiVersion} is not supported (v${handler.minVersion}-v${handler.maxVersion} are)`,
      );
    }
    const { response, version } = handler.unsupportedVersion(ctx);
    return encodeResponse(handler, correlationId, response, version);
  }

  if (apiVersion < handler.api.minVersion) {
    throw new CloseConnection(`${handler.api.name} v${apiVersion} is advertised but not supported (removed in Kafka 4, v${handler.api.minVersion}+ are)`);
  }
  let request: unknown;
  try {
    request = handler.api.decodeRequest(reader, apiVersion);
  } catch (err) {
    throw new CloseConnection(`unparsable ${handler.api.name} v${apiVersion} request: ${messageOf(err)}`);
  }
  // The one branch fault injection costs while no rule is set (no allocation either).
  const fault = broker.faults.active
    ? broker.faults.match({ apiKey, apiVersion, clientId, connectionId: connection.id, remote: connection.remote }, request,
      apiKey === SHARE_FETCH_KEY ? () => shareSessionPartitions(broker, request) : undefined) : null;
  if (fault === null) return handle(ctx, handler, request, started, metrics, startedMs);
  return injectFault(fault, {
    apiKey,
    apiVersion,
    request,
    topicName: (id) => broker.topics.getById(id)?.name,
    leaderOf: (topic, partition) => currentLeader(broker, connection.listenerName, topic, partition),
    handle: (changed, shape, faulted) => handle(faulted === undefined ? ctx : { ...ctx, faultedPartition: faulted }, handler, changed ?? request, started, metrics, startedMs, shape),
    answer: (response) => encodeResponse(handler, correlationId, response, apiVersion),
    errorResponse: (code, message) => answerInjectedError(ctx, handler, request, { code, message }),
    errorObject: async (changed, code, message) => (await errorResponseTable()).get(apiKey)?.build(changed, apiVersion, { code, message }) ?? null,
    mute: (ms) => connection.throttle(ms),
  });
}

/**
 * Invokes the handler and encodes its response. `started` (hrtime, request_percentage) and `startedMs` (the request
 * metrics) are when handling began; `shape` is a fault rule's change to the response before it is encoded.
 */
function handle(ctx: RequestContext, handler: Handler, request: unknown, started: bigint | null, metrics: RequestMetrics | undefined,
  startedMs: number, shape?: (response: unknown) => unknown): ResponseBytes | Promise<ResponseBytes> {
  const { apiKey, correlationId, apiVersion } = ctx.header;
  const failed = (err: unknown): ResponseBytes | Promise<ResponseBytes> => {
    if (metrics !== undefined && !(err instanceof CloseConnection)) metrics.failed(apiKey, apiVersion, startedMs, apiErrorOf(err).code);
    return answerFailure(ctx, handler, request, err);
  };
  const respond = (response: unknown): ResponseBytes | Promise<ResponseBytes> => {
    if (response === NO_RESPONSE) {
      metrics?.completed(apiKey, apiVersion, startedMs, null);
      return null;
    }
    const encoding = started === null ? null : process.hrtime.bigint();
    try {
      if (shape !== undefined) response = shape(response);
      applyRequestQuota(ctx, response);
      const bytes = encodeResponse(handler, correlationId, response, apiVersion);
      if (encoding !== null) recordAfterResponse(ctx, Number(process.hrtime.bigint() - encoding));
      metrics?.completed(apiKey, apiVersion, startedMs, response);
      return bytes;
    } catch (err) {
      return failed(err);
    }
  };
  let result: HandlerResult<unknown>;
  try {
    const refusal = clusterOperationRefusal(ctx);
    if (refusal !== null) throw refusal;
    result = handler.handle(ctx, request, apiVersion);
  } catch (err) {
    return failed(err);
  } finally {
    if (started !== null) ctx.quota.handledNs += Number(process.hrtime.bigint() - started);
  }
  return result instanceof Promise ? result.then(respond, failed) : respond(result);
}

/**
 * Kafka's KafkaApis.handleError: logs the failure with its stack and answers with the request's error
 * response. A CloseConnection is a deliberate close; a request without an error response is closed too.
 */
function answerFailure(ctx: RequestContext, handler: Handler, request: unknown, err: unknown): ResponseBytes | Promise<ResponseBytes> {
  if (err instanceof CloseConnection) throw err;
  const { apiVersion: version, correlationId, clientId } = ctx.header;
  const api = handler.api.name;
  const apiError = apiErrorOf(err);
  if (err instanceof AuthorizationFailure) {
    ctx.broker.log.info({ client: ctx.connection.remote, principal: ctx.connection.principal, api, version, correlationId, errorCode: apiError.code },
      `${api} refused: ${err.message}`);
  } else ctx.broker.log.error(
    { err, client: ctx.connection.remote, clientId, api, version, correlationId, errorCode: apiError.code },
    'request handler failed; answering with its error response',
  );
  const answer = (table: ReadonlyMap<number, ErrorResponseBuilder>): ResponseBytes => {
    let response: unknown;
    try {
      response = table.get(handler.api.apiKey)?.build(request, version, apiError) ?? null;
      if (response !== null) applyRequestQuota(ctx, response);
      if (response !== null) return encodeResponse(handler, correlationId, response, version);
    } catch (buildError) {
      throw new CloseConnection(`${api} v${version} failed and its error response failed too: ${messageOf(buildError)}`);
    }
    throw new CloseConnection(`${api} v${version} failed and has no error response: ${messageOf(err)}`);
  };
  return errorResponses !== undefined ? answer(errorResponses) : errorResponseTable().then(answer);
}

/** A fault rule's error: the request's error response with its code, as answerFailure but without an error log line. */
function answerInjectedError(ctx: RequestContext, handler: Handler, request: unknown, error: ApiError): ResponseBytes | Promise<ResponseBytes> {
  const { apiVersion: version, correlationId } = ctx.header;
  const answer = (table: ReadonlyMap<number, ErrorResponseBuilder>): ResponseBytes => {
    const response = table.get(handler.api.apiKey)?.build(request, version, error) ?? null;
    // acks=0 Produce has no response: as Kafka does for a failed one, the connection closes.
    if (response === null) throw new CloseConnection(`an injected ${handler.api.name} error has no response to carry it`, true);
    return encodeResponse(handler, correlationId, response, version);
  };
  return errorResponses !== undefined ? answer(errorResponses) : errorResponseTable().then(answer);
}

/**
 * The error responses import the codec of every API, so they are loaded on the first failure rather than
 * at start-up (a lazily loaded API's codec stays unloaded until it is used).
 */
let errorResponses: ReadonlyMap<number, ErrorResponseBuilder> | undefined;

async function errorResponseTable(): Promise<ReadonlyMap<number, ErrorResponseBuilder>> {
  errorResponses ??= (await import('../protocol/error-responses/index.js')).errorResponses;
  return errorResponses;
}

/** Size prefix, response header, body: one Writer, whose buffers go to the socket as they are. */
function encodeResponse(handler: Handler, correlationId: number, response: unknown, version: number): Buffer[] {
  return encodeResponseFrame(handler.api, correlationId, response, version);
}

/** The client id of a request we will not parse, for the log line: a v1+ header has it right after the fixed fields. */
function peekClientId(frame: Buffer): string | null {
  if (frame.length < FIXED_HEADER_BYTES + 2) return null;
  const length = frame.readInt16BE(FIXED_HEADER_BYTES);
  const start = FIXED_HEADER_BYTES + 2;
  if (length < 0 || start + length > frame.length) return null;
  return JSON.stringify(frame.toString('utf8', start, start + Math.min(length, 200)));
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
