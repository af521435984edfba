/**
 * DescribeCluster (key 60), v0–v2, Kafka 4.3.1's range.
 *
 * The cluster id, this node as the only broker (at the advertised endpoint of the listener the request
 * came in on, with broker.rack) and as the controller id (a KRaft broker names a live broker there), and
 * the cluster's authorized operations when asked (no authorizer: all). v1: asking for controller
 * endpoints is MISMATCHED_ENDPOINT_TYPE, as a broker answers it. v2: include_fenced_brokers and is_fenced (KIP-1073):
 * this broker is never fenced, so it is listed either way, with is_fenced false.
 * In cluster mode: every live broker (registered in etcd) and the elected controller.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  describeClusterApi,
  type DescribeClusterRequest,
  type DescribeClusterResponse,
} from '../../protocol/generated/describe-cluster.js';
import { AUTHORIZED_OPERATIONS_OMITTED } from '../authorized-operations.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorizeCluster, authorizedOperations, ResourceType } from '../authorization.js';
import { CLUSTER_NAME } from '../../security/authorizer/acl.js';
import { brokersOn, metadataControllerIdOf } from '../cluster-view.js';

/** Kafka's EndpointType ids. */
const BROKER_ENDPOINTS = 1;
const CONTROLLER_ENDPOINTS = 2;

export const describeClusterHandler: Handler = defineHandler<DescribeClusterRequest, DescribeClusterResponse>({
  api: describeClusterApi,
  minVersion: 0,
  maxVersion: 2,

  handle(ctx, request, version) {
    const { broker } = ctx;
    const response: DescribeClusterResponse = {
      throttleTimeMs: 0,
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      endpointType: BROKER_ENDPOINTS,
      clusterId: broker.clusterId,
      controllerId: metadataControllerIdOf(broker),
      brokers: [],
      // Without DESCRIBE on the cluster: 0 (AuthHelper.computeDescribeClusterResponse).
      clusterAuthorizedOperations: !request.includeClusterAuthorizedOperations ? AUTHORIZED_OPERATIONS_OMITTED
        : authorizeCluster(ctx, AclOperation.DESCRIBE) ? authorizedOperations(ctx, ResourceType.CLUSTER, CLUSTER_NAME) : 0,
    };
    if (version >= 1 && request.endpointType !== BROKER_ENDPOINTS) {
      // Kafka's error answer carries no controller and no operations.
      response.controllerId = -1;
      response.clusterAuthorizedOperations = AUTHORIZED_OPERATIONS_OMITTED;
      response.errorCode = ErrorCode.MISMATCHED_ENDPOINT_TYPE;
      response.errorMessage = request.endpointType === CONTROLLER_ENDPOINTS
        ? 'The request was sent to an endpoint of type BROKER, but we wanted an endpoint of type CONTROLLER'
        : `Unsupported endpoint type ${request.endpointType}`;
      return response;
    }
    // Live brokers only: a broker whose session lease expired is gone from etcd, so none is listed fenced.
    for (const node of brokersOn(broker, ctx.connection.listenerName)) {
      response.brokers.push({ brokerId: node.nodeId, host: node.host, port: node.port, rack: node.rack, isFenced: false });
    }
    return response;
  },
});
