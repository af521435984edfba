// Cluster mode's shared state store on a real etcd: two brokers' stores (each its own client) over one prefix. A save
// writes only the difference from the value it was made from, so two brokers' changes to different entries both
// stay; a save larger than etcd's 128 operations per txn goes through in batches; the other store's listener hears
// every change; and a watch that etcd cancels because its revision was compacted while the client was cut off
// (a TCP proxy in between is closed, the key changed and compacted, the proxy opened again) reads the prefix again.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Etcd3 } from 'etcd3';
import { EtcdStateStore, ETCD_MAX_TXN_OPS } from '../../src/cluster/etcd-state-store.js';
import type { StateEntries } from '../../src/storage/file/state-file.js';
import { silentLog } from '../../src/log.js';
import { startEtcd, type EtcdServer } from './etcd-server.js';

/** A map of text, one entry per key: the simplest StateEntries form. */
const TEXT_MAP: StateEntries<ReadonlyMap<string, string>> = {
  holds: 'test entries',
  toEntries: (value) => new Map([...value].map(([k, v]) => [encodeURIComponent(k), v])),
  fromEntries: (entries) => new Map([...entries].map(([k, v]) => [decodeURIComponent(k), v])),
};

let etcd: EtcdServer;
const clients: Etcd3[] = [];
const stores: EtcdStateStore<ReadonlyMap<string, string>>[] = [];

before(async () => {
  etcd = await startEtcd();
});

after(async () => {
  for (const store of stores) await store.close();
  for (const client of clients) client.close();
  await etcd?.stop();
});

function client(endpoint = etcd.endpoint): Etcd3 {
  const made = new Etcd3({ hosts: [endpoint], dialTimeout: 5000 });
  clients.push(made);
  return made;
}

function store(prefix: string, over = client()): EtcdStateStore<ReadonlyMap<string, string>> {
  const made = new EtcdStateStore(over, prefix, TEXT_MAP, silentLog());
  stores.push(made);
  return made;
}

/** What a store's listener last heard, and a wait for a value it hears. */
function listen(s: EtcdStateStore<ReadonlyMap<string, string>>) {
  let last: ReadonlyMap<string, string> | undefined;
  let wake = () => {};
  s.watch((value) => {
    last = value;
    wake();
  });
  return {
    get last() { return last; },
    async until(check: (value: ReadonlyMap<string, string>) => boolean, what: string): Promise<ReadonlyMap<string, string>> {
      const deadline = Date.now() + 20_000;
      while (last === undefined || !check(last)) {
        if (Date.now() > deadline) assert.fail(`${what}: heard ${JSON.stringify(last === undefined ? null : [...last])}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 200);
        });
      }
      return last;
    },
  };
}

test('two brokers change different entries at once: both changes stay, and each hears the other', async () => {
  const a = store('/t1/area/');
  const b = store('/t1/area/');
  assert.equal(await a.load(), undefined, 'nothing stored yet');
  assert.equal(await b.load(), undefined);
  const heardByA = listen(a);
  const heardByB = listen(b);
  const empty = new Map<string, string>();
  // Both made from the empty value: each writes its own entry only.
  await Promise.all([a.save(new Map([['x', '1']]), empty), b.save(new Map([['y', '2']]), empty)]);
  const both = (v: ReadonlyMap<string, string>) => v.get('x') === '1' && v.get('y') === '2' && v.size === 2;
  await heardByA.until(both, 'a hears both');
  await heardByB.until(both, 'b hears both');
  // A deletion made from what b holds removes that entry alone.
  await b.save(new Map([['y', '2']]), heardByB.last!);
  await heardByA.until((v) => v.size === 1 && v.get('y') === '2', 'a hears x deleted');
  const fresh = store('/t1/area/');
  assert.deepEqual([...(await fresh.load())!], [['y', '2']]);
});

test('a deletion another broker made first changes nothing, and the save still resolves at once', async () => {
  const a = store('/t5/area/');
  const b = store('/t5/area/');
  await a.load();
  await b.load();
  const heardByB = listen(b);
  const x = new Map([['x', '1']]);
  await a.save(x, new Map());
  await heardByB.until((v) => v.get('x') === '1', 'b hears x');
  await a.save(new Map(), x);
  // Writes elsewhere move etcd's revision past anything this prefix's watch will see.
  const other = client();
  for (let i = 0; i < 3; i++) await other.put(`/t5/elsewhere/${i}`).value('z');
  // b deletes x too, from the value it held: nothing is left to delete.
  const started = Date.now();
  await b.save(new Map(), x);
  assert.ok(Date.now() - started < 5000, `the save took ${Date.now() - started} ms`);
  await heardByB.until((v) => v.size === 0, 'b hears x gone');
});

test('a save of more entries than one etcd txn may hold goes in batches, and another store hears all of them', async () => {
  const a = store('/t2/area/');
  const b = store('/t2/area/');
  await a.load();
  await b.load();
  const heard = listen(b);
  const many = new Map(Array.from({ length: ETCD_MAX_TXN_OPS * 2 + 44 }, (_, i) => [`key-${i}`, `value-${i}`] as [string, string]));
  await a.save(many, new Map());
  const all = await heard.until((v) => v.size === many.size, 'b hears every entry');
  assert.deepEqual([...all].sort(), [...many].sort());
  // And removing them all is as many deletions.
  await a.save(new Map(), many);
  await heard.until((v) => v.size === 0, 'b hears every entry deleted');
});

test('a seed is written once, by the first store to load: a later seed does not replace what is stored', async () => {
  const seeded = (value: string) => new EtcdStateStore(client(), '/t3/area/', TEXT_MAP, silentLog(),
    { seed: { formedKey: '/t3/formed/area', value: new Map([['min.insync.replicas', value]]) } });
  const first = seeded('1');
  stores.push(first);
  assert.deepEqual([...(await first.load())!], [['min.insync.replicas', '1']]);
  await first.save(new Map(), new Map([['min.insync.replicas', '1']]));
  const second = seeded('2');
  stores.push(second);
  assert.deepEqual([...(await second.load())!], [], 'the cluster was formed already: the deletion stays');
});

test('a watch cancelled because its revision was compacted while the client was cut off reads the prefix again', async () => {
  // A TCP proxy between the store's client and etcd, which the test closes and opens again.
  const target = new URL(etcd.endpoint);
  const sockets = new Set<Socket>();
  let open = true;
  const proxy: Server = createServer((socket) => {
    if (!open) {
      socket.destroy();
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    const drop = () => { socket.destroy(); upstream.destroy(); };
    socket.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyPort = (proxy.address() as { port: number }).port;
  try {
    const watched = store('/t4/area/', client(`http://127.0.0.1:${proxyPort}`));
    const direct = client();
    await watched.load();
    const heard = listen(watched);
    await direct.put('/t4/area/a').value('1');
    await heard.until((v) => v.get('a') === '1', 'heard while connected');
    // Cut off: the watch stream breaks and cannot reconnect.
    open = false;
    for (const socket of sockets) socket.destroy();
    await direct.put('/t4/area/a').value('2');
    await direct.put('/t4/area/b').value('3');
    await direct.delete().key('/t4/area/b');
    await direct.put('/t4/area/c').value('4');
    // Compact everything up to now: the watch's next revision is gone.
    const now = (await direct.get('/t4/area/c').exec()).header.revision;
    await direct.kv.compact({ revision: now, physical: true });
    open = true;
    const resumed = await heard.until((v) => v.get('a') === '2' && v.get('c') === '4', 'heard after the compaction');
    assert.deepEqual([...resumed].sort(), [['a', '2'], ['c', '4']]);
    // And it follows live changes again.
    await direct.put('/t4/area/d').value('5');
    await heard.until((v) => v.get('d') === '5', 'heard after resuming');
  } finally {
    open = false;
    for (const socket of sockets) socket.destroy();
    proxy.close();
  }
});
