/**
 * IncrementalAlterConfigs (key 44), v0–v1 (Kafka 4.3's range): SET, DELETE, APPEND and SUBTRACT per
 * key on TOPIC, BROKER, BROKER_LOGGER, GROUP and CLIENT_METRICS resources (the last two refuse APPEND and
 * SUBTRACT), validated as a whole and applied at once (a topic's logs see the new retention immediately). Checks and effects: see admin/alter-configs.ts.
 */
import {
  incrementalAlterConfigsApi,
  type IncrementalAlterConfigsRequest,
  type IncrementalAlterConfigsResponse,
} from '../../protocol/generated/incremental-alter-configs.js';
import { alterConfigs } from '../admin/alter-configs.js';
import { defineHandler, type Handler } from '../handler.js';

export const incrementalAlterConfigsHandler: Handler = defineHandler<IncrementalAlterConfigsRequest, IncrementalAlterConfigsResponse>({
  api: incrementalAlterConfigsApi,
  minVersion: 0,
  maxVersion: 1,

  async handle(ctx, request) {
    const changes = request.resources.map((r) => ({
      resourceType: r.resourceType,
      resourceName: r.resourceName,
      configs: r.configs.map((c) => ({ name: c.name, op: c.configOperation, value: c.value })),
    }));
    return { throttleTimeMs: 0, responses: await alterConfigs(ctx, changes, request.validateOnly, false) };
  },
});
