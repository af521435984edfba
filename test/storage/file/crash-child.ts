// Child process for the SIGKILL test: appends batches forever to `<logDir>`, printing each acknowledged
// batch's last offset once append() resolved (the bytes are then in the OS).
import { FileLogStore } from '../../../src/storage/file/file-store.js';
import { encodeRecordBatch } from '../../../src/protocol/records/record.js';

const logDir = process.argv[2]!;
const store = await FileLogStore.open({ logDir, nodeId: 1 });
if (store.topic('crash') === undefined) await store.createTopic('crash', 1, { 'internal.segment.bytes': '20000' });
const log = store.log('crash', 0)!;
for (let i = 0; ; i++) {
  const records = Array.from({ length: 1 + (i % 5) }, (_, j) => ({ timestamp: 1_000 + i, key: Buffer.from(`k${j}`), value: Buffer.alloc(50 + ((i * 37) % 400), i % 251) }));
  const r = await log.append(encodeRecordBatch({ records }), { leaderEpoch: 0 });
  process.stdout.write(`${r.lastOffset}\n`);
}
