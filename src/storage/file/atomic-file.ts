// Small metadata files (checkpoints, partition.metadata, meta.properties, topic configs) are replaced
// atomically, as Kafka does: write a temp file, fsync it, rename over the old one, fsync the directory.
import { rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { withShortLivedFile } from './segment-file-pool.js';

/** `tmp` is Kafka's `<file>.tmp` unless the caller names one (a long name's own would not fit in 255 bytes). */
export async function writeFileAtomic(path: string, contents: string, tmp = `${path}.tmp`): Promise<void> {
  await withShortLivedFile(tmp, 'w', async (file) => {
    await file.writeFile(contents, 'utf8');
    await file.sync();
  });
  await rename(tmp, path);
  await syncDirectory(dirname(path));
}

/** Make a rename or a new file durable: fsync the directory that holds it. */
export async function syncDirectory(dir: string): Promise<void> {
  await withShortLivedFile(dir, 'r', async (handle) => {
    try {
      await handle.sync();
    } catch {
      // Some filesystems refuse fsync on directories; the rename is then as durable as they make it.
    }
  });
}

/** The file's text, or undefined when it does not exist. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await withShortLivedFile(path, 'r', (file) => file.readFile('utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
