// The contract of one mechanism's server side, and the two ways it fails, as in Kafka: a SaslAuthenticationException's
// message is sent to the client; any other SaslException is not (it may tell whether a user exists), the client gets
// the authenticator's generic "invalid credentials" message instead.

export interface SaslServer {
  readonly mechanism: string;
  /**
   * The next challenge for the client's token (empty when there is none); throws (or rejects with)
   * SaslAuthenticationFailure or SaslFailure. A promise when the check is asynchronous (OAUTHBEARER's JWKS).
   */
  evaluate(token: Buffer): Buffer | Promise<Buffer>;
  readonly complete: boolean;
  /** The authenticated user name once complete. */
  readonly authorizationId: string | null;
  /** When the credential expires (ms since the epoch) once complete, if it does (Kafka's CREDENTIAL_LIFETIME_MS). */
  readonly credentialExpiresAtMs?: number | null;
  /** Authenticated with a delegation token (SCRAM tokenauth=true): such a client may not ask for tokens. */
  readonly tokenAuthenticated?: boolean;
}

/** Kafka's SaslAuthenticationException: its message reaches the client. */
export class SaslAuthenticationFailure extends Error {
  override readonly name = 'SaslAuthenticationFailure';
}

/** Kafka's plain SaslException: logged at debug, never sent. */
export class SaslFailure extends Error {
  override readonly name = 'SaslFailure';
}
