// Issue 18's "Done when", end to end with Kafka 4.3.1's KafkaShareConsumer (three JVMs, test/e2e/java/ShareDoneWhen.java)
// on one one-partition topic of 10,000 records (and one more at the end, see below): a victim reads two polls, ACCEPTs the first and part of the second and
// keeps the rest acquired; two more consumers join; the victim's JVM is SIGKILLed. As in Kafka, its connection's close
// releases what it held (its lock, share.record.lock.duration.ms, would otherwise), so those records, and only those,
// come again to the others, delivered a second time; every record is acknowledged exactly once. Once the killed
// member's session has timed out, kafka-share-groups --describe (--members, --state, --offsets) prints what it printed
// for the same run against Kafka 4.3.1 (compat-tests/reference), member ids and the coordinator's port normalised.
// SHARE_DONE_WHEN_REFERENCE=host:port runs the same scenario against a Kafka 4.3.1 broker too and compares the two.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createShareGroupDescribeRequest, shareGroupDescribeApi } from '../../src/protocol/generated/share-group-describe.js';
import { roundTrip } from '../server/broker-harness.js';
import { RawClient } from '../server/raw-client.js';
import { runJavaToolOk, sharedToolsBroker } from './java-tools.js';
import { setUpShareTopic, ShareConsumerProcess } from './share-consumer-processes.js';

// A killed member leaves a share group once its session times out: Kafka's default (and least) 45 s for the reference
// run, 12 s here (heartbeats every 2 s) so that the test does not wait the rest. Nothing printed depends on them.
const tools = sharedToolsBroker({
  'node.id': '1',
  'group.share.min.heartbeat.interval.ms': '1000', 'group.share.heartbeat.interval.ms': '2000',
  'group.share.min.session.timeout.ms': '10000', 'group.share.session.timeout.ms': '12000',
});
const RECORDS = 10_000;

interface Run {
  readonly victim: ShareConsumerProcess;
  readonly others: ShareConsumerProcess[];
  readonly describe: { members: string; state: string; offsets: string };
}

/** Members still in the group (a killed one stays until group.share.session.timeout.ms has passed). */
async function memberCount(bootstrap: string, group: string): Promise<number> {
  const [host, port] = bootstrap.split(':');
  const client = await RawClient.connect(Number(port), host);
  try {
    const r = await roundTrip(client, shareGroupDescribeApi, 1, { ...createShareGroupDescribeRequest(), groupIds: [group] });
    return r.groups[0]!.members.length;
  } finally {
    await client.close();
  }
}

async function doneWhen(bootstrap: string, topic: string, group: string): Promise<Run> {
  await setUpShareTopic(bootstrap, topic, group, RECORDS, 'share.record.lock.duration.ms=15000');
  const consumers: ShareConsumerProcess[] = [];
  try {
    // The victim ACCEPTs its first poll and 100 records of its second, and keeps the rest of that one acquired.
    const victim = new ShareConsumerProcess(bootstrap, topic, group, 'victim', ['hold=2', 'ackFirst=100']);
    consumers.push(victim);
    await victim.until(() => victim.holding !== undefined, 'held records');
    const others = ['c1', 'c2'].map((id) => new ShareConsumerProcess(bootstrap, topic, group, id));
    consumers.push(...others);
    // Killed once the others are at work (which of them gets records first, and how many, is the brokers' race).
    await others[0]!.until(() => others.some((c) => c.acked.length > 0), 'records acknowledged by the others');
    await victim.kill();
    const ackedCount = () => new Set(consumers.flatMap((c) => c.acked.map((d) => d.offset))).size;
    await others[0]!.until(() => ackedCount() >= RECORDS, `${RECORDS} records acknowledged`, 300_000);
    // The start offset a share partition writes is the one before the acknowledgement it writes (Kafka moves it
    // after): so the last write's depends on how the consumers' last acknowledgements interleaved. One more record,
    // produced once all are acknowledged, has its acknowledgement write the final one, 10,000, in either broker.
    await runJavaToolOk('kafka-console-producer', ['--bootstrap-server', bootstrap, '--topic', topic], 'end\n');
    await others[0]!.until(() => ackedCount() > RECORDS, 'the last record acknowledged');
    // The killed member leaves the group once its session times out: then the group is stable, with two members.
    const deadline = Date.now() + 120_000;
    while ((await memberCount(bootstrap, group)) !== 2) {
      assert.ok(Date.now() < deadline, 'the killed member never left the group');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const shareGroups = (...args: string[]) => runJavaToolOk('kafka-share-groups', ['--bootstrap-server', bootstrap, '--describe', '--group', group, ...args]);
    const describe = { members: await shareGroups('--members'), state: await shareGroups('--state'), offsets: await shareGroups('--offsets') };
    for (const c of others) await c.stop();
    return { victim, others, describe };
  } finally {
    for (const c of consumers) await c.kill();
  }
}

/** What differs per run and broker: member ids (their column keeps its width), the coordinator's address, member order. */
function normalised(describe: Run['describe'], group: string, topic: string): Run['describe'] {
  const names = (text: string) => text.replaceAll(group, 'G'.repeat(group.length)).replaceAll(topic, 'T'.repeat(topic.length));
  const members = names(describe.members).split('\n').map((line) => line.replace(/^(G+ +)[A-Za-z0-9_-]{22}( )/, (_m, g: string, s: string) => `${g}${'M'.repeat(22)}${s}`));
  const [blank, header, ...rows] = members;
  return {
    members: [blank, header, ...rows.filter((r) => r !== '').sort(), ''].join('\n'),
    state: names(describe.state).replace(/\S+:\d{5} +\(\d+\)/, (m) => m.replace(/\S+:\d{5}/, (hostPort) => 'H'.repeat(hostPort.length))),
    offsets: names(describe.offsets),
  };
}

/**
 * Every record acknowledged exactly once; a record comes again only where the victim held it (its kill released it)
 * or where a lock expired under a slow consumer (its acknowledgement then refused, as Kafka refuses it): never else.
 */
function assertDoneWhen(run: Run): void {
  const { victim, others } = run;
  const all = [victim, ...others];
  const acks = new Map<number, number>();
  for (const d of all.flatMap((c) => c.acked)) acks.set(d.offset, (acks.get(d.offset) ?? 0) + 1);
  assert.equal(acks.size, RECORDS + 1);
  assert.deepEqual([...acks.entries()].filter(([offset, n]) => n !== 1 || offset < 0 || offset > RECORDS), []);
  const refused = all.flatMap((c) => c.refused);
  assert.deepEqual(refused.filter((line) => !line.endsWith(' InvalidRecordStateException')), []);
  const expired = new Set(refused.map((line) => Number(line.split(' ')[1])));
  const [heldFirst, heldLast] = victim.holding!;
  const held = (o: number) => o >= heldFirst && o <= heldLast;
  const deliveries = new Map<number, number[]>();
  for (const d of all.flatMap((c) => c.got)) deliveries.set(d.offset, [...(deliveries.get(d.offset) ?? []), d.deliveryCount]);
  // Each delivery of a record counts one more than the one before: 1, then 2 after a release or an expiry, ...
  assert.deepEqual([...deliveries.entries()].filter(([, counts]) => counts.sort((a, b) => a - b).some((c, i) => c !== i + 1)), []);
  const again = [...deliveries.entries()].filter(([, counts]) => counts.length > 1).map(([offset]) => offset);
  assert.deepEqual(again.filter((o) => !held(o) && !expired.has(o)), []);
  // What the victim held came again, all of it, to the others; what it acknowledged did not.
  const othersGot = new Set(others.flatMap((c) => c.got.filter((d) => d.deliveryCount > 1).map((d) => d.offset)));
  assert.deepEqual(Array.from({ length: heldLast - heldFirst + 1 }, (_, i) => heldFirst + i).filter((o) => !othersGot.has(o)), []);
  assert.deepEqual(victim.acked.filter((d) => held(d.offset) || (deliveries.get(d.offset)?.length ?? 0) > 1), []);
}

test('three share consumers process 10,000 records, each acknowledged once; a killed one\'s held records go to the others; kafka-share-groups --describe prints what Kafka prints', async () => {
  const run = Date.now();
  const [topic, group] = [`share-e2e-dw-${run}`, `share-e2e-dwg-${run}`];
  const gregor = await doneWhen(tools.bootstrap, topic, group);
  assertDoneWhen(gregor);
  const described = normalised(gregor.describe, group, topic);
  const reference = process.env['SHARE_DONE_WHEN_REFERENCE'];
  if (reference !== undefined) {
    const kafka = await doneWhen(reference, topic, group);
    assertDoneWhen(kafka);
    assert.deepEqual(described, normalised(kafka.describe, group, topic));
  }
  const [g, t] = ['G'.repeat(group.length), 'T'.repeat(topic.length)];
  assert.deepEqual(described, EXPECTED(g, t));
});

/** What kafka-share-groups printed against Kafka 4.3.1 for this run (normalised). */
function EXPECTED(g: string, t: string): Run['describe'] {
  const [group, topic] = [g.padEnd(15), t.padEnd(15)];
  return {
    members: [
      '',
      `${'GROUP'.padEnd(group.length)} CONSUMER-ID            HOST            CLIENT-ID       #PARTITIONS  ASSIGNMENT`,
      `${group} ${'M'.repeat(22)} /127.0.0.1      c1              1            ${t}:0`,
      `${group} ${'M'.repeat(22)} /127.0.0.1      c2              1            ${t}:0`,
      '',
    ].join('\n'),
    state: ['', `${'GROUP'.padEnd(group.length)} COORDINATOR (ID)          STATE           #MEMBERS`, `${group} ${'H'.repeat(15)}  (1)      Stable          2`, ''].join('\n'),
    offsets: ['', `${'GROUP'.padEnd(group.length)} ${'TOPIC'.padEnd(topic.length)} PARTITION  START-OFFSET  LAG`, `${group} ${topic} 0          10000         0`, ''].join('\n'),
  };
}
