/**
 * Client quotas applied to one request, as Kafka 4.3.1's KafkaApis and RequestHandlerHelper apply them: the time
 * spent handling it is recorded against request_percentage, a byte rate or controller mutation quota may be over
 * too, the larger throttle time goes into the response's throttle_time_ms, and the connection is muted for it
 * (KIP-219: the response leaves at once, the client's next request waits). The router does this for every API;
 * Produce, Fetch and the topic mutations combine it with their own quota (requestThrottleMs, then throttle).
 */
import { nanosToPercentage } from '../broker/quota/quota-managers.js';
import type { ControllerMutationQuota } from '../broker/quota/controller-mutation-quota.js';
import type { RequestContext } from './handler.js';

/** What one request has cost so far, and whether the request quota has seen it. */
export interface RequestQuotaState {
  /** Time the event loop spent on it (decode, the handler's synchronous part, encode), in nanoseconds. */
  handledNs: number;
  /** The request quota's throttle time once recorded (each request is recorded once). */
  throttleMs: number | null;
}

export const newRequestQuotaState = (): RequestQuotaState => ({ handledNs: 0, throttleMs: null });

/** The quota user: the principal's name (User:alice → alice; ANONYMOUS on PLAINTEXT), as KafkaPrincipal.getName. */
export function quotaUser(ctx: RequestContext): string {
  const principal = ctx.connection.principal;
  return principal.slice(principal.indexOf(':') + 1);
}

/** The quota client id: a request without one is measured as the empty client id, as in Kafka. */
export function quotaClientId(ctx: RequestContext): string {
  return ctx.header.clientId ?? '';
}

/** ClientRequestQuotaManager.maybeRecordAndGetThrottleTimeMs: records the request's time once; its throttle time. */
export function requestThrottleMs(ctx: RequestContext): number {
  const state = ctx.quota;
  if (state.throttleMs === null) {
    const manager = ctx.broker.quotas.request;
    state.throttleMs = manager.enabled ? manager.recordAndGetThrottleTimeMs(quotaUser(ctx), quotaClientId(ctx), nanosToPercentage(state.handledNs), ctx.broker.clock.now()) : 0;
  }
  return state.throttleMs;
}

/** Mutes the client's connection for `ms` (nothing when 0). */
export function throttle(ctx: RequestContext, ms: number): void {
  if (ms > 0) ctx.connection.throttle(ms);
}

/**
 * sendResponseMaybeThrottle: unless the handler already applied its quotas, the request quota's throttle time goes
 * into the response (when its version has the field) and mutes the connection.
 */
export function applyRequestQuota(ctx: RequestContext, response: unknown): void {
  if (ctx.quota.throttleMs !== null) return;
  const ms = requestThrottleMs(ctx);
  if (ms <= 0) return;
  if (typeof response === 'object' && response !== null && 'throttleTimeMs' in response) {
    (response as { throttleTimeMs: number }).throttleTimeMs = ms;
  }
  throttle(ctx, ms);
}

/** recordNoThrottle: time spent after the response was decided (encoding it), as Kafka's network thread time. */
export function recordAfterResponse(ctx: RequestContext, nanos: number): void {
  const manager = ctx.broker.quotas.request;
  if (manager.enabled) manager.recordNoThrottle(quotaUser(ctx), quotaClientId(ctx), nanosToPercentage(nanos), ctx.broker.clock.now());
}

/** ControllerMutationQuotaManager.newQuotaFor: this request's controller_mutation_rate, strict from the version given. */
export function controllerMutationQuota(ctx: RequestContext, strictSinceVersion: number): ControllerMutationQuota {
  return ctx.broker.quotas.controllerMutation.newQuotaFor(quotaUser(ctx), quotaClientId(ctx), ctx.header.apiVersion, strictSinceVersion);
}

/** sendResponseMaybeThrottleWithControllerQuota: the larger of the mutation and request throttle times, muted for. */
export function applyMutationQuota(ctx: RequestContext, quota: ControllerMutationQuota, response: { throttleTimeMs: number }): void {
  response.throttleTimeMs = Math.max(quota.throttleTimeMs(), requestThrottleMs(ctx));
  throttle(ctx, response.throttleTimeMs);
}
