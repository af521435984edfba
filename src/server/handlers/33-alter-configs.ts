/**
 * AlterConfigs (key 33), v0–v2 (Kafka 4.3's range): the legacy form, each resource's configs replace
 * its whole dynamic set (omitted keys are removed). TOPIC, BROKER, GROUP and CLIENT_METRICS resources;
 * BROKER_LOGGER and others are INVALID_REQUEST as in Kafka. Checks and effects: see admin/alter-configs.ts.
 */
import {
  alterConfigsApi,
  type AlterConfigsRequest,
  type AlterConfigsResponse,
} from '../../protocol/generated/alter-configs.js';
import { alterConfigs, OpType } from '../admin/alter-configs.js';
import { defineHandler, type Handler } from '../handler.js';

export const alterConfigsHandler: Handler = defineHandler<AlterConfigsRequest, AlterConfigsResponse>({
  api: alterConfigsApi,
  minVersion: 0,
  maxVersion: 2,

  async handle(ctx, request) {
    const changes = request.resources.map((r) => ({
      resourceType: r.resourceType,
      resourceName: r.resourceName,
      configs: r.configs.map((c) => ({ name: c.name, op: OpType.SET, value: c.value })),
    }));
    return { throttleTimeMs: 0, responses: await alterConfigs(ctx, changes, request.validateOnly, true) };
  },
});
