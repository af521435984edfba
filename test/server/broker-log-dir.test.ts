// Where an in-process broker keeps its data: memory unless told a log dir; a log dir serves one broker at a time.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { Kafka, logLevel } from 'kafkajs';

const root = mkdtempSync(join(tmpdir(), 'gregor-broker-dir-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('startBroker() without log.dirs or gregor.log.engine keeps its data in memory: nothing is written to ./data', async () => {
  const cwd = join(root, 'cwd');
  mkdirSync(cwd);
  const previous = process.cwd();
  process.chdir(cwd);
  try {
    const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0' }));
    try {
      const { host, port } = broker.addresses[0]!;
      const admin = new Kafka({ brokers: [`${host}:${port}`], logLevel: logLevel.NOTHING }).admin();
      await admin.connect();
      try {
        // A file engine would now have written meta.properties, the topic file and the partition dir.
        assert.equal(await admin.createTopics({ topics: [{ topic: 'created', numPartitions: 2 }] }), true);
        assert.deepEqual((await admin.listTopics()).filter((t) => t === 'created'), ['created']);
      } finally {
        await admin.disconnect();
      }
    } finally {
      await broker.close();
    }
    assert.deepEqual(readdirSync(cwd), [], 'nothing written under the working directory');
  } finally {
    process.chdir(previous);
  }
});

test('a second in-process broker on the same log.dirs is refused naming the lock file; after close a new one starts', async () => {
  const logDir = join(root, 'shared');
  const config = resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'log.dirs': logDir });
  const lockFile = join(logDir, '.lock');
  const first = await startBroker(config);
  let second: unknown;
  try {
    second = await startBroker(config).catch((error: unknown) => error);
  } finally {
    // Whatever the outcome, nothing is left running (a broker left open would hold node --test).
    if (second !== undefined && !(second instanceof Error)) await (second as Broker).close();
    await first.close();
  }
  assert.ok(second instanceof Error, 'the second broker was refused');
  assert.equal(second.name, 'LogDirInUseError');
  assert.equal(second.message, `Failed to acquire lock on file ${lockFile}: another broker (in this process or another) is using this log dir`);
  assert.ok(existsSync(lockFile));
  const next = await startBroker(config);
  await next.close();
});
