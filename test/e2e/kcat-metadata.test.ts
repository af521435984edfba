// kcat (librdkafka) lists the broker and its topics: `kcat -L`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker } from '../../src/server/broker.js';
import { MemoryTopicCatalog } from '../../src/broker/topic-catalog.js';

const run = promisify(execFile);
const KCAT_INSTALL = 'compat-tests/clients/kcat/install.sh';

/** kcat comes from Debian; the compat scripts install it where it is missing. */
async function ensureKcat(): Promise<void> {
  try {
    await run('kcat', ['-V']);
  } catch {
    assert.ok(existsSync(KCAT_INSTALL), `kcat is not installed and ${KCAT_INSTALL} is missing`);
    await run('bash', [KCAT_INSTALL], { timeout: 300_000 });
  }
}

interface KcatMetadata {
  brokers: { id: number; name: string }[];
  topics: { topic: string; partitions: { partition: number; leader: number; replicas: { id: number }[]; isrs: { id: number }[] }[] }[];
}

test('kcat -L lists the broker and the topics', async () => {
  await ensureKcat();
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'node.id': '1' }), {
    topics: new MemoryTopicCatalog([{ name: 'orders', id: 'b2-lGxk1Sr2W9nZ3Xb7y8g', partitionCount: 2, internal: false }]),
  });
  const bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
  try {
    const { stdout } = await run('kcat', ['-L', '-J', '-b', bootstrap, '-m', '10'], { timeout: 60_000 });
    const metadata = JSON.parse(stdout) as KcatMetadata;
    assert.deepEqual(metadata.brokers, [{ id: 1, name: bootstrap }]);
    assert.deepEqual(metadata.topics.map((t) => t.topic), ['orders']);
    assert.deepEqual(
      metadata.topics[0]!.partitions.map((p) => [p.partition, p.leader, p.replicas.map((r) => r.id), p.isrs.map((r) => r.id)]),
      [[0, 1, [1], [1]], [1, 1, [1], [1]]],
    );

    const plain = await run('kcat', ['-L', '-b', bootstrap, '-m', '10'], { timeout: 60_000 });
    assert.match(plain.stdout, new RegExp(`broker 1 at ${bootstrap.replace(/\./g, '\\.')}`));
    assert.match(plain.stdout, /topic "orders" with 2 partitions/);
  } finally {
    await broker.close();
  }
});
