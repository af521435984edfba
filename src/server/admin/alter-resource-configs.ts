/**
 * AlterConfigs and IncrementalAlterConfigs on GROUP and CLIENT_METRICS resources: the resource's new config set
 * (already computed from the request) is checked as Kafka's controller checks it, then stored
 * (resource-configs.ts). The checks and their messages and codes are Kafka 4.3.1's:
 * - GROUP (GroupConfig.validate): unknown names and values that do not parse are INVALID_CONFIG; so are values
 *   outside the broker's bounds (group.consumer.min.session.timeout.ms...) and a session timeout not above
 *   its heartbeat interval, over the broker's values overlaid with the group's.
 * - CLIENT_METRICS (ClientMetricsConfigs.validate): unknown names and an interval.ms outside [100, 3600000] are
 *   INVALID_REQUEST; values that do not parse, empty list items and bad match patterns are INVALID_CONFIG.
 */
import {
  clientMetricsConfigDefinition, clientMetricsConfigDefinitions, clientMetricsIntervalProblem, clientMetricsMatchProblem,
  groupConfigBoundsProblem, groupConfigDefaults, groupConfigDefinition, groupConfigDefinitions,
  type ConfigDefinition,
} from '../../config/index.js';
import { parseTyped } from '../../config/config-types.js';
import type { ApiError } from '../../protocol/api-error.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import type { RequestContext } from '../handler.js';
import { configValueProblem } from './config-validation.js';
import { resourceConfigs } from './resource-configs.js';

const NONE: ApiError = { code: ErrorCode.NONE, message: null };
const invalidConfig = (message: string): ApiError => ({ code: ErrorCode.INVALID_CONFIG, message });
const invalidRequest = (message: string): ApiError => ({ code: ErrorCode.INVALID_REQUEST, message });

/** One value against its definition: parsed, or Kafka's message (a custom validator's, validValues '', is whole). */
function parsedOrProblem(def: ConfigDefinition, raw: string): { value: unknown } | { problem: string } {
  const value = parseTyped(def.type, raw);
  const problem = value === undefined ? null : def.check(value);
  if (value !== undefined && problem === null) return { value };
  return { problem: problem !== null && def.validValues === '' ? problem : configValueProblem(def, raw)! };
}

export async function alterGroupConfigs(
  ctx: RequestContext, groupId: string, next: Readonly<Record<string, string>>, validateOnly: boolean,
): Promise<ApiError> {
  if (groupId === '') return invalidRequest('Default group resources are not allowed.');
  const unknown = Object.keys(next).find((name) => groupConfigDefinition(name) === undefined);
  if (unknown !== undefined) return invalidConfig(`Unknown group config name: ${unknown}`);
  const values: Record<string, unknown> = groupConfigDefaults(ctx.broker.config);
  for (const name of Object.keys(groupConfigDefinitions)) {
    if (!Object.hasOwn(next, name)) continue;
    const def = groupConfigDefinition(name)!;
    const parsed = parsedOrProblem(def, next[name]!);
    if ('problem' in parsed) return invalidConfig(parsed.problem);
    values[name] = parsed.value;
  }
  const bounds = groupConfigBoundsProblem(values as Parameters<typeof groupConfigBoundsProblem>[0], ctx.broker.config);
  if (bounds !== null) return invalidConfig(bounds);
  if (!validateOnly) await resourceConfigs(ctx.broker).replace('groups', groupId, next);
  return NONE;
}

export async function alterClientMetricsConfigs(
  ctx: RequestContext, name: string, next: Readonly<Record<string, string>>, validateOnly: boolean,
): Promise<ApiError> {
  if (name === '') return invalidRequest("Subscription name can't be empty");
  const unknown = Object.keys(next).find((key) => clientMetricsConfigDefinition(key) === undefined);
  if (unknown !== undefined) return invalidRequest(`Unknown client metrics configuration: ${unknown}`);
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(clientMetricsConfigDefinitions)) {
    if (!Object.hasOwn(next, key)) continue;
    const parsed = parsedOrProblem(clientMetricsConfigDefinition(key)!, next[key]!);
    if ('problem' in parsed) return invalidConfig(parsed.problem);
    values[key] = parsed.value;
  }
  if (values['interval.ms'] !== undefined) {
    const problem = clientMetricsIntervalProblem(values['interval.ms'] as number);
    if (problem !== null) return invalidRequest(problem);
  }
  if (values['match'] !== undefined) {
    const problem = clientMetricsMatchProblem(values['match'] as string[]);
    if (problem !== null) return invalidConfig(problem);
  }
  if (!validateOnly) await resourceConfigs(ctx.broker).replace('clientMetrics', name, next);
  return NONE;
}
