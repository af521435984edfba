/**
 * UnregisterBroker (key 64), v0 (Kafka 4.3.1: 0).
 *
 * Any id but this node's: BROKER_ID_NOT_REGISTERED "Broker ID <id> is not currently registered", as Kafka's
 * controller answers. This node's own id: NONE, as Kafka answers it; Kafka then drops the only broker's
 * registration and the node serves no metadata until it restarts and registers again, while gregor, which has no
 * registration to drop, goes on serving (README, "Feature flags and the quorum").
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  unregisterBrokerApi,
  type UnregisterBrokerRequest,
  type UnregisterBrokerResponse,
} from '../../protocol/generated/unregister-broker.js';
import { defineHandler, type Handler } from '../handler.js';

export const unregisterBrokerHandler: Handler = defineHandler<UnregisterBrokerRequest, UnregisterBrokerResponse>({
  api: unregisterBrokerApi,
  minVersion: 0,
  maxVersion: 0,

  handle(ctx, request) {
    if (request.brokerId === ctx.broker.nodeId) return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: '' };
    return {
      throttleTimeMs: 0,
      errorCode: ErrorCode.BROKER_ID_NOT_REGISTERED,
      errorMessage: `Broker ID ${request.brokerId} is not currently registered`,
    };
  },
});
