// What an OAUTHBEARER token validator gives (Kafka's OAuthBearerToken) or why it refuses one (the callback's error
// status and scope, which reach the client as the RFC 7628 error JSON; the reason itself is for the debug log only).

export interface OAuthBearerToken {
  /** The principal's name: User:<principalName>. */
  readonly principalName: string;
  /** When the token expires, in ms since the epoch: it bounds the session. */
  readonly lifetimeMs: number;
}

/** A token refused: `status` invalid_token, or insufficient_scope with the required `scope`. */
export class OAuthBearerValidationFailure extends Error {
  override readonly name = 'OAuthBearerValidationFailure';
  constructor(reason: string, readonly status: 'invalid_token' | 'insufficient_scope' = 'invalid_token', readonly scope: string | null = null) {
    super(reason);
  }
}

/** Validates one token value (the compact JWS): the token, or throws OAuthBearerValidationFailure. */
export type OAuthBearerValidator = (tokenValue: string) => OAuthBearerToken | Promise<OAuthBearerToken>;
