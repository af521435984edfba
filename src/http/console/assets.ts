/**
 * The console page's files (bundled by scripts/bundle-console.mjs into dist/console/) and gregor's version, found
 * from this module: dist/src/http/console/ unbundled, dist/ when bundled into dist/gregor.mjs. Read once, on the
 * first request for the page, and kept (they are a few tens of kB).
 */
import { readFileSync } from 'node:fs';

export interface PageFile {
  readonly type: string;
  readonly body: Buffer;
}

const PAGE_FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

function firstReadable(candidates: readonly string[]): { url: URL; body: Buffer } | undefined {
  for (const relative of candidates) {
    const url = new URL(relative, import.meta.url);
    try {
      return { url, body: readFileSync(url) };
    } catch {
      // Not at this level: try the next.
    }
  }
  return undefined;
}

let files: Map<string, PageFile> | undefined;

/** The page's files by name; empty when the page was not built (npm run build makes it). */
export function pageFiles(): ReadonlyMap<string, PageFile> {
  if (files !== undefined) return files;
  files = new Map();
  for (const [name, type] of Object.entries(PAGE_FILES)) {
    const found = firstReadable([`../../../console/${name}`, `./console/${name}`]);
    if (found !== undefined) files.set(name, { type, body: found.body });
  }
  return files;
}

let version: string | undefined;

export function gregorVersion(): string {
  if (version !== undefined) return version;
  const found = firstReadable(['../../../../package.json', '../package.json']);
  const pkg = found === undefined ? {} : (JSON.parse(found.body.toString('utf8')) as { name?: string; version?: string });
  version = pkg.name === 'gregor' ? (pkg.version ?? 'unknown') : 'unknown';
  return version;
}
