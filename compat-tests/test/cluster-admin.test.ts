// The cluster-admin scenario's readers of the stock tools' output, the README's not-served list and the version
// log, on text captured from Apache Kafka 4.3.1's tools.
// Run: node --test dist/compat-tests/test/cluster-admin.test.js
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiVersionRows, entityBlock, featureRows, quorumStatus, tableRows } from '../clients/java-tools/cluster.js';
import { notServedYet } from '../lib/not-served.js';
import { highestVersions } from '../runner/versions.js';

test('kafka-broker-api-versions rows by API name, the broker line left out', () => {
  const output = '127.0.0.1:19270 (id: 1 rack: null isFenced: false) -> (\n\tProduce(0): 0 to 13 [usable: 13],\n' +
    '\tGetTelemetrySubscriptions(71): UNSUPPORTED,\n\tDeleteShareGroupOffsets(92): 0 [usable: 0]\n)\n';
  assert.deepEqual(apiVersionRows(output), { Produce: '0 to 13 [usable: 13]', GetTelemetrySubscriptions: 'UNSUPPORTED', DeleteShareGroupOffsets: '0 [usable: 0]' });
});

test('kafka-features describe rows without the epoch', () => {
  const output = 'Feature: kraft.version\tSupportedMinVersion: 0\tSupportedMaxVersion: 1\tFinalizedVersionLevel: 0\tEpoch: 29\n' +
    'Feature: metadata.version                          SupportedMinVersion: 3.3-IV3          SupportedMaxVersion: 4.3-IV0          FinalizedVersionLevel: 4.3-IV0          Epoch: 29\n';
  assert.deepEqual(featureRows(output), {
    'kraft.version': 'SupportedMinVersion: 0, SupportedMaxVersion: 1, FinalizedVersionLevel: 0',
    'metadata.version': 'SupportedMinVersion: 3.3-IV3, SupportedMaxVersion: 4.3-IV0, FinalizedVersionLevel: 4.3-IV0',
  });
});

test('kafka-metadata-quorum --status keeps the leader, voters\' ids and lags, and normalises what differs by nature', () => {
  const output = 'ClusterId:              Z3JlZ29yLWNvbXBhdC0wMQ\nLeaderId:               1\nLeaderEpoch:            1\n' +
    'HighWatermark:          34\nMaxFollowerLag:         0\nMaxFollowerLagTimeMs:   0\n' +
    'CurrentVoters:          [{"id": 1, "directoryId": "abc", "endpoints": ["CONTROLLER://127.0.0.1:19271"]}]\nCurrentObservers:       []\n';
  assert.deepEqual(quorumStatus(output), {
    ClusterId: '<cluster id>', LeaderId: '1', LeaderEpoch: '<epoch>', HighWatermark: '<offset>', MaxFollowerLag: '0', MaxFollowerLagTimeMs: '0',
    CurrentVoters: [{ id: 1, directoryId: '<directory id>', endpoints: ['<listener>://<host>:<port>'] }], CurrentObservers: [],
  });
});

test('tab-separated tables become one record per row', () => {
  const output = 'NodeId\tDirectoryId           \tLogEndOffset\tLag\tStatus\t\n1     \tAAAAAAAAAAAAAAAAAAAAAA\t37          \t0  \tLeader\t\n';
  assert.deepEqual(tableRows(output), [{ NodeId: '1', DirectoryId: 'AAAAAAAAAAAAAAAAAAAAAA', LogEndOffset: '37', Lag: '0', Status: 'Leader' }]);
});

test('kafka-configs --describe: one entity\'s block with its name replaced', () => {
  const output = 'Dynamic configs for group other are:\n  a=1 sensitive=false\nDynamic configs for group g-1 are:\n' +
    '  consumer.session.timeout.ms=50000 sensitive=false\n  b=2 sensitive=false\nDynamic configs for group z are:\n  c=3\n';
  assert.deepEqual(entityBlock(output, 'g-1', '<group>'), [
    'Dynamic configs for group <group> are:', '  consumer.session.timeout.ms=50000 sensitive=false', '  b=2 sensitive=false',
  ]);
  assert.deepEqual(entityBlock("Quota configs for client-id 'c-1' are producer_byte_rate=1024.0\n", 'c-1', '<client>'),
    ["Quota configs for client-id '<client>' are producer_byte_rate=1024.0"]);
});

test('the README lists the APIs not served yet with their keys and issues', () => {
  const readme = '# x\n\n## What gregor does not serve yet\n\n| API (key) | gregor | Kafka 4.3.1 | issue |\n|---|---|---|---|\n' +
    '| Produce (0) | 0–11 | 0–13 | #15 |\n| SaslHandshake (17) | – | 0–1 | #17 |\n\n## Next\n| Other (1) | a | b | #9 |\n';
  assert.deepEqual(notServedYet(readme), [{ name: 'Produce', apiKey: 0, issue: '#15' }, { name: 'SaslHandshake', apiKey: 17, issue: '#17' }]);
  assert.doesNotThrow(() => notServedYet(), 'the real README has the section');
});

test('highestVersions: the highest version of each API sent, heartbeats left out', () => {
  assert.deepEqual(highestVersions([{ apiKey: 18, version: 5 }, { apiKey: 18, version: 4 }, { apiKey: 0, version: 13 }, { apiKey: 12, version: 4 }]),
    { ApiVersions: 5, Produce: 13 });
});
