/**
 * ApiVersions (key 18), v0–v4 (Kafka 4.x: 0–4).
 *
 * Lists every API in the registry with the version range its handler serves, so the broker
 * advertises exactly what it implements. Versions:
 * - v0: error code and api keys only. A request of a version above 4 is answered in v0 with
 *   UNSUPPORTED_VERSION and only ApiVersions' own range (Kafka's KIP-511 fallback; the body is not parsed).
 * - v1+: throttle time.
 * - v3+: the request names the client software; its name and version are recorded on the connection
 *   for log lines, and names that break Kafka's pattern get INVALID_REQUEST. The response carries the
 *   feature tagged fields a KRaft broker sends (supported features, finalized features and epoch).
 * - v0–v3 omit supported features whose minimum is 0 (older clients choke on them, KAFKA-17492); v4 lists them.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { apiVersionsApi, type ApiVersionsRequest, type ApiVersionsResponse } from '../../protocol/generated/api-versions.js';
import { defineHandler, type Handler } from '../handler.js';

const MIN_VERSION = 0;
const MAX_VERSION = 4;

/** Kafka's pattern for client software names and versions (ApiVersionsRequest.isValid). */
const SOFTWARE_NAME_VERSION = /^[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?$/;

interface Feature {
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
  /** Finalized level; 0 means "not enabled" and is left out of the finalized list, as Kafka does. */
  readonly finalizedLevel: number;
}

/**
 * The features this broker supports and has finalized. Only those whose behaviour gregor has:
 * metadata.version from 3.3-IV3 (level 7, Kafka 4.x's floor) to 4.0-IV3 (level 25, the protocol
 * snapshot gregor's codec is generated from), finalized at the top; kraft.version 0–1 at 0. Features
 * such as transaction.version and group.version change client behaviour (KIP-890, KIP-848) and are
 * to be added with the handlers that implement them. transaction.version is deliberately absent (level
 * 0): gregor's coordinator implements transactions as Kafka does at level 0/1 (epoch bumped by
 * InitProducerId, partitions added by AddPartitionsToTxn v0–v3), which Kafka 4.x clients fall back to
 * when the broker finalizes no level 2 (the Java TransactionManager then sends EndTxn ≤ v4).
 */
const FEATURES: readonly Feature[] = [
  { name: 'kraft.version', minVersion: 0, maxVersion: 1, finalizedLevel: 0 },
  { name: 'metadata.version', minVersion: 7, maxVersion: 25, finalizedLevel: 25 },
];

/** Epoch of the finalized features: on a KRaft broker, the metadata log offset they were read at. */
const FINALIZED_FEATURES_EPOCH = 1n;

export const apiVersionsHandler: Handler = defineHandler<ApiVersionsRequest, ApiVersionsResponse>({
  api: apiVersionsApi,
  minVersion: MIN_VERSION,
  maxVersion: MAX_VERSION,

  handle(ctx, request, version) {
    const response = emptyResponse();
    if (version >= 3) {
      if (!SOFTWARE_NAME_VERSION.test(request.clientSoftwareName) || !SOFTWARE_NAME_VERSION.test(request.clientSoftwareVersion)) {
        response.errorCode = ErrorCode.INVALID_REQUEST;
        return response;
      }
      ctx.connection.clientSoftwareName = request.clientSoftwareName;
      ctx.connection.clientSoftwareVersion = request.clientSoftwareVersion;
    }
    response.apiKeys = ctx.broker.handlers
      .map((h) => ({ apiKey: h.api.apiKey, minVersion: h.minVersion, maxVersion: h.maxVersion }))
      .sort((a, b) => a.apiKey - b.apiKey);
    response.supportedFeatures = FEATURES.filter((f) => version >= 4 || f.minVersion > 0).map((f) => ({
      name: f.name,
      minVersion: f.minVersion,
      maxVersion: f.maxVersion,
    }));
    response.finalizedFeaturesEpoch = FINALIZED_FEATURES_EPOCH;
    response.finalizedFeatures = FEATURES.filter((f) => f.finalizedLevel !== 0).map((f) => ({
      name: f.name,
      minVersionLevel: f.finalizedLevel,
      maxVersionLevel: f.finalizedLevel,
    }));
    return response;
  },

  unsupportedVersion() {
    const response = emptyResponse();
    response.errorCode = ErrorCode.UNSUPPORTED_VERSION;
    response.apiKeys = [{ apiKey: apiVersionsApi.apiKey, minVersion: MIN_VERSION, maxVersion: MAX_VERSION }];
    return { response, version: 0 };
  },
});

function emptyResponse(): ApiVersionsResponse {
  return {
    errorCode: ErrorCode.NONE,
    apiKeys: [],
    throttleTimeMs: 0,
    supportedFeatures: [],
    finalizedFeaturesEpoch: -1n,
    finalizedFeatures: [],
    zkMigrationReady: false,
  };
}
