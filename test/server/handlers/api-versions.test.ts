import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { apiVersionsApi, decodeApiVersionsResponse } from '../../../src/protocol/generated/api-versions.js';
import { metadataApi } from '../../../src/protocol/generated/metadata.js';
import { Reader } from '../../../src/protocol/io/reader.js';
import { isLazy } from '../../../src/server/handler.js';
import { handlers } from '../../../src/server/handlers/index.js';
import { RawClient } from '../raw-client.js';
import { encodeRequest, roundTrip, startTestBroker } from '../broker-harness.js';

const expectedKeys = handlers
  .map((h) => ({ apiKey: h.api.apiKey, minVersion: h.minVersion, maxVersion: h.maxVersion }))
  .sort((a, b) => a.apiKey - b.apiKey);

test('ApiVersions v0-v4 list exactly the registry with its ranges', async () => {
  const broker = await startTestBroker();
  const client = await RawClient.connect(broker.port);
  try {
    for (let version = 0; version <= 4; version++) {
      const response = await roundTrip(client, apiVersionsApi, version, { clientSoftwareName: 'gregor-test', clientSoftwareVersion: '1.0.0' });
      assert.equal(response.errorCode, ErrorCode.NONE, `v${version}`);
      assert.deepEqual(response.apiKeys, expectedKeys, `v${version}`);
      if (version >= 3) {
        const metadataVersion = response.finalizedFeatures.find((f) => f.name === 'metadata.version');
        assert.ok(metadataVersion !== undefined && metadataVersion.minVersionLevel === metadataVersion.maxVersionLevel);
        assert.ok(response.supportedFeatures.some((f) => f.name === 'metadata.version'));
        assert.ok(response.finalizedFeaturesEpoch >= 0n);
        // Features with a minimum of 0 are shown from v4 only (KAFKA-17492).
        assert.equal(response.supportedFeatures.some((f) => f.minVersion === 0), version >= 4, `v${version}`);
      }
    }
  } finally {
    await client.close();
    await broker.close();
  }
});

test('the advertised ranges are pinned: a regenerated codec does not change what gregor advertises', () => {
  // [apiKey, minVersion, maxVersion]; a change here is a change of what every client negotiates.
  const pinned = [
    [0, 0, 11], [1, 4, 17], [2, 1, 10], [3, 0, 12], [8, 2, 9], [9, 1, 9], [10, 0, 6], [11, 0, 9], [12, 0, 4], [13, 0, 5],
    [14, 0, 5], [15, 0, 5], [16, 0, 5], [18, 0, 4], [19, 2, 7], [20, 1, 6], [21, 0, 2], [22, 0, 5], [23, 2, 4], [24, 0, 5],
    [25, 0, 4], [26, 0, 5], [27, 1, 1], [28, 0, 4], [32, 1, 4], [33, 0, 2], [35, 1, 4], [37, 0, 3], [42, 0, 2], [43, 0, 2],
    [44, 0, 1], [46, 0, 0], [47, 0, 0], [60, 0, 1], [61, 0, 0], [65, 0, 0], [66, 0, 1], [75, 0, 0],
  ];
  assert.deepEqual(expectedKeys.map((k) => [k.apiKey, k.minVersion, k.maxVersion]), pinned);
});

test('the advertised ranges are Kafka 4.x ranges the codec can serve', async () => {
  const byKey = new Map(expectedKeys.map((k) => [k.apiKey, k]));
  assert.deepEqual(byKey.get(apiVersionsApi.apiKey), { apiKey: 18, minVersion: 0, maxVersion: 4 });
  assert.deepEqual(byKey.get(metadataApi.apiKey), { apiKey: 3, minVersion: 0, maxVersion: 12 });
  for (const registered of handlers) {
    const handler = isLazy(registered) ? await registered.load() : registered;
    // Produce alone advertises versions Kafka removed (v0-v2, KAFKA-18659); the router closes the connection on them.
    const codecMin = handler.advertisesRemovedVersions === true ? 0 : handler.api.minVersion;
    assert.ok(handler.minVersion >= codecMin && handler.maxVersion <= handler.api.maxVersion, handler.api.name);
    assert.equal(handler.advertisesRemovedVersions === true, handler.api.name === 'Produce', handler.api.name);
  }
});

test('an unknown ApiVersions version gets UNSUPPORTED_VERSION with our range, in a v0 body', async () => {
  const broker = await startTestBroker();
  const client = await RawClient.connect(broker.port);
  try {
    // A v4 request relabelled v5, as a newer client sends it; Kafka 4.3.1 answers it with exactly these bytes.
    const request = encodeRequest(apiVersionsApi, 4, { clientSoftwareName: 'probe-sw', clientSoftwareVersion: '1.0' }, 7, 'probe');
    request.writeInt16BE(5, 2);
    client.send(request);
    const frame = await client.read();
    assert.equal(frame.toString('hex'), '00000007002300000001001200000004');
    const r = new Reader(frame, 4);
    assert.deepEqual(decodeApiVersionsResponse(r, 0).apiKeys, [{ apiKey: 18, minVersion: 0, maxVersion: 4 }]);
    // The connection stays open: the client retries with a version we know.
    const response = await roundTrip(client, apiVersionsApi, 0, { clientSoftwareName: '', clientSoftwareVersion: '' });
    assert.equal(response.errorCode, ErrorCode.NONE);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('v3+ with an invalid client software name gets INVALID_REQUEST', async () => {
  const broker = await startTestBroker();
  const client = await RawClient.connect(broker.port);
  try {
    for (const [name, version] of [['bad name!', '1.0'], ['ok', '-1.0'], ['', '1']] as const) {
      const response = await roundTrip(client, apiVersionsApi, 3, { clientSoftwareName: name, clientSoftwareVersion: version });
      assert.equal(response.errorCode, ErrorCode.INVALID_REQUEST, `${name} ${version}`);
      assert.deepEqual(response.apiKeys, []);
    }
  } finally {
    await client.close();
    await broker.close();
  }
});
