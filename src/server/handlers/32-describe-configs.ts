/**
 * DescribeConfigs (key 32), v1–v4 (Kafka 4.3's range).
 *
 * TOPIC: every topic config (sorted by name) with value, source, synonyms, read-only, sensitive, type
 * and documentation as Kafka's ConfigHelper computes them; an illegal name is INVALID_TOPIC_EXCEPTION,
 * an unknown topic UNKNOWN_TOPIC_OR_PARTITION. BROKER: this node's id gives every broker config, the
 * empty name the cluster-wide dynamic defaults; another id or a non-number is INVALID_REQUEST.
 * BROKER_LOGGER: this node's loggers (root at the broker's log level, plus levels set at run time).
 * GROUP: the 17 group configs of any group, existing or not (Kafka answers for a group it does not know),
 * in Kafka's order; CLIENT_METRICS: a subscription's metrics, interval.ms and match. An empty name is
 * INVALID_REQUEST for both.
 * configuration_keys narrows the answer. Versions: v1+ synonyms when asked; v3+ type and documentation
 * (when asked).
 */
import { ErrorCode, errorInfo } from '../../protocol/error-codes.js';
import {
  describeConfigsApi,
  type DescribeConfigsRequest,
  type DescribeConfigsResource,
  type DescribeConfigsResourceResult,
  type DescribeConfigsResponse,
  type DescribeConfigsResult,
} from '../../protocol/generated/describe-configs.js';
import { ConfigDescriber, ConfigSourceId, type ConfigEntry } from '../../config/index.js';
import { ResourceType } from '../admin/resource-types.js';
import { dynamicConfigs } from '../admin/dynamic-configs.js';
import { resourceConfigs } from '../admin/resource-configs.js';
import { invalidTopicNameMessage } from '../../protocol/topic-names.js';
import { ROOT_LOGGER } from '../admin/alter-configs.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';
import { AclOperation, configResourceRefusal } from '../authorization.js';

/** Kafka's "unknown" ConfigType id. */
const UNKNOWN_TYPE = 0;

export const describeConfigsHandler: Handler = defineHandler<DescribeConfigsRequest, DescribeConfigsResponse>({
  api: describeConfigsApi,
  minVersion: 1,
  maxVersion: 4,

  handle(ctx, request) {
    // Resources the client may not DESCRIBE_CONFIGS are answered after the others, with the error's own message.
    const refusals = request.resources.map((r) => configResourceRefusal(ctx, r.resourceType, r.resourceName, AclOperation.DESCRIBE_CONFIGS));
    const refused = request.resources.flatMap((resource, i) => {
      const refusal = refusals[i];
      if (refusal === null || refusal === undefined) return [];
      const code = ErrorCode[refusal];
      return [{ resourceType: resource.resourceType, resourceName: resource.resourceName, errorCode: code, errorMessage: errorInfo(code).message, configs: [] }];
    });
    const results = request.resources.filter((_, i) => refusals[i] === null).map((resource): DescribeConfigsResult => {
      const answer = describe(ctx, resource);
      const base = { resourceType: resource.resourceType, resourceName: resource.resourceName };
      // Kafka leaves the message at the schema's default, "", when it sets none.
      if ('message' in answer) return { ...base, errorCode: answer.code, errorMessage: answer.message ?? '', configs: [] };
      const wanted = resource.configurationKeys;
      const entries = wanted === null || wanted.length === 0 ? answer : answer.filter((e) => wanted.includes(e.name));
      return {
        ...base,
        errorCode: ErrorCode.NONE,
        errorMessage: '',
        configs: entries.map((entry) => toWire(entry, request.includeSynonyms, request.includeDocumentation)),
      };
    });
    return { throttleTimeMs: 0, results: [...results, ...refused] };
  },
});

function describe(ctx: RequestContext, resource: DescribeConfigsResource): ConfigEntry[] | { code: number; message: string | null } {
  const { broker } = ctx;
  const name = resource.resourceName;
  const describer = new ConfigDescriber(broker.config, dynamicConfigs(broker));
  switch (resource.resourceType) {
    case ResourceType.TOPIC: {
      const problem = invalidTopicNameMessage(name);
      if (problem !== null) return { code: ErrorCode.INVALID_TOPIC_EXCEPTION, message: problem };
      const topic = broker.store.topic(name);
      if (topic === undefined) return { code: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, message: null };
      return describer.topicEntries(topic.configs);
    }
    case ResourceType.BROKER: {
      if (name === '') return describer.brokerEntries(false);
      const id = brokerId(name);
      if (typeof id === 'string') return { code: ErrorCode.INVALID_REQUEST, message: id };
      if (id !== broker.nodeId) {
        return { code: ErrorCode.INVALID_REQUEST, message: `Unexpected broker id, expected ${broker.nodeId} or empty string, but received ${name}` };
      }
      return describer.brokerEntries(true);
    }
    case ResourceType.BROKER_LOGGER: {
      if (name === '') return { code: ErrorCode.INVALID_REQUEST, message: 'Broker id must not be empty' };
      const id = brokerId(name);
      if (typeof id === 'string') return { code: ErrorCode.INVALID_REQUEST, message: id };
      if (id !== broker.nodeId) {
        return { code: ErrorCode.INVALID_REQUEST, message: `Unexpected broker id, expected ${broker.nodeId} but received ${name}` };
      }
      return loggerEntries(ctx);
    }
    case ResourceType.GROUP:
      if (name === '') return { code: ErrorCode.INVALID_REQUEST, message: 'Group name must not be empty' };
      return describer.groupEntries(name, resourceConfigs(broker).get('groups', name));
    case ResourceType.CLIENT_METRICS:
      if (name === '') return { code: ErrorCode.INVALID_REQUEST, message: 'Client metrics subscription name must not be empty' };
      return describer.clientMetricsEntries(resourceConfigs(broker).get('clientMetrics', name));
    default:
      return { code: ErrorCode.INVALID_REQUEST, message: `Unsupported resource type: ${resource.resourceType}` };
  }
}

/** The node id a resource name holds, or Kafka's message when it is not a number. */
function brokerId(name: string): number | string {
  return /^[+-]?\d+$/.test(name) ? Number(name) : `Broker id must be an integer, but it is: ${name}`;
}

/** Log4j level names for pino's levels. */
const LOG4J_LEVELS: Readonly<Record<string, string>> = {
  trace: 'TRACE', debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', fatal: 'FATAL', silent: 'OFF',
};

function loggerEntries(ctx: RequestContext): ConfigEntry[] {
  const levels = new Map(dynamicConfigs(ctx.broker).loggers);
  if (!levels.has(ROOT_LOGGER)) levels.set(ROOT_LOGGER, LOG4J_LEVELS[ctx.broker.log.level] ?? 'INFO');
  return [...levels].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, level]) => ({
    name, value: level, source: ConfigSourceId.DYNAMIC_BROKER_LOGGER_CONFIG, readOnly: false, sensitive: false,
    type: UNKNOWN_TYPE, documentation: '', synonyms: [],
  }));
}

function toWire(entry: ConfigEntry, includeSynonyms: boolean, includeDocumentation: boolean): DescribeConfigsResourceResult {
  return {
    name: entry.name,
    value: entry.value,
    readOnly: entry.readOnly,
    configSource: entry.source,
    isSensitive: entry.sensitive,
    synonyms: includeSynonyms ? entry.synonyms.map((s) => ({ name: s.name, value: s.value, source: s.source })) : [],
    configType: entry.type,
    documentation: includeDocumentation && entry.documentation !== '' ? entry.documentation : null,
  };
}
