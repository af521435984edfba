import { createMemoryLog } from '../../../src/storage/memory/memory-log.js';
import { runLogContract } from '../log-contract.js';

runLogContract('memory', async (config, scheduler) => createMemoryLog('t', 0, config, scheduler));
