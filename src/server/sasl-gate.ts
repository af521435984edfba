/**
 * Puts a SASL listener's connection behind its authenticator (security/sasl/authenticator.ts): every frame goes to
 * it until the client is authenticated, then to the broker's dispatch. The gate only carries out what the
 * authenticator decides: pass a request on, write its bytes, build a refused request's error response, close.
 * Failures are logged at INFO as Kafka's Selector logs them ("Failed authentication with <peer> (<reason>)"),
 * with the reason only: never a token or password.
 */
import type { Log } from '../log.js';
import type { SaslAuthenticator, SaslStep } from '../security/sasl/authenticator.js';
import { Reader } from '../protocol/io/reader.js';
import { encodeResponseFrame } from '../protocol/response-frame.js';
import { decodeRequestHeader, requestHeaderVersion } from '../protocol/generated/headers.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { ConnectionInfo, Dispatch, ResponseBytes } from './connection.js';

/** What the gate may do to its connection. */
export interface GatedConnection {
  /** Write what is answered, then close. */
  close(): void;
  /** Close at once. */
  destroy(reason: string): void;
  /** The client is authenticated: requests may be as large as any client's. */
  authenticated(): void;
}

export function saslGate(authenticator: SaslAuthenticator, dispatch: Dispatch, connection: () => GatedConnection, log: Log): Dispatch {
  const failed = (info: ConnectionInfo, reason: string) => log.info({ client: info.remote, listener: info.listenerName }, `Failed authentication with ${info.remote} (${reason})`);
  const carryOut = (frame: Buffer, info: ConnectionInfo, step: SaslStep): ResponseBytes | Promise<ResponseBytes> => {
    switch (step.kind) {
      case 'pass':
        return dispatch(frame, info);
      case 'apiVersions':
        return dispatch(frame, info);
      case 'respond':
        if (step.close !== undefined) {
          failed(info, step.close);
          connection().close();
        } else if (authenticator.authenticated) {
          info.principal = authenticator.principal!;
          info.tokenAuthenticated = authenticator.tokenAuthenticated;
          connection().authenticated();
          log.debug({ client: info.remote, listener: info.listenerName, principal: info.principal }, 'SASL authentication complete');
        }
        return step.bytes;
      case 'errorResponse':
        failed(info, step.message);
        connection().close();
        return illegalStateResponse(frame, step.message);
      case 'close':
        failed(info, step.reason);
        connection().destroy(step.reason);
        return null;
    }
  };
  return (frame, info) => {
    const step = authenticator.step(frame);
    return step instanceof Promise ? step.then((s) => carryOut(frame, info, s)) : carryOut(frame, info, step);
  };
}

/** The refused request's own error response (Kafka's getErrorResponse) with ILLEGAL_SASL_STATE; none if it cannot be parsed. */
async function illegalStateResponse(frame: Buffer, message: string): Promise<ResponseBytes> {
  const { errorResponses } = await import('../protocol/error-responses/index.js');
  const apiKey = frame.readInt16BE(0);
  const version = frame.readInt16BE(2);
  const builder = errorResponses.get(apiKey);
  if (builder === undefined || version < builder.api.minVersion || version > builder.api.maxVersion) return null;
  try {
    const reader = new Reader(frame);
    const { correlationId } = decodeRequestHeader(reader, requestHeaderVersion(apiKey, version));
    const response = builder.build(builder.api.decodeRequest(reader, version), version, { code: ErrorCode.ILLEGAL_SASL_STATE, message });
    return response === null ? null : encodeResponseFrame(builder.api, correlationId, response, version);
  } catch {
    return null;
  }
}
