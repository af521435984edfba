/**
 * UpdateFeatures (key 57), v0–v2 (Kafka 4.3.1: 0–2).
 *
 * Upgrades, safe and unsafe downgrades and disabling (downgrade to 0) of the finalized feature levels, checked as
 * Kafka's controller checks them (broker/features.ts: unknown feature, level out of range, a downgrade without a
 * downgrade type, dependencies between features, metadata.version's downgrade rules). The first refused update
 * refuses the whole request: INVALID_UPDATE_VERSION with Kafka's top-level message. validateOnly (v1+) checks only.
 * Turning eligible.leader.replicas.version on writes what Kafka's controller writes with it: the cluster-level
 * min.insync.replicas (the static value) when none is set, and no broker-level one.
 * - v0: allowDowngrade is not read (Kafka's controller reads only upgradeType, which v0 leaves at UPGRADE).
 * - v0–v1: on success, one result per update (error NONE, message "NONE"); v2 has no results.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  updateFeaturesApi,
  type UpdateFeaturesRequest,
  type UpdateFeaturesResponse,
} from '../../protocol/generated/update-features.js';
import { ELIGIBLE_LEADER_REPLICAS_VERSION, FeatureUpdateError, type FinalizedFeature } from '../../broker/features.js';
import { dynamicConfigs } from '../admin/dynamic-configs.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';

export const updateFeaturesHandler: Handler = defineHandler<UpdateFeaturesRequest, UpdateFeaturesResponse>({
  api: updateFeaturesApi,
  minVersion: 0,
  maxVersion: 2,

  async handle(ctx, request, version) {
    const response: UpdateFeaturesResponse = { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null, results: [] };
    const { features, nodeId } = ctx.broker;
    let changes: FinalizedFeature[];
    try {
      changes = features.check(request.featureUpdates.map((u) => ({ name: u.feature, level: u.maxVersionLevel, upgradeType: u.upgradeType })), nodeId);
    } catch (error) {
      if (!(error instanceof FeatureUpdateError)) throw error;
      response.errorCode = error.errorCode;
      response.errorMessage = `The update failed for all features since the following feature had an error: ${error.message}`;
      return response;
    }
    if (!request.validateOnly) {
      if (changes.some((c) => c.name === ELIGIBLE_LEADER_REPLICAS_VERSION && c.level > 0)) await writeElrSafetyConfigs(ctx);
      await features.apply(changes);
    }
    if (version <= 1) response.results = request.featureUpdates.map((u) => ({ feature: u.feature, errorCode: ErrorCode.NONE, errorMessage: 'NONE' }));
    return response;
  },
});

/** Kafka's ConfigurationControlManager.maybeGenerateElrSafetyRecords. */
async function writeElrSafetyConfigs(ctx: RequestContext): Promise<void> {
  const dynamic = dynamicConfigs(ctx.broker);
  if (!dynamic.clusterDefault.has('min.insync.replicas')) {
    const next = { ...Object.fromEntries(dynamic.clusterDefault), 'min.insync.replicas': String(dynamic.staticConfig['min.insync.replicas']) };
    await dynamic.replace('clusterDefault', next);
  }
  if (dynamic.perBroker.has('min.insync.replicas')) {
    const next = Object.fromEntries(dynamic.perBroker);
    delete next['min.insync.replicas'];
    await dynamic.replace('perBroker', next);
  }
}
