// librdkafka's transactional producer (confluent-kafka, from compat-tests' pinned Python venv) against gregor:
// init_transactions, a committed and an aborted transaction, send_offsets_to_transaction; a librdkafka
// read_committed consumer then reads the committed records only, and the group sees the transactional offset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker } from '../../src/server/broker.js';

const run = promisify(execFile);

const SCRIPT = String.raw`
import sys, json
from confluent_kafka import Producer, Consumer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
bootstrap = sys.argv[1]
admin = AdminClient({'bootstrap.servers': bootstrap})
admin.create_topics([NewTopic('rd-txn', 1, 1)])['rd-txn'].result()
p = Producer({'bootstrap.servers': bootstrap, 'transactional.id': 'rd-tx-1'})
p.init_transactions(30)
p.begin_transaction()
p.produce('rd-txn', b'c1')
p.produce('rd-txn', b'c2')
p.commit_transaction(30)
p.begin_transaction()
p.produce('rd-txn', b'a1')
p.abort_transaction(30)
p.begin_transaction()
p.produce('rd-txn', b'c3')
c = Consumer({'bootstrap.servers': bootstrap, 'group.id': 'rd-group', 'enable.auto.commit': False})
p.send_offsets_to_transaction([TopicPartition('rd-txn', 0, 7)], c.consumer_group_metadata(), 30)
p.commit_transaction(30)
reader = Consumer({'bootstrap.servers': bootstrap, 'group.id': 'rd-reader', 'isolation.level': 'read_committed', 'auto.offset.reset': 'earliest'})
reader.subscribe(['rd-txn'])
seen = []
for _ in range(200):
    m = reader.poll(0.2)
    if m is not None and m.error() is None:
        seen.append(m.value().decode())
    if len(seen) >= 3:
        break
reader.close()
committed = c.committed([TopicPartition('rd-txn', 0)], 30)[0].offset
c.close()
print(json.dumps({'seen': seen, 'committed': committed}))
`;

test('librdkafka transactional producer: commit, abort, send_offsets; read_committed consumer sees committed records only', async () => {
  await run('compat-tests/clients/python/install.sh', [], { timeout: 600_000 });
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'node.id': '1', 'gregor.log.engine': 'memory' }));
  try {
    const bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
    const { stdout } = await run('compat-tests/.cache/py/venv/bin/python', ['-c', SCRIPT, bootstrap], { timeout: 120_000 });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { seen: string[]; committed: number };
    assert.deepEqual(result.seen, ['c1', 'c2', 'c3']);
    assert.equal(result.committed, 7);
  } finally {
    await broker.close();
  }
});
