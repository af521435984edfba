// Child process for the cleaner crash test: builds a compacted log in <logDir>, then cleans it, printing
// each step of the segment swap; at step number <killAt> it SIGKILLs itself (a kill -9 at that point).
import { FileLogStore } from '../../../src/storage/file/file-store.js';
import { appendAll, batch } from './helpers.js';

const logDir = process.argv[2]!;
const killAt = Number(process.argv[3]);
let steps = 0;
const store = await FileLogStore.open({
  logDir,
  nodeId: 1,
  cleanerSwapStep: (step) => {
    process.stdout.write(`${step}\n`);
    if (steps++ === killAt) process.kill(process.pid, 'SIGKILL');
  },
});
await store.createTopic('c', 1, { 'cleanup.policy': 'compact', 'internal.segment.bytes': '1000', 'min.cleanable.dirty.ratio': '0.01' });
const log = store.log('c', 0)!;
// 4 keys written 4 times each, 300-byte values: about 3 records per segment.
const batches = [];
for (let i = 0; i < 16; i++) batches.push(batch([{ key: `k${i % 4}`, value: `${i}`.padEnd(300, '.') }]));
await appendAll(log, batches);
await log.flush();
store.startBackground({ cleaner: { backoffMs: 1e9, dedupeBufferSize: 1 << 16 } });
await store.logCleaner!.kick();
process.stdout.write('done\n');
await store.close();
