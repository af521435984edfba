/**
 * What a request may do, asked of the broker's authorizer (security/authorizer/standard-authorizer.ts: THE decision)
 * with the connection's principal and address, as Kafka's AuthHelper asks it. Without an authorizer every request is
 * allowed and authorizedOperations report every supported operation, as Kafka without one.
 *
 * CLUSTER_OPERATIONS is the table of the APIs whose whole request needs one operation on the CLUSTER resource (Kafka's
 * authorizeClusterOperation, in KafkaApis or in the controller it forwards to): the router checks it before the
 * handler runs and answers a refusal with the request's error response, CLUSTER_AUTHORIZATION_FAILED. Checks on
 * topics, groups and transactional ids are made by the handlers through the functions below.
 */
import { AclOperation, CLUSTER_NAME, operationName, ResourceType, SUPPORTED_OPERATIONS } from '../security/authorizer/acl.js';
import type { Session } from '../security/authorizer/standard-authorizer.js';
import { ErrorCode } from '../protocol/error-codes.js';
import { KafkaError } from '../protocol/kafka-error.js';
import type { ConnectionInfo } from './connection.js';
import type { RequestContext } from './handler.js';
import { ResourceType as ConfigResourceType } from './admin/resource-types.js';

export { AclOperation, ResourceType } from '../security/authorizer/acl.js';

/** API key → the CLUSTER operations, any one of which allows the whole request (Kafka 4.3.1's KafkaApis/ControllerApis). */
export const CLUSTER_OPERATIONS: ReadonlyMap<number, readonly number[]> = new Map<number, readonly number[]>([
  [27, [AclOperation.ALTER, AclOperation.CLUSTER_ACTION]], // WriteTxnMarkers
  [29, [AclOperation.DESCRIBE]], // DescribeAcls
  [30, [AclOperation.ALTER]], // CreateAcls
  [31, [AclOperation.ALTER]], // DeleteAcls
  [34, [AclOperation.ALTER]], // AlterReplicaLogDirs
  [43, [AclOperation.ALTER]], // ElectLeaders
  [45, [AclOperation.ALTER]], // AlterPartitionReassignments
  [46, [AclOperation.DESCRIBE]], // ListPartitionReassignments
  [48, [AclOperation.DESCRIBE_CONFIGS]], // DescribeClientQuotas
  [49, [AclOperation.ALTER_CONFIGS]], // AlterClientQuotas
  [50, [AclOperation.DESCRIBE]], // DescribeUserScramCredentials
  [51, [AclOperation.ALTER]], // AlterUserScramCredentials
  [55, [AclOperation.DESCRIBE]], // DescribeQuorum
  [57, [AclOperation.ALTER]], // UpdateFeatures
  [64, [AclOperation.ALTER]], // UnregisterBroker
  [74, [AclOperation.DESCRIBE_CONFIGS]], // ListConfigResources
  [80, [AclOperation.ALTER]], // AddRaftVoter
  [81, [AclOperation.ALTER]], // RemoveRaftVoter
  [83, [AclOperation.CLUSTER_ACTION]], // InitializeShareGroupState
  [84, [AclOperation.CLUSTER_ACTION]], // ReadShareGroupState
  [85, [AclOperation.CLUSTER_ACTION]], // WriteShareGroupState
  [86, [AclOperation.CLUSTER_ACTION]], // DeleteShareGroupState
  [87, [AclOperation.CLUSTER_ACTION]], // ReadShareGroupStateSummary
]);

/**
 * The APIs of CLUSTER_OPERATIONS whose refusal Kafka answers with CLUSTER_AUTHORIZATION_FAILED's own message (it asks
 * authorize, not authorizeClusterOperation, whose message names the request).
 */
const REFUSED_WITH_DEFAULT_MESSAGE: ReadonlySet<number> = new Set([34, 48, 50, 74]);

/** The client's address as Java's InetAddress.getHostAddress prints it (an IPv4-mapped IPv6 address as IPv4). */
export function clientHost(connection: ConnectionInfo): string {
  const host = connection.remote.slice(0, connection.remote.lastIndexOf(':'));
  return host.startsWith('::ffff:') && host.includes('.') ? host.slice('::ffff:'.length) : host;
}

function sessionOf(ctx: RequestContext): Session {
  return { principal: ctx.connection.principal, host: clientHost(ctx.connection) };
}

/** AuthHelper.authorize. */
export function authorize(ctx: RequestContext, operation: number, resourceType: number, name: string): boolean {
  return ctx.broker.authorizer?.authorize(sessionOf(ctx), operation, resourceType, name) ?? true;
}

export function authorizeCluster(ctx: RequestContext, operation: number): boolean {
  return authorize(ctx, operation, ResourceType.CLUSTER, CLUSTER_NAME);
}

/** AuthHelper.filterByAuthorized: the names `operation` is allowed on. */
export function authorizedNames(ctx: RequestContext, operation: number, resourceType: number, names: Iterable<string>): Set<string> {
  return new Set([...new Set(names)].filter((name) => authorize(ctx, operation, resourceType, name)));
}

/** AuthHelper.authorizeByResourceType. */
export function authorizeByResourceType(ctx: RequestContext, operation: number, resourceType: number): boolean {
  return ctx.broker.authorizer?.authorizeByResourceType(sessionOf(ctx), operation, resourceType) ?? true;
}

/** AuthHelper.authorizedOperations: bit n set for each supported operation n allowed on the resource. */
export function authorizedOperations(ctx: RequestContext, resourceType: number, name: string): number {
  const authorizer = ctx.broker.authorizer;
  if (authorizer !== null) return authorizer.authorizedOperations(sessionOf(ctx), resourceType, name);
  return (SUPPORTED_OPERATIONS.get(resourceType) ?? []).reduce((field, op) => field | (1 << op), 0);
}

/**
 * A describe of KIP-848-style groups (consumer, share, streams), as KafkaApis answers it: the groups the client may
 * not DESCRIBE first, GROUP_AUTHORIZATION_FAILED; the others described, with their authorized operations when asked.
 */
export async function describeAuthorizedGroups<G extends { groupId: string; errorCode: number; authorizedOperations: number }>(
  ctx: RequestContext,
  groupIds: readonly string[],
  includeAuthorizedOperations: boolean,
  empty: () => G,
  describe: (groupIds: string[]) => G[] | Promise<G[]>,
): Promise<G[]> {
  const describable = authorizedNames(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, groupIds);
  const refusedGroups = groupIds.filter((g) => !describable.has(g)).map((groupId) => ({ ...empty(), groupId, errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED }));
  const described = await describe(groupIds.filter((g) => describable.has(g)));
  const withOperations = described.map((g) =>
    (g.errorCode === ErrorCode.NONE && includeAuthorizedOperations ? { ...g, authorizedOperations: authorizedOperations(ctx, ResourceType.GROUP, g.groupId) } : g));
  return [...refusedGroups, ...withOperations];
}

/**
 * A request refused as a whole, answered with its error response (the router logs it at INFO, without a stack:
 * Kafka's authorizer logs the denial, not a failure of the broker).
 */
export class AuthorizationFailure extends KafkaError {}

/** What a handler throws to refuse the whole request with `code` and Kafka's default message for it. */
export function refused(code: 'GROUP_AUTHORIZATION_FAILED' | 'TOPIC_AUTHORIZATION_FAILED' | 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED' | 'CLUSTER_AUTHORIZATION_FAILED'): AuthorizationFailure {
  return new AuthorizationFailure(code);
}

/** The error Kafka's authorizeClusterOperation throws (ClusterAuthorizationException), the request named as gregor knows it. */
export function clusterAuthorizationError(ctx: RequestContext, operation: number): KafkaError {
  const { connection } = ctx;
  return new AuthorizationFailure('CLUSTER_AUTHORIZATION_FAILED',
    `Request Request(connectionId=${connection.id}, client=${connection.remote}, listenerName=ListenerName(${connection.listenerName}), ` +
    `principal=${connection.principal}) needs ${operationName(operation)} permission.`);
}

/** The CLUSTER_OPERATIONS check the router makes: the error to answer with, or null when the request may go on. */
export function clusterOperationRefusal(ctx: RequestContext): KafkaError | null {
  const operations = CLUSTER_OPERATIONS.get(ctx.header.apiKey);
  if (operations === undefined || ctx.broker.authorizer === null || operations.some((op) => authorizeCluster(ctx, op))) return null;
  if (REFUSED_WITH_DEFAULT_MESSAGE.has(ctx.header.apiKey)) return refused('CLUSTER_AUTHORIZATION_FAILED');
  return clusterAuthorizationError(ctx, operations[operations.length - 1]!);
}

const CONFIG_ON_CLUSTER: ReadonlySet<number> = new Set([ConfigResourceType.BROKER, ConfigResourceType.BROKER_LOGGER, ConfigResourceType.CLIENT_METRICS]);

/**
 * Whether a config resource's configs may be described (DESCRIBE_CONFIGS) or altered (ALTER_CONFIGS), as KafkaApis and
 * ControllerApis ask: brokers, loggers and client metrics on the cluster, topics and groups on themselves. The error
 * to answer that resource with, or null (also for a type Kafka refuses otherwise).
 */
export function configResourceRefusal(ctx: RequestContext, resourceType: number, name: string, operation: number):
  'CLUSTER_AUTHORIZATION_FAILED' | 'TOPIC_AUTHORIZATION_FAILED' | 'GROUP_AUTHORIZATION_FAILED' | null {
  if (CONFIG_ON_CLUSTER.has(resourceType)) return authorizeCluster(ctx, operation) ? null : 'CLUSTER_AUTHORIZATION_FAILED';
  if (resourceType === ConfigResourceType.TOPIC) return authorize(ctx, operation, ResourceType.TOPIC, name) ? null : 'TOPIC_AUTHORIZATION_FAILED';
  if (resourceType === ConfigResourceType.GROUP) return authorize(ctx, operation, ResourceType.GROUP, name) ? null : 'GROUP_AUTHORIZATION_FAILED';
  return null;
}
