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
 */
import { Reader } from '../protocol/io/reader.js';
import { Writer } from '../protocol/io/writer.js';
import {
  decodeRequestHeader,
  encodeResponseHeader,
  requestHeaderVersion,
  responseHeaderVersion,
} from '../protocol/generated/headers.js';
import { errorResponses } from '../protocol/error-responses/index.js';
import { CloseConnection, type ConnectionInfo, type Dispatch, type ResponseBytes } from './connection.js';
import { apiErrorOf } from './error-mapping.js';
import { NO_RESPONSE, type BrokerState, type Handler, type HandlerResult, type RequestContext } from './handler.js';

/** api key (int16), api version (int16), correlation id (int32): present in every request header version. */
const FIXED_HEADER_BYTES = 8;

/** Indexes a registry by api key; two handlers for one key is a programming error caught at start-up. */
export function indexHandlers(handlers: readonly Handler[]): ReadonlyMap<number, Handler> {
  const byKey = new Map<number, Handler>();
  for (const handler of handlers) {
    if (byKey.has(handler.api.apiKey)) throw new Error(`api key ${handler.api.apiKey} (${handler.api.name}) is registered twice`);
    if (handler.minVersion < handler.api.minVersion || handler.maxVersion > handler.api.maxVersion || handler.minVersion > handler.maxVersion) {
      throw new Error(
        `${handler.api.name} handler serves v${handler.minVersion}-v${handler.maxVersion}, outside the codec's v${handler.api.minVersion}-v${handler.api.maxVersion}`,
      );
    }
    byKey.set(handler.api.apiKey, handler);
  }
  return byKey;
}

export function createDispatch(broker: BrokerState): Dispatch {
  const byKey = indexHandlers(broker.handlers);

  return (frame: Buffer, connection: ConnectionInfo): ResponseBytes | Promise<ResponseBytes> => {
    if (frame.length < FIXED_HEADER_BYTES) {
      throw new CloseConnection(`request of ${frame.length} bytes is shorter than a request header`);
    }
    const apiKey = frame.readInt16BE(0);
    const apiVersion = frame.readInt16BE(2);
    const handler = byKey.get(apiKey);
    if (handler === undefined) {
      throw new CloseConnection(`unknown api key ${apiKey} (version ${apiVersion}, client id ${peekClientId(frame) ?? '-'})`);
    }

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
    const ctx: RequestContext = { broker, connection, header: { apiKey, apiVersion, correlationId, clientId } };

    if (apiVersion < handler.minVersion || apiVersion > handler.maxVersion) {
      if (handler.unsupportedVersion === undefined) {
        throw new CloseConnection(
          `${handler.api.name} v${apiVersion} is not supported (v${handler.minVersion}-v${handler.maxVersion} are)`,
        );
      }
      const { response, version } = handler.unsupportedVersion(ctx);
      return encodeResponse(handler, correlationId, response, version);
    }

    let request: unknown;
    try {
      request = handler.api.decodeRequest(reader, apiVersion);
    } catch (err) {
      throw new CloseConnection(`unparsable ${handler.api.name} v${apiVersion} request: ${messageOf(err)}`);
    }
    const failed = (err: unknown): ResponseBytes => answerFailure(ctx, handler, request, err);
    const respond = (response: unknown): ResponseBytes => {
      if (response === NO_RESPONSE) return null;
      try {
        return encodeResponse(handler, correlationId, response, apiVersion);
      } catch (err) {
        return failed(err);
      }
    };
    let result: HandlerResult<unknown>;
    try {
      result = handler.handle(ctx, request, apiVersion);
    } catch (err) {
      return failed(err);
    }
    return result instanceof Promise ? result.then(respond, failed) : respond(result);
  };
}

/**
 * Kafka's KafkaApis.handleError: logs the failure with its stack and answers with the request's error
 * response. A CloseConnection is a deliberate close; a request without an error response is closed too.
 */
function answerFailure(ctx: RequestContext, handler: Handler, request: unknown, err: unknown): ResponseBytes {
  if (err instanceof CloseConnection) throw err;
  const { apiVersion: version, correlationId, clientId } = ctx.header;
  const api = handler.api.name;
  const apiError = apiErrorOf(err);
  ctx.broker.log.error(
    { err, client: ctx.connection.remote, clientId, api, version, correlationId, errorCode: apiError.code },
    'request handler failed; answering with its error response',
  );
  let response: unknown;
  try {
    response = errorResponses.get(handler.api.apiKey)?.build(request, version, apiError) ?? null;
    if (response !== null) return encodeResponse(handler, correlationId, response, version);
  } catch (buildError) {
    throw new CloseConnection(`${api} v${version} failed and its error response failed too: ${messageOf(buildError)}`);
  }
  throw new CloseConnection(`${api} v${version} failed and has no error response: ${messageOf(err)}`);
}

/** Size prefix, response header, body: one Writer, whose buffers go to the socket as they are. */
function encodeResponse(handler: Handler, correlationId: number, response: unknown, version: number): Buffer[] {
  const w = new Writer();
  w.int32(0);
  encodeResponseHeader(w, { correlationId }, responseHeaderVersion(handler.api.apiKey, version));
  handler.api.encodeResponse(w, response, version);
  w.patchInt32(0, w.length - 4);
  return w.finish();
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
