/**
 * SaslAuthenticate (key 36), v0–v2 (Kafka 4.3's range), as Kafka's KafkaApis answers it once no authentication is
 * under way: ILLEGAL_SASL_STATE with Kafka's message. Tokens during authentication are the SASL authenticator's
 * (security/sasl/authenticator.ts).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { saslAuthenticateApi, type SaslAuthenticateRequest, type SaslAuthenticateResponse } from '../../protocol/generated/sasl-authenticate.js';
import { defineHandler, type Handler } from '../handler.js';

export const saslAuthenticateHandler: Handler = defineHandler<SaslAuthenticateRequest, SaslAuthenticateResponse>({
  api: saslAuthenticateApi,
  minVersion: 0,
  maxVersion: 2,
  handle: () => ({
    errorCode: ErrorCode.ILLEGAL_SASL_STATE,
    errorMessage: 'SaslAuthenticate request received after successful authentication',
    authBytes: Buffer.alloc(0),
    sessionLifetimeMs: 0n,
  }),
});
