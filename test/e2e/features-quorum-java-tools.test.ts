// Feature flags and the KRaft quorum through Kafka 4.3.1's own tools (kafka-features, kafka-metadata-quorum,
// kafka-cluster): the output a single-node Kafka 4.3.1 prints, line for line, where gregor's values are Kafka's.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runJavaTool, sharedToolsBroker } from './java-tools.js';

const tools = sharedToolsBroker();

/** `kafka-features describe` on Kafka 4.3.1 (the reference broker), each line without its epoch. */
const KAFKA_DESCRIBE: Readonly<Record<string, string>> = {
  'eligible.leader.replicas.version': 'Feature: eligible.leader.replicas.version          SupportedMinVersion: 0                SupportedMaxVersion: 1                FinalizedVersionLevel: 1                Epoch: ',
  'group.version': 'Feature: group.version                             SupportedMinVersion: 0                SupportedMaxVersion: 1                FinalizedVersionLevel: 1                Epoch: ',
  'kraft.version': 'Feature: kraft.version                             SupportedMinVersion: 0                SupportedMaxVersion: 1                FinalizedVersionLevel: 0                Epoch: ',
  'metadata.version': 'Feature: metadata.version                          SupportedMinVersion: 3.3-IV3          SupportedMaxVersion: 4.3-IV0          FinalizedVersionLevel: 4.3-IV0          Epoch: ',
  'share.version': 'Feature: share.version                             SupportedMinVersion: 0                SupportedMaxVersion: 1                FinalizedVersionLevel: 1                Epoch: ',
  'streams.version': 'Feature: streams.version                           SupportedMinVersion: 0                SupportedMaxVersion: 1                FinalizedVersionLevel: 1                Epoch: ',
  'transaction.version': 'Feature: transaction.version                       SupportedMinVersion: 0                SupportedMaxVersion: 2                FinalizedVersionLevel: 2                Epoch: ',
};

async function features(...args: string[]) {
  return runJavaTool('kafka-features', ['--bootstrap-server', tools.bootstrap, ...args]);
}

test('kafka-features describe / upgrade / downgrade / disable print what Kafka 4.3.1 prints', { timeout: 600_000 }, async () => {
  // Every feature gregor supports, at Kafka's line (the README says which of Kafka's seven are not supported yet).
  const described = await features('describe');
  assert.equal(described.code, 0, described.stderr);
  const names = Object.keys(KAFKA_DESCRIBE);
  const lines = described.stdout.trim().split('\n');
  const printed = lines.map((line) => /^Feature: (\S+)/.exec(line)?.[1]);
  assert.ok(printed.includes('metadata.version') && printed.includes('kraft.version') && printed.includes('eligible.leader.replicas.version') && printed.includes('group.version') &&
    printed.includes('share.version') && printed.includes('streams.version'));
  for (const [i, name] of printed.entries()) {
    assert.ok(name !== undefined && names.includes(name), lines[i]);
    assert.equal(lines[i], `${KAFKA_DESCRIBE[name]}1`);
  }

  const refusedKraft = await features('upgrade', '--feature', 'kraft.version=1');
  assert.equal(refusedKraft.code, 1);
  assert.equal(refusedKraft.stdout, 'Could not upgrade kraft.version to 1. The update failed for all features since the following feature ' +
    'had an error: Invalid upgrade of kraft.version to 1 because not all of the voters support it\n');

  const refusedMv = await features('downgrade', '--feature', 'metadata.version=29');
  assert.equal(refusedMv.code, 1);
  assert.equal(refusedMv.stdout, 'Could not downgrade metadata.version to 29. The update failed for all features since the following feature ' +
    'had an error: Unsupported metadata.version downgrade from 30 to 29. Refusing to perform the requested downgrade because it might delete metadata information.\n');

  const unsupported = await features('upgrade', '--feature', 'foo.bar=1');
  assert.equal(unsupported.code, 1);
  assert.equal(unsupported.stdout, 'Could not upgrade foo.bar to 1. The update failed for all features since the following feature ' +
    'had an error: Invalid update version 1 for feature foo.bar. Local controller 1 does not support this feature.\n');

  const dryRun = await features('downgrade', '--feature', 'eligible.leader.replicas.version=0', '--dry-run');
  assert.deepEqual([dryRun.code, dryRun.stdout], [0, 'eligible.leader.replicas.version can be downgraded to 0.\n']);
  const downgraded = await features('downgrade', '--feature', 'eligible.leader.replicas.version=0');
  assert.deepEqual([downgraded.code, downgraded.stdout], [0, 'eligible.leader.replicas.version was downgraded to 0.\n']);
  const disabled = await features('disable', '--feature', 'kraft.version');
  assert.deepEqual([disabled.code, disabled.stdout], [0, 'kraft.version was disabled.\n']);
  const upgraded = await features('upgrade', '--feature', 'eligible.leader.replicas.version=1');
  assert.deepEqual([upgraded.code, upgraded.stdout], [0, 'eligible.leader.replicas.version was upgraded to 1.\n']);

  // Two changes so far: the epoch went up once for each.
  const after = await features('describe');
  assert.equal(after.stdout.trim().split('\n').find((l) => l.startsWith('Feature: metadata.version')), `${KAFKA_DESCRIBE['metadata.version']}3`);
});

test('kafka-metadata-quorum describe --status and --replication: itself, the only voter, with no observers', { timeout: 300_000 }, async () => {
  const status = await runJavaTool('kafka-metadata-quorum', ['--bootstrap-server', tools.bootstrap, 'describe', '--status']);
  assert.equal(status.code, 0, status.stderr);
  const offset = /^HighWatermark:\s+(\d+)$/m.exec(status.stdout)?.[1];
  assert.ok(offset !== undefined, status.stdout);
  assert.equal(status.stdout, [
    `ClusterId:              ${tools.broker.clusterId}`,
    'LeaderId:               1',
    'LeaderEpoch:            1',
    `HighWatermark:          ${offset}`,
    'MaxFollowerLag:         0',
    'MaxFollowerLagTimeMs:   0',
    `CurrentVoters:          [{"id": 1, "endpoints": ["PLAINTEXT://127.0.0.1:${tools.broker.port}"]}]`,
    'CurrentObservers:       []',
    '',
  ].join('\n'));

  const replication = await runJavaTool('kafka-metadata-quorum', ['--bootstrap-server', tools.bootstrap, 'describe', '--replication']);
  assert.equal(replication.code, 0, replication.stderr);
  const [header, row, ...rest] = replication.stdout.split('\n');
  assert.equal(header, 'NodeId\tDirectoryId           \tLogEndOffset\tLag\tLastFetchTimestamp\tLastCaughtUpTimestamp\tStatus\t');
  assert.match(row!, /^1 {5}\tAAAAAAAAAAAAAAAAAAAAAA\t\d+ *\t0  \t(\d+) *\t\1 *\tLeader\t$/);
  assert.deepEqual(rest, ['']);
});

test('kafka-metadata-quorum add-controller / remove-controller and kafka-cluster unregister end as on Kafka 4.3.1', { timeout: 300_000 }, async () => {
  // add-controller reads a formatted controller's config (its node id, listeners and directory id).
  const dir = await mkdtemp(join(tmpdir(), 'gregor-add-controller-'));
  try {
    const config = join(dir, 'controller.properties');
    await writeFile(config, [
      'process.roles=controller', 'node.id=2', `controller.quorum.bootstrap.servers=${tools.bootstrap}`, 'listeners=CONTROLLER://127.0.0.1:0',
      'controller.listener.names=CONTROLLER', 'listener.security.protocol.map=CONTROLLER:PLAINTEXT', `log.dirs=${join(dir, 'data')}`, '',
    ].join('\n'));
    const formatted = await runJavaTool('kafka-storage', ['format', '--cluster-id', tools.broker.clusterId, '--config', config, '--no-initial-controllers']);
    assert.equal(formatted.code, 0, formatted.stderr);
    const added = await runJavaTool('kafka-metadata-quorum', ['--bootstrap-server', tools.bootstrap, '--command-config', config, 'add-controller']);
    assert.equal(added.code, 1);
    assert.match(added.stderr, /^org\.apache\.kafka\.common\.errors\.UnsupportedVersionException: Cluster doesn't support adding voter because the kraft\.version feature is 0$/m);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  const removed = await runJavaTool('kafka-metadata-quorum',
    ['--bootstrap-server', tools.bootstrap, 'remove-controller', '--controller-id', '1', '--controller-directory-id', 'AAAAAAAAAAAAAAAAAAAAAQ']);
  assert.equal(removed.code, 1);
  assert.match(removed.stderr, /^org\.apache\.kafka\.common\.errors\.UnsupportedVersionException: Cluster doesn't support removing voter because the kraft\.version feature is 0$/m);

  const other = await runJavaTool('kafka-cluster', ['unregister', '--bootstrap-server', tools.bootstrap, '--id', '5']);
  assert.equal(other.code, 1);
  assert.match(other.stderr, /^org\.apache\.kafka\.common\.errors\.BrokerIdNotRegisteredException: Broker ID 5 is not currently registered$/m);
  const itself = await runJavaTool('kafka-cluster', ['unregister', '--bootstrap-server', tools.bootstrap, '--id', '1']);
  assert.deepEqual([itself.code, itself.stdout], [0, 'Broker 1 is no longer registered.\n']);
});
