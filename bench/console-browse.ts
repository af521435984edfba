// The console's message browser on a topic of a million records (file engine, 3 partitions, 100-byte JSON values in
// batches of 1000): the newest page (50 records, all partitions) over HTTP, and a search by key for the topic's
// oldest record (the worst case: the page asks page after page, each bounded to 8 MiB read, until it is found).
//   node dist/bench/console-browse.js [--records 1000000] [--runs 5]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { resolveBrokerConfig } from '../src/config/index.js';
import { openLogStore } from '../src/broker/open-store.js';
import { encodeRecordBatch } from '../src/protocol/records/index.js';
import { startBroker } from '../src/server/broker.js';
import { httpServer } from '../src/http/lazy-start.js';
import { spread } from './compare/stats.js';

const { values } = parseArgs({ options: { records: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '5' } }, strict: true });
const total = Number(values.records);
const runs = Number(values.runs);
const PARTITIONS = 3;
const BATCH = 1000;

const dir = mkdtempSync(join(tmpdir(), 'gregor-console-bench-'));
try {
  const config = resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'log.dirs': dir, 'gregor.log.engine': 'file', 'gregor.http.listeners': 'http://127.0.0.1:0' });
  const store = await openLogStore(config, undefined, 'file');
  await store.createTopic('million', PARTITIONS);
  const t0 = performance.now();
  for (let start = 0; start < total; start += BATCH) {
    const partition = (start / BATCH) % PARTITIONS;
    const count = Math.min(BATCH, total - start);
    const batch = encodeRecordBatch({
      records: Array.from({ length: count }, (_, i) => ({
        timestamp: 1_700_000_000_000 + start + i, key: Buffer.from(`key-${start + i}`), value: Buffer.from(JSON.stringify({ id: start + i, pad: 'x'.repeat(80) })),
      })),
    });
    await store.log('million', partition)!.append(batch, { leaderEpoch: 0 });
  }
  process.stderr.write(`filled ${total} records in ${Math.round(performance.now() - t0)} ms\n`);
  const broker = await startBroker(config, { store, httpServer });
  const base = `http://127.0.0.1:${broker.httpAddresses[0]!.port}/console/api/topics/million/messages`;
  const newest: number[] = [];
  const search: number[] = [];
  let requests = 0;
  for (let run = 0; run < runs; run++) {
    let t = performance.now();
    const page = (await (await fetch(`${base}?limit=50`)).json()) as { records: unknown[] };
    newest.push(performance.now() - t);
    if (page.records.length !== 50) throw new Error(`the newest page held ${page.records.length} records`);
    t = performance.now();
    requests = 0;
    let cursor: unknown = null;
    for (;;) {
      requests++;
      // Only the oldest record's key contains "key-0" (no key has a leading zero).
      const result = (await (await fetch(`${base}?limit=50&key=key-0${cursor === null ? '' : `&cursor=${encodeURIComponent(JSON.stringify(cursor))}`}`)).json()) as
        { records: unknown[]; next: unknown; done: boolean };
      if (result.records.length > 0 || result.done) break;
      cursor = result.next;
    }
    search.push(performance.now() - t);
  }
  await broker.close();
  const fmt = (xs: number[]) => { const s = spread(xs); return `median ${s.median.toFixed(0)} ms (min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)})`; };
  console.log(`newest page of 50 over ${total} records in ${PARTITIONS} partitions: ${fmt(newest)}`);
  console.log(`search by key for the oldest record: ${fmt(search)}, ${requests} requests`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
