/**
 * DescribeClientQuotas (key 48), v0–v1 (Kafka 4.3's range): the quotas of the entities a filter matches
 * (exact name, default, or any of a type; strict: no other entity types), as Kafka's broker answers from its
 * metadata image. A filter Kafka refuses is a top-level error with its message and null entries; a success
 * carries the empty error message, as Kafka's does. v1 is the flexible form. Logic: admin/client-quotas.ts.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  describeClientQuotasApi,
  type DescribeClientQuotasRequest,
  type DescribeClientQuotasResponse,
} from '../../protocol/generated/describe-client-quotas.js';
import { apiErrorOf, KafkaError } from '../../protocol/kafka-error.js';
import { clientQuotas } from '../admin/client-quotas.js';
import { defineHandler, type Handler } from '../handler.js';

export const describeClientQuotasHandler: Handler = defineHandler<DescribeClientQuotasRequest, DescribeClientQuotasResponse>({
  api: describeClientQuotasApi,
  minVersion: 0,
  maxVersion: 1,

  async handle(ctx, request) {
    try {
      const found = await clientQuotas(ctx.broker).describe(request.components, request.strict);
      return {
        throttleTimeMs: 0,
        errorCode: ErrorCode.NONE,
        errorMessage: '',
        entries: found.map(({ entity, values }) => ({
          entity: entity.map(([entityType, entityName]) => ({ entityType, entityName })),
          values: values.map(([key, value]) => ({ key, value })),
        })),
      };
    } catch (error) {
      if (!(error instanceof KafkaError)) throw error;
      const { code, message } = apiErrorOf(error);
      return { throttleTimeMs: 0, errorCode: code, errorMessage: message, entries: null };
    }
  },
});
