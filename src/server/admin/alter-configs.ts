/**
 * AlterConfigs and IncrementalAlterConfigs, shared: Kafka's broker-side checks (each resource once,
 * no duplicate keys, no null values), then per resource type:
 * - TOPIC: the new override set (legacy: replaces every override; incremental: SET, DELETE, APPEND,
 *   SUBTRACT, lists starting from the default) is validated as a whole and applied at once through
 *   the store, so logs pick up e.g. retention.ms immediately.
 * - BROKER (this node's id, or '' for the cluster default): the layer is replaced (dynamic-configs.ts): the live
 *   config changes at once and the layers are stored; read-only keys, per-broker keys at the cluster level and
 *   thread counts Kafka would not resize to are refused as Kafka refuses them.
 * - BROKER_LOGGER (incremental only): logger levels; the root logger drives the broker's own log level.
 * - GROUP and CLIENT_METRICS: the resource's new set is checked and stored (alter-resource-configs.ts).
 */
import type { Level } from 'pino';
import { brokerConfigDefinition, ConfigError, topicConfigDefinition, type ConfigDefinition } from '../../config/index.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import type { RequestContext } from '../handler.js';
import { AclOperation, configResourceRefusal } from '../authorization.js';
import { defaultApiError } from '../../protocol/api-error.js';
import { ResourceType } from './resource-types.js';
import { configValueProblem, topicConfigsProblem } from './config-validation.js';
import { dynamicConfigs, reconfigurationProblem } from './dynamic-configs.js';
import { alterClientMetricsConfigs, alterGroupConfigs } from './alter-resource-configs.js';
import { resourceConfigs } from './resource-configs.js';
import type { ApiError } from '../../protocol/api-error.js';
import { ELIGIBLE_LEADER_REPLICAS_VERSION } from '../../broker/features.js';
import { apiErrorOf } from '../../protocol/kafka-error.js';
import { invalidTopicNameMessage, isInternalTopic } from '../../protocol/topic-names.js';

export const OpType = { SET: 0, DELETE: 1, APPEND: 2, SUBTRACT: 3 } as const;
const OP_NAMES = ['SET', 'DELETE', 'APPEND', 'SUBTRACT'] as const;

export interface ConfigChange {
  readonly name: string;
  /** OpType id; legacy AlterConfigs entries are SETs of the whole set. */
  readonly op: number;
  readonly value: string | null;
}

export interface ResourceChanges {
  readonly resourceType: number;
  readonly resourceName: string;
  readonly configs: readonly ConfigChange[];
}

const NONE: ApiError = { code: ErrorCode.NONE, message: null };

function invalidRequest(message: string): ApiError {
  return { code: ErrorCode.INVALID_REQUEST, message };
}

function invalidConfig(message: string): ApiError {
  return { code: ErrorCode.INVALID_CONFIG, message };
}

/** One resource's answer, the same in AlterConfigs and IncrementalAlterConfigs responses. */
export interface AlterConfigsResult {
  readonly errorCode: number;
  readonly errorMessage: string | null;
  readonly resourceType: number;
  readonly resourceName: string;
}

/** Applies (or with validateOnly, only checks) every resource's changes; one answer per resource, in order. */
const REFUSALS: ReadonlySet<number> = new Set([ErrorCode.CLUSTER_AUTHORIZATION_FAILED, ErrorCode.TOPIC_AUTHORIZATION_FAILED, ErrorCode.GROUP_AUTHORIZATION_FAILED]);

export async function alterConfigs(
  ctx: RequestContext,
  resources: readonly ResourceChanges[],
  validateOnly: boolean,
  legacy: boolean,
): Promise<AlterConfigsResult[]> {
  const errors = await alterResources(ctx, resources, validateOnly, legacy);
  const results = resources.map((r, i) => ({
    errorCode: errors[i]!.code, errorMessage: errors[i]!.message, resourceType: r.resourceType, resourceName: r.resourceName,
  }));
  // As ControllerApis answers, the resources refused by the authorizer come before those it let through.
  const refused = (r: AlterConfigsResult) => REFUSALS.has(r.errorCode);
  return [...results.filter(refused), ...results.filter((r) => !refused(r))];
}

async function alterResources(
  ctx: RequestContext,
  resources: readonly ResourceChanges[],
  validateOnly: boolean,
  legacy: boolean,
): Promise<ApiError[]> {
  const seen = new Map<string, number>();
  for (const r of resources) {
    const key = `${r.resourceType}:${r.resourceName}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return Promise.all(resources.map(async (resource) => {
    if (seen.get(`${resource.resourceType}:${resource.resourceName}`)! > 1) return invalidRequest('Each resource must appear at most once.');
    const refusal = configResourceRefusal(ctx, resource.resourceType, resource.resourceName, AclOperation.ALTER_CONFIGS);
    if (refusal !== null) return defaultApiError(ErrorCode[refusal]);
    const names = resource.configs.map((c) => c.name);
    if (new Set(names).size !== names.length) return invalidRequest('Error due to duplicate config keys');
    const nullUpdates = resource.configs.filter((c) => c.value === null && (legacy || c.op !== OpType.DELETE)).map((c) => c.name);
    if (nullUpdates.length > 0) return invalidRequest(`Null value not supported for : ${nullUpdates.join(', ')}`);
    const unknownOp = resource.configs.find((c) => OP_NAMES[c.op] === undefined);
    if (unknownOp !== undefined) return invalidRequest(`Unknown operations type ${unknownOp.op}`);
    try {
      switch (resource.resourceType) {
        case ResourceType.TOPIC: return await alterTopic(ctx, resource, validateOnly, legacy);
        case ResourceType.BROKER: return await alterBroker(ctx, resource, validateOnly, legacy);
        case ResourceType.BROKER_LOGGER:
          if (!legacy) return alterLoggers(ctx, resource, validateOnly);
          return invalidRequest(`Unknown resource type ${resource.resourceType}`);
        case ResourceType.GROUP:
        case ResourceType.CLIENT_METRICS: {
          const group = resource.resourceType === ResourceType.GROUP;
          const name = resource.resourceName;
          const current = Object.fromEntries(resourceConfigs(ctx.broker).get(group ? 'groups' : 'clientMetrics', name));
          // Kafka knows no LIST type here: APPEND and SUBTRACT are refused on every key, client metrics' lists too.
          const next = newConfigSet(current, resource.configs, legacy, () => undefined);
          if ('code' in next) return next as ApiError;
          return group ? await alterGroupConfigs(ctx, name, next, validateOnly) : await alterClientMetricsConfigs(ctx, name, next, validateOnly);
        }
        default: return invalidRequest(`Unknown resource type ${resource.resourceType}`);
      }
    } catch (error) {
      return apiErrorOf(error);
    }
  }));
}

/** The current value of a list config as its parts (Kafka's getParts: the default when unset). */
function listParts(current: string | undefined, def: ConfigDefinition | undefined): string[] {
  const value = current ?? (def !== undefined && Array.isArray(def.default) ? (def.default as string[]).join(',') : undefined);
  return value === undefined ? [] : value.split(',').filter((part) => part !== '');
}

/** A resource's new config set: the request's whole set (legacy AlterConfigs) or its operations applied to `current`. */
function newConfigSet(
  current: Readonly<Record<string, string>>,
  changes: readonly ConfigChange[],
  legacy: boolean,
  definition: (name: string) => ConfigDefinition | undefined,
): Record<string, string> | ApiError {
  if (!legacy) return applyOps(current, changes, definition);
  const next: Record<string, string> = {};
  for (const change of changes) next[change.name] = change.value!;
  return next;
}

/** Applies incremental operations to a string map; an error for APPEND/SUBTRACT on a non-list key. */
function applyOps(
  current: Readonly<Record<string, string>>,
  changes: readonly ConfigChange[],
  definition: (name: string) => ConfigDefinition | undefined,
): Record<string, string> | ApiError {
  const next: Record<string, string> = { ...current };
  for (const change of changes) {
    const def = definition(change.name);
    switch (change.op) {
      case OpType.SET: next[change.name] = change.value!; break;
      case OpType.DELETE: delete next[change.name]; break;
      default: {
        if (def?.type !== 'LIST') {
          return invalidConfig(`Can't ${OP_NAMES[change.op]} to key ${change.name} because its type is not LIST.`);
        }
        const parts = listParts(next[change.name], def);
        for (const value of change.value!.split(',')) {
          if (change.op === OpType.APPEND) {
            if (!parts.includes(value)) parts.push(value);
          } else {
            const at = parts.indexOf(value);
            if (at !== -1) parts.splice(at, 1);
          }
        }
        next[change.name] = parts.join(',');
      }
    }
  }
  return next;
}

async function alterTopic(ctx: RequestContext, resource: ResourceChanges, validateOnly: boolean, legacy: boolean): Promise<ApiError> {
  const name = resource.resourceName;
  if (name === '') return invalidRequest('Default topic resources are not allowed.');
  const nameProblem = invalidTopicNameMessage(name);
  if (nameProblem !== null) return { code: ErrorCode.INVALID_TOPIC_EXCEPTION, message: nameProblem };
  const { store, config } = ctx.broker;
  const current = store.topic(name)?.configs ?? {};
  const next = newConfigSet(current, resource.configs, legacy, topicConfigDefinition);
  if ('code' in next) return next as ApiError;
  const problem = topicConfigsProblem(next, config);
  if (problem !== null) return invalidConfig(problem);
  if (store.topic(name) === undefined) return { code: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, message: `The topic '${name}' does not exist.` };
  if (validateOnly) return NONE;
  // In cluster mode a topic's configs are in etcd (every broker's local topic follows them); internal topics stay local.
  const { cluster } = ctx.broker;
  if (cluster !== undefined && !isInternalTopic(name)) await cluster.setTopicConfigs(name, next);
  else await store.setTopicConfigs(name, next);
  return NONE;
}

/** Key and trust stores Kafka reloads at run time only for one listener (listener.name.<l>.<key>), never bare. */
const LISTENER_ONLY_SECURITY_CONFIGS: ReadonlySet<string> = new Set([
  'ssl.keystore.type', 'ssl.keystore.location', 'ssl.keystore.password', 'ssl.key.password', 'ssl.truststore.type',
  'ssl.truststore.location', 'ssl.truststore.password', 'ssl.keystore.certificate.chain', 'ssl.keystore.key',
  'ssl.truststore.certificates',
]);

function brokerDefinition(name: string): ConfigDefinition | undefined {
  return brokerConfigDefinition(name) as ConfigDefinition | undefined;
}

async function alterBroker(ctx: RequestContext, resource: ResourceChanges, validateOnly: boolean, legacy: boolean): Promise<ApiError> {
  const name = resource.resourceName;
  const nodeId = ctx.broker.nodeId;
  if (name !== '') {
    if (!/^[+-]?\d+$/.test(name)) return invalidRequest(`Node id must be an integer, but it is: ${name}`);
    if (Number(name) !== nodeId) return invalidRequest(`Unexpected broker id, expected ${nodeId}, but received ${name}`);
  }
  const dynamic = dynamicConfigs(ctx.broker);
  const level = name === '' ? 'clusterDefault' : 'perBroker';
  const next = newConfigSet(Object.fromEntries(dynamic[level]), resource.configs, legacy, brokerDefinition);
  if ('code' in next) return invalidRequest((next as ApiError).message ?? '');
  const readOnly = Object.keys(next).filter((key) => brokerDefinition(key)?.updateMode === 'read-only');
  if (readOnly.length > 0) return invalidRequest(`Cannot update these configs dynamically: [${readOnly.join(', ')}]`);
  const unprefixed = Object.keys(next).filter((key) => LISTENER_ONLY_SECURITY_CONFIGS.has(key));
  if (unprefixed.length > 0) {
    return invalidRequest(`These security configs can be dynamically updated only per-listener using the listener prefix: [${unprefixed.join(', ')}]`);
  }
  for (const [key, value] of Object.entries(next)) {
    const def = brokerDefinition(key);
    const problem = def === undefined ? null : configValueProblem(def, value);
    if (problem !== null) return invalidRequest(problem);
  }
  if (level === 'clusterDefault') {
    const perBrokerOnly = Object.keys(next).filter((key) => brokerDefinition(key)?.updateMode === 'per-broker');
    if (perBrokerOnly.length > 0) {
      return invalidRequest(`Cannot update these configs at default cluster level, broker id must be specified: [${perBrokerOnly.join(', ')}]`);
    }
  }
  const elrProblem = elrMinIsrProblem(ctx, resource, level, next, legacy);
  if (elrProblem !== null) return invalidConfig(elrProblem);
  // The new live config must resolve as a whole, and changes Kafka's reconfigurables refuse are refused.
  let preview;
  try {
    preview = dynamic.preview(level, next);
  } catch (error) {
    if (error instanceof ConfigError) return invalidRequest(error.message);
    throw error;
  }
  const refused = reconfigurationProblem(ctx.broker.config, preview);
  if (refused !== null) return invalidRequest(refused);
  if (!validateOnly) await dynamic.replace(level, next);
  return NONE;
}

/**
 * With eligible.leader.replicas.version 1, min.insync.replicas is the cluster's alone (Kafka's
 * ConfigurationControlManager): a broker-level one cannot be set, changed or removed, the cluster-level one cannot
 * be removed. Kafka's controller writes a record for every key a BROKER request names, and legacy AlterConfigs
 * also removes the keys it leaves out.
 */
function elrMinIsrProblem(
  ctx: RequestContext,
  resource: ResourceChanges,
  level: 'perBroker' | 'clusterDefault',
  next: Readonly<Record<string, string>>,
  legacy: boolean,
): string | null {
  if (ctx.broker.features.level(ELIGIBLE_LEADER_REPLICAS_VERSION) < 1) return null;
  const key = 'min.insync.replicas';
  if (level === 'perBroker') {
    const touched = resource.configs.some((c) => c.name === key) || (legacy && dynamicConfigs(ctx.broker).perBroker.has(key));
    return touched ? 'Broker-level min.insync.replicas cannot be altered while ELR is enabled.' : null;
  }
  return Object.hasOwn(next, key) ? null : 'Cluster-level min.insync.replicas cannot be removed while ELR is enabled.';
}

const LOG_LEVELS = ['DEBUG', 'ERROR', 'FATAL', 'INFO', 'TRACE', 'WARN'];
const PINO_LEVELS: Readonly<Record<string, Level>> = {
  TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error', FATAL: 'fatal',
};
export const ROOT_LOGGER = 'root';

function alterLoggers(ctx: RequestContext, resource: ResourceChanges, validateOnly: boolean): ApiError {
  const name = resource.resourceName;
  const nodeId = ctx.broker.nodeId;
  if (!/^[+-]?\d+$/.test(name)) return invalidRequest(`Node id must be an integer, but it is: ${name}`);
  if (Number(name) !== nodeId) return invalidRequest(`Unexpected node id. Expected ${nodeId}, but received ${name}`);
  const loggers = dynamicConfigs(ctx.broker).loggers;
  const exists = (logger: string): boolean => logger === ROOT_LOGGER || loggers.has(logger);
  for (const change of resource.configs) {
    switch (change.op) {
      case OpType.SET:
        if (!LOG_LEVELS.includes(change.value!)) {
          return invalidConfig(`Cannot set the log level of ${change.name} to ${change.value} as it is not a supported log level. ` +
            `Valid log levels are ${LOG_LEVELS.join(', ')}`);
        }
        break;
      case OpType.DELETE:
        if (!exists(change.name)) return invalidConfig(`Logger ${change.name} does not exist!`);
        if (change.name === ROOT_LOGGER) return invalidRequest(`Removing the log level of the ${ROOT_LOGGER} logger is not allowed`);
        break;
      default:
        return invalidRequest(`${OP_NAMES[change.op]} operation is not allowed for the BROKER_LOGGER resource`);
    }
  }
  if (validateOnly) return NONE;
  for (const change of resource.configs) {
    if (change.op === OpType.SET) {
      loggers.set(change.name, change.value!);
      if (change.name === ROOT_LOGGER) ctx.broker.log.level = PINO_LEVELS[change.value!]!;
    } else {
      loggers.delete(change.name);
    }
  }
  return NONE;
}
