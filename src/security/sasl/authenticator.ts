/**
 * One connection's SASL authentication, the state machine of Kafka's SaslServerAuthenticator, independent of the
 * transport (a SASL_PLAINTEXT socket or, later, a TLS one): it is fed each request frame (size prefix removed) until
 * the client is authenticated, and says what to do with it.
 *
 * - Before the handshake: ApiVersions (once, answered by the broker's own handler) and SaslHandshake only; any other
 *   request, or a second ApiVersions, closes the connection without a response.
 * - SaslHandshake v0/v1 with a mechanism not enabled: UNSUPPORTED_SASL_MECHANISM with the enabled ones, then closed.
 * - After a v1 handshake each token comes in a SaslAuthenticate request; any other request gets its error response
 *   with ILLEGAL_SASL_STATE ("Unexpected Kafka request of type X during SASL authentication.") and is closed. After a
 *   v0 handshake the tokens come raw (size-prefixed, no Kafka header) and are answered raw.
 * - A failed exchange: SASL_AUTHENTICATION_FAILED with the mechanism's message when it is one the client may see, else
 *   "Authentication failed during authentication due to invalid credentials with SASL mechanism M"; then closed (raw
 *   tokens: closed without a response).
 * - Once complete, requests pass. With a session lifetime (connections.max.reauth.ms), a request after it ends closes
 *   the connection; a SaslHandshake then starts a re-authentication (KIP-368), which must keep the mechanism and the
 *   principal.
 */
import { Reader } from '../../protocol/io/reader.js';
import { encodeResponseFrame } from '../../protocol/response-frame.js';
import { decodeRequestHeader, requestHeaderVersion } from '../../protocol/generated/headers.js';
import { saslHandshakeApi, type SaslHandshakeResponse } from '../../protocol/generated/sasl-handshake.js';
import { saslAuthenticateApi, type SaslAuthenticateResponse } from '../../protocol/generated/sasl-authenticate.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { SaslAuthenticationFailure, type SaslServer } from './sasl-server.js';
import { userPrincipal } from '../principal.js';

export const API_VERSIONS_KEY = 18;
/** Kafka's ApiVersions range: a newer version is answered (v0, UNSUPPORTED_VERSION) without moving the state. */
const API_VERSIONS_MAX = 4;
const MIN_REAUTH_INTERVAL_MS = 1000;

/** What the connection does with one frame. */
export type SaslStep =
  /** Authenticated: the request is the broker's to serve. */
  | { readonly kind: 'pass' }
  /** ApiVersions before the handshake: the broker's handler answers it. */
  | { readonly kind: 'apiVersions' }
  /** Write these bytes (size prefix included); then close when `close` says why. */
  | { readonly kind: 'respond'; readonly bytes: Buffer[]; readonly close?: string }
  /** The request of another API that gets its own error response (ILLEGAL_SASL_STATE), then the close. */
  | { readonly kind: 'errorResponse'; readonly apiKey: number; readonly message: string; readonly close: string }
  /** Close without a response. */
  | { readonly kind: 'close'; readonly reason: string };

export interface SaslListenerSettings {
  /** The listener's enabled mechanisms, in configured order (the handshake lists them). */
  readonly mechanisms: readonly string[];
  /** A server for an enabled mechanism. */
  readonly newServer: (mechanism: string) => SaslServer;
  /** connections.max.reauth.ms for a mechanism; 0: sessions never end. */
  readonly sessionLifetimeMs: (mechanism: string) => number;
  /** The name of an API key (Metadata), for the messages that name a refused request. */
  readonly apiName: (apiKey: number) => string | undefined;
}

type State = 'handshakeOrVersions' | 'handshake' | 'authenticate' | 'complete' | 'failed';

export class SaslAuthenticator {
  private state: State = 'handshakeOrVersions';
  private server: SaslServer | null = null;
  /** After a v0 handshake the tokens come without Kafka framing. */
  private rawTokens = false;
  private lastReauthAt: number | null = null;
  private sessionEndsAt: number | null = null;
  private reauth: { readonly mechanism: string; readonly principal: string } | null = null;
  /** A re-authentication's handshake asked for another mechanism: the next token fails it. */
  private badReauthMechanism: string | null = null;
  /** The outcome of a token still being checked, which the next frames wait for. */
  private pending: Promise<unknown> | null = null;
  /** Authenticated with a delegation token. */
  tokenAuthenticated = false;
  /** KafkaPrincipal of the authenticated client, "User:<name>". */
  principal: string | null = null;

  constructor(private readonly settings: SaslListenerSettings, private readonly now: () => number = Date.now) {}

  get authenticated(): boolean {
    return this.state === 'complete';
  }

  /** Decides what one frame is; a promise while a token's asynchronous check is under way. */
  step(frame: Buffer): SaslStep | Promise<SaslStep> {
    if (this.pending !== null) return this.pending.then(() => this.step(frame));
    if (this.state === 'complete') return this.stepAuthenticated(frame);
    if (this.state === 'failed') return { kind: 'close', reason: 'SASL authentication failed' };
    if (this.state === 'authenticate' && this.rawTokens) return this.token(frame, null);
    let header: { apiKey: number; apiVersion: number; correlationId: number; reader: Reader };
    try {
      header = parseHeader(frame);
    } catch {
      return this.fail(`unparsable request header during SASL ${this.state === 'authenticate' ? 'authentication' : 'handshake'}`);
    }
    const { apiKey, apiVersion } = header;
    if (this.state === 'authenticate') {
      if (apiKey !== saslAuthenticateApi.apiKey) {
        this.state = 'failed';
        return { kind: 'errorResponse', apiKey, message: `Unexpected Kafka request of type ${this.apiName(apiKey)} during SASL authentication.`, close: 'a request other than SaslAuthenticate during SASL authentication' };
      }
      if (apiVersion < saslAuthenticateApi.minVersion || apiVersion > saslAuthenticateApi.maxVersion) {
        return this.fail(`Version ${apiVersion} is not supported for apiKey SASL_AUTHENTICATE`);
      }
      return this.token(null, header);
    }
    if (apiKey === API_VERSIONS_KEY) {
      if (this.state !== 'handshakeOrVersions') return this.fail('Unexpected ApiVersions request received during SASL authentication state HANDSHAKE_REQUEST');
      if (apiVersion <= API_VERSIONS_MAX) this.state = 'handshake';
      return { kind: 'apiVersions' };
    }
    if (apiKey !== saslHandshakeApi.apiKey) return this.fail(`Unexpected Kafka request of type ${this.apiName(apiKey)} during SASL handshake.`);
    return this.handshake(header);
  }

  private stepAuthenticated(frame: Buffer): SaslStep | Promise<SaslStep> {
    if (this.sessionEndsAt !== null && this.now() >= this.sessionEndsAt) {
      this.state = 'failed';
      return { kind: 'close', reason: 'the SASL session expired (connections.max.reauth.ms) without re-authentication' };
    }
    // Kafka's KafkaChannel.maybeBeginServerReauthentication: only a session that ends can be renewed, at most once
    // a second; otherwise the handshake is the broker's to refuse (ILLEGAL_SASL_STATE).
    const now = this.now();
    if (frame.length >= 2 && frame.readInt16BE(0) === saslHandshakeApi.apiKey && this.sessionEndsAt !== null &&
        (this.lastReauthAt === null || now - this.lastReauthAt >= MIN_REAUTH_INTERVAL_MS)) {
      this.lastReauthAt = now;
      this.reauth = { mechanism: this.server!.mechanism, principal: this.principal! };
      this.state = 'handshake';
      return this.step(frame);
    }
    return { kind: 'pass' };
  }

  private handshake(header: ParsedHeader): SaslStep {
    const { apiVersion, correlationId, reader } = header;
    if (apiVersion > saslHandshakeApi.maxVersion) return this.fail(`Version ${apiVersion} is not supported for apiKey SASL_HANDSHAKE`);
    let mechanism: string;
    try {
      mechanism = saslHandshakeApi.decodeRequest(reader, apiVersion).mechanism;
    } catch {
      return this.fail('unparsable SaslHandshake request');
    }
    const mechanisms = [...this.settings.mechanisms];
    if (!mechanisms.includes(mechanism)) {
      this.state = 'failed';
      const response: SaslHandshakeResponse = { errorCode: ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms };
      return { kind: 'respond', bytes: encodeResponseFrame(saslHandshakeApi, correlationId, response, apiVersion), close: `Unsupported SASL mechanism ${mechanism}` };
    }
    this.rawTokens = apiVersion === 0;
    if (this.reauth !== null && this.reauth.mechanism !== mechanism) {
      this.badReauthMechanism = `SASL mechanism '${mechanism}' requested by client is not supported for re-authentication of mechanism '${this.reauth.mechanism}'`;
    } else {
      this.server = this.settings.newServer(mechanism);
    }
    this.state = 'authenticate';
    return { kind: 'respond', bytes: encodeResponseFrame(saslHandshakeApi, correlationId, { errorCode: ErrorCode.NONE, mechanisms }, apiVersion) };
  }

  /** One token: raw (`raw`) or in a SaslAuthenticate request (`header`). */
  private token(raw: Buffer | null, header: ParsedHeader | null): SaslStep | Promise<SaslStep> {
    if (this.badReauthMechanism !== null) return this.fail(this.badReauthMechanism);
    const server = this.server!;
    let token: Buffer;
    if (header !== null) {
      try {
        token = saslAuthenticateApi.decodeRequest(header.reader, header.apiVersion).authBytes;
      } catch {
        return this.fail('unparsable SaslAuthenticate request');
      }
    } else {
      token = raw!;
    }
    let evaluated: Buffer | Promise<Buffer>;
    try {
      evaluated = server.evaluate(token);
    } catch (err) {
      return this.evaluated(server, header, null, err);
    }
    if (!(evaluated instanceof Promise)) return this.evaluated(server, header, evaluated, null);
    // An asynchronous check (a JWKS): frames that come meanwhile wait for its outcome, in order.
    const step = evaluated.then((challenge) => this.evaluated(server, header, challenge, null), (err: unknown) => this.evaluated(server, header, null, err));
    const pending: Promise<unknown> = step.finally(() => {
      if (this.pending === pending) this.pending = null;
    });
    this.pending = pending;
    return step;
  }

  /** The outcome of one token: its challenge, or the error it failed with. */
  private evaluated(server: SaslServer, header: ParsedHeader | null, challenge: Buffer | null, error: unknown): SaslStep {
    const text = this.reauth !== null ? 're-authentication' : 'authentication';
    let failure: string | null = null;
    if (error === null && server.complete && this.reauth !== null && userPrincipal(server.authorizationId!) !== this.reauth.principal) {
      // Kafka's message joins each principal's type and name with a dot.
      error = new SaslAuthenticationFailure(`Cannot change principals during re-authentication from ${this.reauth.principal.replace(':', '.')}: User.${server.authorizationId}`);
    }
    if (error !== null) {
      // Only an authentication failure's own message reaches the client: another may tell whether a user exists.
      failure = error instanceof SaslAuthenticationFailure ? error.message
        : `Authentication failed during ${text} due to invalid credentials with SASL mechanism ${server.mechanism}`;
      this.state = 'failed';
      if (header === null) return { kind: 'close', reason: failure };
      const response: SaslAuthenticateResponse = { errorCode: ErrorCode.SASL_AUTHENTICATION_FAILED, errorMessage: failure, authBytes: Buffer.alloc(0), sessionLifetimeMs: 0n };
      return { kind: 'respond', bytes: encodeResponseFrame(saslAuthenticateApi, header.correlationId, response, header.apiVersion), close: failure };
    }
    let lifetimeMs = 0;
    if (server.complete) {
      lifetimeMs = this.sessionLifetime(server);
      this.principal = userPrincipal(server.authorizationId!);
      this.tokenAuthenticated = server.tokenAuthenticated === true;
      this.reauth = null;
      this.state = 'complete';
    }
    if (header === null) return { kind: 'respond', bytes: [sizePrefixed(challenge!)] };
    // Kafka's SaslAuthenticateResponseData leaves the message at its default, the empty string.
    const response: SaslAuthenticateResponse = { errorCode: ErrorCode.NONE, errorMessage: '', authBytes: challenge!, sessionLifetimeMs: BigInt(lifetimeMs) };
    return { kind: 'respond', bytes: encodeResponseFrame(saslAuthenticateApi, header.correlationId, response, header.apiVersion) };
  }

  /**
   * Kafka's calcCompletionTimesAndReturnSessionLifetimeMs: the session ends at connections.max.reauth.ms, or when the
   * credential expires (an OAUTHBEARER token, a delegation token), whichever is first; neither: it never ends.
   */
  private sessionLifetime(server: SaslServer): number {
    const now = this.now();
    const maxReauthMs = this.settings.sessionLifetimeMs(server.mechanism);
    const expiresAt = server.credentialExpiresAtMs ?? null;
    if (expiresAt === null && maxReauthMs <= 0) {
      this.sessionEndsAt = null;
      return 0;
    }
    const lifetimeMs = Math.max(0, expiresAt === null ? maxReauthMs : maxReauthMs <= 0 ? expiresAt - now : Math.min(expiresAt - now, maxReauthMs));
    this.sessionEndsAt = now + lifetimeMs;
    return lifetimeMs;
  }

  private apiName(apiKey: number): string {
    const name = this.settings.apiName(apiKey);
    return name === undefined ? String(apiKey) : apiKeyConstant(name);
  }

  private fail(reason: string): SaslStep {
    this.state = 'failed';
    return { kind: 'close', reason };
  }
}

interface ParsedHeader {
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly correlationId: number;
  readonly reader: Reader;
}

function parseHeader(frame: Buffer): ParsedHeader {
  if (frame.length < 8) throw new Error('short header');
  const apiKey = frame.readInt16BE(0);
  const apiVersion = frame.readInt16BE(2);
  const reader = new Reader(frame);
  const header = decodeRequestHeader(reader, requestHeaderVersion(apiKey, apiVersion));
  return { apiKey, apiVersion, correlationId: header.correlationId, reader };
}

function sizePrefixed(bytes: Buffer): Buffer {
  const out = Buffer.alloc(4 + bytes.length);
  out.writeInt32BE(bytes.length, 0);
  bytes.copy(out, 4);
  return out;
}

/** Kafka names an API by its ApiKeys constant in these messages: DescribeConfigs → DESCRIBE_CONFIGS. */
export function apiKeyConstant(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}
