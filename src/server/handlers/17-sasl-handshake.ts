/**
 * SaslHandshake (key 17), v0–v1 (Kafka 4.3's range), as Kafka's KafkaApis answers it: on a connection that needs no
 * authentication (PLAINTEXT) or is authenticated already, the handshake is out of place: ILLEGAL_SASL_STATE. The
 * handshake itself is the SASL authenticator's (security/sasl/authenticator.ts, before any request reaches here).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { saslHandshakeApi, type SaslHandshakeRequest, type SaslHandshakeResponse } from '../../protocol/generated/sasl-handshake.js';
import { defineHandler, type Handler } from '../handler.js';

export const saslHandshakeHandler: Handler = defineHandler<SaslHandshakeRequest, SaslHandshakeResponse>({
  api: saslHandshakeApi,
  minVersion: 0,
  maxVersion: 1,
  handle: () => ({ errorCode: ErrorCode.ILLEGAL_SASL_STATE, mechanisms: [] }),
});
