// gregor.clock=manual: the broker's time moves only through broker.clock.advance. LogAppendTime stamps follow it (as
// Kafka's log on MockTime), a client's CreateTime is kept as sent, and the system clock refuses to be advanced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import kafkajs from 'kafkajs';
import { startTestBroker } from './broker-harness.js';

const { Kafka, logLevel } = kafkajs;
process.env['KAFKAJS_NO_PARTITIONER_WARNING'] = '1';

test('manual clock: LogAppendTime is the clock, CreateTime is the client\'s, advance moves only the manual clock', async () => {
  const broker = await startTestBroker({ 'gregor.clock': 'manual' });
  const kafka = new Kafka({ clientId: 'clock-test', brokers: [`127.0.0.1:${broker.port}`], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const producer = kafka.producer();
  try {
    assert.equal(broker.clock.manual, true);
    const start = broker.clock.now();
    await admin.connect();
    await producer.connect();
    await admin.createTopics({ topics: [
      { topic: 'append-time', configEntries: [{ name: 'message.timestamp.type', value: 'LogAppendTime' }] },
      { topic: 'create-time' },
    ] });
    const sent = await producer.send({ topic: 'append-time', messages: [{ value: 'a', timestamp: '1000' }] });
    assert.equal(sent[0]!.logAppendTime, String(start));
    await broker.clock.advance(3_600_000);
    assert.equal(broker.clock.now(), start + 3_600_000);
    const later = await producer.send({ topic: 'append-time', messages: [{ value: 'b', timestamp: '1000' }] });
    assert.equal(later[0]!.logAppendTime, String(start + 3_600_000));
    const kept = await producer.send({ topic: 'create-time', messages: [{ value: 'c', timestamp: '1000' }] });
    assert.equal(kept[0]!.logAppendTime, '-1');
    await assert.rejects(broker.clock.advance(-1), /not a whole number of milliseconds/);
  } finally {
    await producer.disconnect();
    await admin.disconnect();
    await broker.close();
  }
  const system = await startTestBroker();
  try {
    assert.equal(system.clock.manual, false);
    await assert.rejects(system.clock.advance(1), /system clock cannot be advanced/);
  } finally {
    await system.close();
  }
});
