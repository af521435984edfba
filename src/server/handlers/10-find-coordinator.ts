/**
 * FindCoordinator (key 10), v0–v6.
 *
 * This node coordinates every group and every transactional id. For a group key the first request
 * creates __consumer_offsets (offsets.topic.num.partitions partitions), for a transactional id
 * __transaction_state (transaction.state.log.num.partitions), as Kafka does; gregor creates
 * it in-process and answers at once where Kafka answers COORDINATOR_NOT_AVAILABLE until it exists.
 * Key type 0 = group, 1 = transaction, 2 = share (v6+, "group:topicId:partition", CLUSTER_ACTION on the cluster
 * else the whole request is refused; a malformed key INVALID_REQUEST; the first creates __share_group_state);
 * anything else is INVALID_REQUEST. Versions:
 * - v0: group key only. v1–v3: key type; error_message ("NONE" on success, as Kafka's Errors.message()).
 * - v4+: batched coordinator_keys, one result each (error_message null).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  findCoordinatorApi,
  type Coordinator,
  type FindCoordinatorRequest,
  type FindCoordinatorResponse,
} from '../../protocol/generated/find-coordinator.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';
import { AclOperation, authorize, authorizeCluster, clusterAuthorizationError, refused, ResourceType } from '../authorization.js';
import { isUuid } from '../../protocol/uuid.js';

const GROUP = 0;
const TRANSACTION = 1;
const SHARE = 2;
/** Key type SHARE came with v6. */
const SHARE_KEYS_VERSION = 6;

interface Answer {
  errorCode: number;
  nodeId: number;
  host: string;
  port: number;
}

const NO_NODE = { nodeId: -1, host: '', port: -1 };

export const findCoordinatorHandler: Handler = defineHandler<FindCoordinatorRequest, FindCoordinatorResponse>({
  api: findCoordinatorApi,
  minVersion: 0,
  maxVersion: 6,

  async handle(ctx, request, version) {
    const keyType = version === 0 ? GROUP : request.keyType;
    if (version >= 4) {
      const coordinators: Coordinator[] = [];
      for (const key of request.coordinatorKeys) {
        const answer = await coordinatorFor(ctx, keyType, key, version);
        coordinators.push({ key, ...answer, errorMessage: null });
      }
      return { throttleTimeMs: 0, errorCode: 0, errorMessage: null, nodeId: 0, host: '', port: 0, coordinators };
    }
    const answer = await coordinatorFor(ctx, keyType, request.key, version);
    // Below v4 Kafka answers an authorization failure with the request's error response.
    if (answer.errorCode === ErrorCode.GROUP_AUTHORIZATION_FAILED) throw refused('GROUP_AUTHORIZATION_FAILED');
    if (answer.errorCode === ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED) throw refused('TRANSACTIONAL_ID_AUTHORIZATION_FAILED');
    return {
      throttleTimeMs: 0,
      ...answer,
      errorMessage: answer.errorCode === ErrorCode.NONE ? 'NONE' : null,
      coordinators: [],
    };
  },
});

/** Kafka's SharePartitionKey.getInstance(String): "groupId:topicId:partition", else INVALID_REQUEST. */
function isSharePartitionKey(key: string): boolean {
  const parts = key.split(':');
  return parts.length === 3 && parts[0]!.trim() !== '' && isUuid(parts[1]!) && /^[+-]?\d+$/.test(parts[2]!) && Number(parts[2]) >= 0 && Number(parts[2]) <= 2147483647;
}

async function shareCoordinatorFor(ctx: RequestContext, key: string, version: number): Promise<Answer> {
  if (version < SHARE_KEYS_VERSION) return { errorCode: ErrorCode.INVALID_REQUEST, ...NO_NODE };
  if (!authorizeCluster(ctx, AclOperation.CLUSTER_ACTION)) throw clusterAuthorizationError(ctx, AclOperation.CLUSTER_ACTION);
  if (!isSharePartitionKey(key)) return { errorCode: ErrorCode.INVALID_REQUEST, ...NO_NODE };
  const endpoint = ctx.broker.advertised.get(ctx.connection.listenerName);
  if (endpoint === undefined || !ctx.broker.shareState.isActive) return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, ...NO_NODE };
  try {
    await ctx.broker.shareState.ensureTopic();
  } catch (error) {
    ctx.broker.log.error({ err: error }, 'creating __share_group_state failed');
    return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, ...NO_NODE };
  }
  return { errorCode: ErrorCode.NONE, nodeId: ctx.broker.nodeId, host: endpoint.host, port: endpoint.port };
}

async function coordinatorFor(ctx: RequestContext, keyType: number, key: string, version: number): Promise<Answer> {
  if (keyType === SHARE) return shareCoordinatorFor(ctx, key, version);
  // DESCRIBE on the group or transactional id, before anything else (KafkaApis.getCoordinator).
  if (keyType === GROUP && !authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, key)) return { errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED, ...NO_NODE };
  if (keyType === TRANSACTION && !authorize(ctx, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, key)) {
    return { errorCode: ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, ...NO_NODE };
  }
  if (keyType !== GROUP && keyType !== TRANSACTION) return { errorCode: ErrorCode.INVALID_REQUEST, ...NO_NODE };
  const endpoint = ctx.broker.advertised.get(ctx.connection.listenerName);
  if (endpoint === undefined) return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, ...NO_NODE };
  if (keyType === GROUP) {
    if (!ctx.broker.groups.isActive) return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, ...NO_NODE };
    try {
      await ctx.broker.groups.ensureTopic();
    } catch (error) {
      ctx.broker.log.error({ err: error }, 'creating __consumer_offsets failed');
      return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, ...NO_NODE };
    }
  }
  if (keyType === TRANSACTION) {
    if (!ctx.broker.transactions.isActive) return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, ...NO_NODE };
    try {
      await ctx.broker.transactions.ensureTopic();
    } catch (error) {
      ctx.broker.log.error({ err: error }, 'creating __transaction_state failed');
      return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, ...NO_NODE };
    }
  }
  return { errorCode: ErrorCode.NONE, nodeId: ctx.broker.nodeId, host: endpoint.host, port: endpoint.port };
}
