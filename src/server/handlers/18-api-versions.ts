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
    const features = ctx.broker.features;
    response.supportedFeatures = features.supported().filter((f) => version >= 4 || f.minVersion > 0).map((f) => ({
      name: f.name,
      minVersion: f.minVersion,
      maxVersion: f.maxVersion,
    }));
    response.finalizedFeaturesEpoch = features.epoch;
    response.finalizedFeatures = features.finalized().map((f) => ({ name: f.name, minVersionLevel: f.level, maxVersionLevel: f.level }));
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
