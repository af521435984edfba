// The foundation through Kafka 4.3.1's own Java tools: kafka-broker-api-versions lists exactly the
// versions the registry advertises (ApiVersions) for this node, and kafka-topics --list (Metadata) lists
// the store's topics, internal ones only without --exclude-internal.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { handlers as registry } from '../../src/server/handlers/index.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';
import { startTestBroker } from '../server/broker-harness.js';
import { installJavaTools, runJavaToolOk } from './java-tools.js';

let broker: Awaited<ReturnType<typeof startTestBroker>>;
let bootstrap: string;

before(async () => {
  installJavaTools();
  const store = new MemoryLogStore({ nodeId: 1 });
  for (const [name, partitions] of [['beta.events', 2], ['alpha', 3], ['gamma_2', 1], ['__consumer_offsets', 1]] as const) {
    await store.createTopic(name, partitions, {});
  }
  broker = await startTestBroker({ 'node.id': '1' }, { store });
  bootstrap = `127.0.0.1:${broker.port}`;
});

after(async () => {
  await broker?.close();
});

/** `Name(key): min to max [usable: max]` as the tool prints a range the 4.3.1 client fully knows. */
function versionLine(name: string, key: number, min: number, max: number): string {
  return `${name}(${key}): ${min === max ? `${min}` : `${min} to ${max}`} [usable: ${max}]`;
}

test('kafka-broker-api-versions prints the registry\'s version ranges for node 1, every other API UNSUPPORTED', { timeout: 300_000 }, async () => {
  const out = await runJavaToolOk('kafka-broker-api-versions', ['--bootstrap-server', bootstrap]);
  const lines = out.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  assert.equal(lines[0], `${bootstrap} (id: 1 rack: null isFenced: false) -> (`);
  assert.equal(lines.at(-1), ')');
  const byKey = new Map(registry.map((h) => [h.api.apiKey, h]));
  const printed = new Map<number, string>();
  for (const line of lines.slice(1, -1)) {
    const match = /^(\w+)\((\d+)\): (.*?),?$/.exec(line);
    assert.ok(match, `unexpected line: ${line}`);
    printed.set(Number(match[2]), line.replace(/,$/, ''));
  }
  for (const [key, line] of printed) {
    const handler = byKey.get(key);
    if (handler === undefined) assert.match(line, /: UNSUPPORTED$/, line);
    else assert.equal(line, versionLine(handler.api.name, key, handler.minVersion, handler.maxVersion));
  }
  assert.deepEqual(registry.map((h) => h.api.apiKey).filter((key) => !printed.has(key)), [], 'every registered API is listed');
  // Anchors from Kafka 4.3.1's own answer (capped at the versions the codec serves).
  assert.equal(printed.get(18), 'ApiVersions(18): 0 to 4 [usable: 4]');
  assert.equal(printed.get(1), 'Fetch(1): 4 to 18 [usable: 18]');
  assert.equal(printed.get(0), 'Produce(0): 0 to 13 [usable: 13]');
});

test('kafka-topics --list names every topic in order; --exclude-internal drops __consumer_offsets', { timeout: 300_000 }, async () => {
  const list = await runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap, '--list']);
  assert.deepEqual(list.trim().split('\n'), ['__consumer_offsets', 'alpha', 'beta.events', 'gamma_2']);
  const external = await runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap, '--list', '--exclude-internal']);
  assert.deepEqual(external.trim().split('\n'), ['alpha', 'beta.events', 'gamma_2']);
  const matching = await runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap, '--list', '--topic', 'a.*']);
  assert.deepEqual(matching.trim().split('\n'), ['alpha']);
});
