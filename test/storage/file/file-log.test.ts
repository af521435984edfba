import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { openFileLog } from '../../../src/storage/file/file-log.js';
import { runLogContract } from '../log-contract.js';

const root = mkdtempSync(join(tmpdir(), 'gregor-file-log-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

runLogContract('file', async (config, scheduler) => {
  const { log } = await openFileLog({
    dir: join(root, `t-${n++}`),
    topic: 't',
    partition: 0,
    config,
    scheduler,
    clean: false,
    recoveryPoint: 0,
    logStartOffset: 0,
  });
  return log;
});
