import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { apiVersionsApi, decodeApiVersionsResponse } from '../../../src/protocol/generated/api-versions.js';
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

/** Apache Kafka 4.3.1's ApiVersions (the reference broker's answer): [apiKey, minVersion, maxVersion]. */
const KAFKA_4_3_1: readonly (readonly [number, number, number])[] = [
  [0, 0, 13], [1, 4, 18], [2, 1, 11], [3, 0, 13], [8, 2, 10], [9, 1, 10], [10, 0, 6], [11, 0, 9], [12, 0, 4], [13, 0, 5],
  [14, 0, 5], [15, 0, 6], [16, 0, 5], [17, 0, 1], [18, 0, 4], [19, 2, 7], [20, 1, 6], [21, 0, 2], [22, 0, 5], [23, 2, 4],
  [24, 0, 5], [25, 0, 4], [26, 0, 5], [27, 1, 2], [28, 0, 5], [29, 1, 3], [30, 1, 3], [31, 1, 3], [32, 1, 4], [33, 0, 2],
  [34, 1, 2], [35, 1, 5], [36, 0, 2], [37, 0, 3], [38, 1, 3], [39, 1, 2], [40, 1, 2], [41, 1, 3], [42, 0, 2], [43, 0, 2],
  [44, 0, 1], [45, 0, 1], [46, 0, 0], [47, 0, 0], [48, 0, 1], [49, 0, 1], [50, 0, 0], [51, 0, 0], [55, 0, 2], [57, 0, 2],
  [60, 0, 2], [61, 0, 0], [64, 0, 0], [65, 0, 0], [66, 0, 2], [68, 0, 1], [69, 0, 1], [74, 0, 1], [75, 0, 0], [76, 1, 1],
  [77, 1, 1], [78, 1, 2], [79, 1, 2], [80, 0, 1], [81, 0, 0], [83, 0, 0], [84, 0, 0], [85, 0, 1], [86, 0, 0], [87, 0, 1],
  [88, 0, 0], [89, 0, 0], [90, 0, 1], [91, 0, 0], [92, 0, 0],
];

/** The README's table of APIs gregor does not serve at Kafka's range yet: api key → issue. */
function readmeDifferences(): Map<number, string> {
  const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
  const section = readme.split('\n## What gregor does not serve yet\n')[1]?.split('\n## ')[0];
  assert.ok(section !== undefined, 'README has the section "What gregor does not serve yet"');
  const rows = new Map<number, string>();
  for (const m of section.matchAll(/^\| \w+ \((\d+)\) \|[^\n]*\| (#\d+) \|$/gm)) rows.set(Number(m[1]), m[2]!);
  return rows;
}

test('every API is at Kafka 4.3.1\'s exact range, except those the README lists as not served yet', () => {
  // A change here is a change of what every client negotiates: one version too many breaks real clients.
  const ours = new Map(expectedKeys.map((k) => [k.apiKey, [k.apiKey, k.minVersion, k.maxVersion]]));
  const differences = readmeDifferences();
  for (const kafka of KAFKA_4_3_1) {
    const [key] = kafka;
    if (differences.has(key)) {
      assert.notDeepEqual(ours.get(key), kafka, `api ${key} is served at Kafka's range: remove its README row`);
    } else {
      assert.deepEqual(ours.get(key), kafka, `api ${key}: not at Kafka 4.3.1's range and not listed in the README`);
    }
  }
  const kafkaKeys = new Set(KAFKA_4_3_1.map(([key]) => key));
  for (const key of ours.keys()) assert.ok(kafkaKeys.has(key), `api ${key} is not one Kafka 4.3.1 serves`);
  for (const key of differences.keys()) assert.ok(kafkaKeys.has(key), `README lists api ${key}, which Kafka 4.3.1 does not serve`);
});

test('the advertised ranges are Kafka 4.x ranges the codec can serve', async () => {
  const byKey = new Map(expectedKeys.map((k) => [k.apiKey, k]));
  assert.deepEqual(byKey.get(apiVersionsApi.apiKey), { apiKey: 18, minVersion: 0, maxVersion: 4 });
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
