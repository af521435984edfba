import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FEATURES_FILE, fileFeatureStore } from '../../src/broker/feature-store.js';
import { FeatureUpdateError, Features, UpgradeType, type FeatureUpdate } from '../../src/broker/features.js';

const { UPGRADE, SAFE_DOWNGRADE, UNSAFE_DOWNGRADE } = UpgradeType;

/** The message Kafka 4.3.1's controller refuses `updates` with (taken from the reference broker), or null. */
function refusal(features: Features, updates: FeatureUpdate[]): string | null {
  try {
    features.check(updates, 1);
    return null;
  } catch (error) {
    assert.ok(error instanceof FeatureUpdateError);
    return error.message;
  }
}

test('the defaults: metadata.version 4.3-IV0 (30), eligible.leader.replicas.version 1, group.version 1, share.version 1, transaction.version 2, kraft.version 0 (not finalized)', () => {
  const features = new Features();
  assert.deepEqual(features.supported().map((f) => [f.name, f.minVersion, f.maxVersion]), [
    ['eligible.leader.replicas.version', 0, 1], ['group.version', 0, 1], ['kraft.version', 0, 1], ['metadata.version', 7, 30], ['share.version', 0, 1], ['streams.version', 0, 1],
    ['transaction.version', 0, 2],
  ]);
  assert.deepEqual(features.finalized(), [
    { name: 'eligible.leader.replicas.version', level: 1 }, { name: 'group.version', level: 1 }, { name: 'metadata.version', level: 30 },
    { name: 'share.version', level: 1 }, { name: 'streams.version', level: 1 }, { name: 'transaction.version', level: 2 },
  ]);
  assert.equal(features.level('kraft.version'), 0);
  assert.equal(features.level('group.version'), 1);
  assert.equal(features.level('streams.version'), 1);
  assert.equal(features.level('share.version'), 1);
  assert.equal(features.epoch, 1n);
});

test('every refusal carries Kafka 4.3.1\'s message', () => {
  const features = new Features();
  const cases: [FeatureUpdate[], string][] = [
    [[{ name: 'foo.bar', level: 1, upgradeType: UPGRADE }], 'Invalid update version 1 for feature foo.bar. Local controller 1 does not support this feature.'],
    [[{ name: 'metadata.version', level: 31, upgradeType: UPGRADE }], 'Invalid update version 31 for feature metadata.version. Local controller 1 only supports versions 7-30'],
    [[{ name: 'metadata.version', level: 31, upgradeType: SAFE_DOWNGRADE }], 'Invalid update version 31 for feature metadata.version. Local controller 1 only supports versions 7-30'],
    [[{ name: 'eligible.leader.replicas.version', level: -1, upgradeType: SAFE_DOWNGRADE }],
      'Invalid update version -1 for feature eligible.leader.replicas.version. A feature version cannot be less than 0.'],
    [[{ name: 'eligible.leader.replicas.version', level: 0, upgradeType: UPGRADE }],
      "Invalid update version 0 for feature eligible.leader.replicas.version. Can't downgrade the version of this feature without setting the upgrade type to either safe or unsafe downgrade."],
    [[{ name: 'eligible.leader.replicas.version', level: 0, upgradeType: 7 }],
      'Invalid update version 0 for feature eligible.leader.replicas.version. The controller does not support the given upgrade type.'],
    [[{ name: 'metadata.version', level: 29, upgradeType: SAFE_DOWNGRADE }],
      'Unsupported metadata.version downgrade from 30 to 29. Refusing to perform the requested downgrade because it might delete metadata information.'],
    [[{ name: 'metadata.version', level: 29, upgradeType: UNSAFE_DOWNGRADE }],
      'Unsupported metadata.version downgrade from 30 to 29. Unsafe metadata downgrade is not supported in this version.'],
    [[{ name: 'kraft.version', level: 1, upgradeType: UPGRADE }], 'Invalid upgrade of kraft.version to 1 because not all of the voters support it'],
    [[{ name: '', level: 1, upgradeType: UPGRADE }], 'Invalid update version 1 for feature . Local controller 1 does not support this feature.'],
  ];
  for (const [updates, message] of cases) assert.equal(refusal(features, updates), message, JSON.stringify(updates));
  // What Kafka accepts: the same level again, kraft.version 0 by any type, a downgrade with its type.
  assert.equal(refusal(features, [{ name: 'metadata.version', level: 30, upgradeType: UPGRADE }]), null);
  assert.equal(refusal(features, [{ name: 'kraft.version', level: 0, upgradeType: UNSAFE_DOWNGRADE }]), null);
  assert.equal(refusal(features, [{ name: 'eligible.leader.replicas.version', level: 0, upgradeType: SAFE_DOWNGRADE }]), null);
});

test('a newer level by a downgrade type, and a dependency the request leaves unmet, are refused', () => {
  const off = new Features(undefined, new Map([['metadata.version', 22], ['eligible.leader.replicas.version', 0]]));
  assert.equal(refusal(off, [{ name: 'eligible.leader.replicas.version', level: 1, upgradeType: SAFE_DOWNGRADE }]),
    "Invalid update version 1 for feature eligible.leader.replicas.version. Can't downgrade to a newer version.");
  assert.equal(refusal(off, [{ name: 'eligible.leader.replicas.version', level: 1, upgradeType: UPGRADE }]),
    'Invalid update version 1 for feature eligible.leader.replicas.version. eligible.leader.replicas.version could not be set to 1 ' +
    'because it depends on metadata.version level 23');
  // The same request raising metadata.version meets it (each update is checked against the levels all of them leave).
  assert.deepEqual(off.check([
    { name: 'eligible.leader.replicas.version', level: 1, upgradeType: UPGRADE },
    { name: 'metadata.version', level: 23, upgradeType: UPGRADE },
  ], 1), [{ name: 'eligible.leader.replicas.version', level: 1 }, { name: 'metadata.version', level: 23 }]);
  // group.version 1 (the consumer protocol) needs metadata.version 4.0-IV0 (22), as in Kafka 4.3.1.
  const older = new Features(undefined, new Map([['metadata.version', 21], ['group.version', 0]]));
  assert.equal(refusal(older, [{ name: 'group.version', level: 1, upgradeType: UPGRADE }]),
    'Invalid update version 1 for feature group.version. group.version could not be set to 1 because it depends on metadata.version level 22');
  // share.version 1 (share groups) needs metadata.version 4.2-IV0 (28).
  const before42 = new Features(undefined, new Map([['metadata.version', 27], ['share.version', 0]]));
  assert.equal(refusal(before42, [{ name: 'share.version', level: 1, upgradeType: UPGRADE }]),
    'Invalid update version 1 for feature share.version. share.version could not be set to 1 because it depends on metadata.version level 28');
  // A downgrade across no metadata change is allowed (24 and 25 changed nothing since 23).
  assert.equal(refusal(new Features(undefined, new Map([['metadata.version', 25]])), [{ name: 'metadata.version', level: 23, upgradeType: SAFE_DOWNGRADE }]), null);
});

test('levels applied are kept in the log dir with their epoch, and read back at the next open', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-features-'));
  try {
    const first = await Features.open(fileFeatureStore(dir));
    const heard: unknown[] = [];
    first.onChange((changed) => heard.push(changed));
    const changes = first.check([{ name: 'eligible.leader.replicas.version', level: 0, upgradeType: SAFE_DOWNGRADE }], 1);
    await first.apply(changes);
    assert.deepEqual(heard, [[{ name: 'eligible.leader.replicas.version', level: 0 }]]);
    assert.equal(first.epoch, 2n);
    assert.deepEqual(JSON.parse(await readFile(join(dir, FEATURES_FILE), 'utf8')), {
      version: 1, epoch: '2', levels: { 'eligible.leader.replicas.version': 0, 'group.version': 1, 'kraft.version': 0, 'metadata.version': 30, 'share.version': 1, 'streams.version': 1,
        'transaction.version': 2 },
    });
    const second = await Features.open(fileFeatureStore(dir));
    assert.equal(second.epoch, 2n);
    assert.equal(second.level('eligible.leader.replicas.version'), 0);
    assert.deepEqual(second.finalized(), [
      { name: 'group.version', level: 1 }, { name: 'metadata.version', level: 30 }, { name: 'share.version', level: 1 }, { name: 'streams.version', level: 1 }, { name: 'transaction.version', level: 2 },
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a stored level this broker cannot run at, or a damaged file, stops the open with a one-line error', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-features-'));
  const path = join(dir, FEATURES_FILE);
  try {
    await writeFile(path, JSON.stringify({ version: 1, epoch: '5', levels: { 'metadata.version': 31 } }));
    await assert.rejects(Features.open(fileFeatureStore(dir)),
      { message: `${path}: metadata.version is finalized at level 31, which this broker does not support; run the gregor version that wrote it` });
    await writeFile(path, '{"version":1,"epoch":5}');
    await assert.rejects(Features.open(fileFeatureStore(dir)),
      { message: `${path}: "epoch" must be a decimal string; fix or remove the file (it holds the finalized feature levels)` });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a stored file that does not name a feature (written before it was supported) has it at 0, as an upgraded Kafka cluster', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-features-'));
  try {
    await writeFile(join(dir, FEATURES_FILE), JSON.stringify({ version: 1, epoch: '7', levels: { 'metadata.version': 30 } }));
    const features = await Features.open(fileFeatureStore(dir));
    assert.deepEqual([features.epoch, features.level('eligible.leader.replicas.version'), features.level('metadata.version')], [7n, 0, 30]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
