/**
 * AlterClientQuotas (key 49), v0–v1 (Kafka 4.3's range): sets and removes quotas of user, client-id and ip
 * entities (named or default), validated as Kafka's controller does, one result per distinct entity;
 * validateOnly checks without changing anything. Stored (file engine: <log.dir>/gregor-client-quotas.json)
 * and described, not enforced yet (issue #17). v1 is the flexible form. Logic: admin/client-quotas.ts.
 */
import {
  alterClientQuotasApi,
  type AlterClientQuotasRequest,
  type AlterClientQuotasResponse,
} from '../../protocol/generated/alter-client-quotas.js';
import { clientQuotas } from '../admin/client-quotas.js';
import { defineHandler, type Handler } from '../handler.js';

export const alterClientQuotasHandler: Handler = defineHandler<AlterClientQuotasRequest, AlterClientQuotasResponse>({
  api: alterClientQuotasApi,
  minVersion: 0,
  maxVersion: 1,

  async handle(ctx, request) {
    const alterations = request.entries.map((entry) => ({
      entity: entry.entity,
      ops: entry.ops.map((op) => ({ key: op.key, value: op.remove ? null : op.value })),
    }));
    const results = await clientQuotas(ctx.broker).alter(alterations, request.validateOnly);
    return {
      throttleTimeMs: 0,
      entries: results.map(([entity, error]) => ({
        errorCode: error.code,
        errorMessage: error.message,
        entity: entity.map(([entityType, entityName]) => ({ entityType, entityName })),
      })),
    };
  },
});
