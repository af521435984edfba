/**
 * ListConfigResources (key 74), v0–v1 (Kafka 4.3.1's range). v0 is the former ListClientMetricsResources: the
 * client metrics subscriptions only. v1 names the resource types wanted (empty: all of them) and lists, in
 * Kafka's order: groups that hold configs (not every group), client metrics subscriptions, this broker as a
 * BROKER_LOGGER and as a BROKER, and every topic (internal ones too). A type the version does not list (v0:
 * anything but CLIENT_METRICS; v1: anything but those five) answers UNSUPPORTED_VERSION and nothing else.
 * Within a type names come in the order Kafka's maps hold them (coordinator/runtime/java-hash-map.ts).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  listConfigResourcesApi,
  type ConfigResource,
  type ListConfigResourcesRequest,
  type ListConfigResourcesResponse,
} from '../../protocol/generated/list-config-resources.js';
import { ResourceType } from '../admin/resource-types.js';
import { resourceConfigs } from '../admin/resource-configs.js';
import { concurrentHashMapOrder, hashTreeMapOrder } from '../../coordinator/runtime/java-hash-map.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';

/** What each version may list, in the order Kafka lists them. */
const V1_TYPES = [ResourceType.GROUP, ResourceType.CLIENT_METRICS, ResourceType.BROKER_LOGGER, ResourceType.BROKER, ResourceType.TOPIC];
const V0_TYPES = [ResourceType.CLIENT_METRICS];

export const listConfigResourcesHandler: Handler = defineHandler<ListConfigResourcesRequest, ListConfigResourcesResponse>({
  api: listConfigResourcesApi,
  minVersion: 0,
  maxVersion: 1,

  handle(ctx, request, version) {
    const supported: readonly number[] = version === 0 ? V0_TYPES : V1_TYPES;
    const wanted = request.resourceTypes.length === 0 ? supported : request.resourceTypes;
    if (wanted.some((type) => !supported.includes(type))) {
      return { throttleTimeMs: 0, errorCode: ErrorCode.UNSUPPORTED_VERSION, configResources: [] };
    }
    const configResources: ConfigResource[] = [];
    for (const type of supported) {
      if (!wanted.includes(type)) continue;
      for (const resourceName of namesOf(ctx, type)) configResources.push({ resourceName, resourceType: type });
    }
    return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, configResources };
  },
});

function namesOf(ctx: RequestContext, type: number): string[] {
  const { broker } = ctx;
  switch (type) {
    case ResourceType.GROUP: return concurrentHashMapOrder(resourceConfigs(broker).names('groups'));
    case ResourceType.CLIENT_METRICS: return concurrentHashMapOrder(resourceConfigs(broker).names('clientMetrics'));
    case ResourceType.BROKER_LOGGER:
    case ResourceType.BROKER: return [String(broker.nodeId)];
    default: return hashTreeMapOrder([...broker.topics.list()].map((topic) => topic.name));
  }
}
