// Storage faults through the `gregor` command, read from its JSON log: a produce refused by a full disk answers
// KAFKA_STORAGE_ERROR and is logged at ERROR (once while it keeps failing), and a log dir that lost its
// meta.properties next to its data refuses to start (exit status 1, one line naming the dir), as Kafka 4.3.1 refuses
// it ("No readable meta.properties files found.") rather than give the data a new cluster id.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { startGregor, stopGregor, type GregorProcess } from './gregor-process.js';

const { Kafka, logLevel } = kafkajs;

const root = await mkdtemp(join(tmpdir(), 'gregor-storage-faults-'));
after(() => rm(root, { recursive: true, force: true }));

interface LogLine {
  level: number;
  msg: string;
}

function logLines(gregor: GregorProcess): LogLine[] {
  return gregor.output.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine);
}

function kafkaFor(gregor: GregorProcess) {
  return new Kafka({ clientId: 'faults', brokers: [`127.0.0.1:${gregor.port}`], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
}

async function createTopic(dir: string, topic: string): Promise<void> {
  const gregor = await startGregor(dir);
  const admin = kafkaFor(gregor).admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
  await admin.disconnect();
  assert.deepEqual(await stopGregor(gregor), { code: 0, signal: null });
}

test('a produce refused by a full disk answers KAFKA_STORAGE_ERROR and is logged at ERROR once while it keeps failing', async () => {
  const dir = join(root, 'full');
  await createTopic(dir, 'full');
  // Every write to /dev/full fails with the kernel's ENOSPC.
  const log = join(dir, 'full-0', `${'0'.repeat(20)}.log`);
  await rm(log);
  await symlink('/dev/full', log);
  const gregor = await startGregor(dir);
  try {
    const producer = kafkaFor(gregor).producer();
    await producer.connect();
    for (let i = 0; i < 3; i++) {
      await assert.rejects(producer.send({ topic: 'full', messages: [{ value: `v${i}` }] }), (err: Error & { type?: string; cause?: { type?: string } }) => {
        assert.equal(err.type ?? err.cause?.type, 'KAFKA_STORAGE_ERROR');
        return true;
      });
    }
    await producer.disconnect();
  } finally {
    await stopGregor(gregor);
  }
  const errors = logLines(gregor).filter((l) => l.level >= 50);
  assert.deepEqual(errors.map((l) => [l.level, l.msg]), [[50, `Error while appending records to full-0 in dir ${dir}: ENOSPC: no space left on device, write`]]);
});

test('a log dir holding data without meta.properties refuses to start, with one line naming the dir', async () => {
  const dir = join(root, 'lost-meta');
  await createTopic(dir, 'kept');
  await rm(join(dir, 'meta.properties'));
  await assert.rejects(startGregor(dir), (err: Error) => {
    assert.match(err.message, /^gregor exited \(code 1, signal null\) before listening:\n/);
    const lines = err.message.split('\n').slice(1).filter((l) => l !== '');
    assert.equal(lines.length, 1);
    const line = JSON.parse(lines[0]!) as LogLine;
    assert.equal(line.level, 60);
    assert.equal(
      line.msg,
      `cannot start: log dir ${dir} holds data (kept-0) but no meta.properties: its cluster id is lost. ` +
        `Restore ${join(dir, 'meta.properties')}, or empty the dir to start a new cluster`,
    );
    return true;
  });
});
