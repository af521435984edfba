// Bundles the `gregor` command (dist/src/cli/main.js and everything it loads) into one file,
// dist/gregor.mjs. One file instead of ~300 ES modules starts about a third faster and keeps
// ~6 MB less resident (measured in BENCHMARKS.md, "Start-up and idle memory"). Packages with
// native add-ons stay outside, loaded from node_modules when first used; pino-pretty too, as it
// is loaded only for a terminal.
// Code behind an import() (the lazily registered APIs' handlers) stays in this one file as modules
// initialised on first use: never run, it is never compiled. Splitting it into chunk
// files (`splitting: true`) was measured ~2 MB worse idle, the ESM loader's cost per module outweighing
// the source left unread.
import { build } from 'esbuild';

// etcd3 (cluster mode only, imported lazily) reads its .proto files beside its own modules.
const EXTERNAL = ['lz4-napi', 'snappy', '@toondepauw/node-zstd', '@node-rs/*', 'fs-native-extensions', 'pino-pretty', 'etcd3'];

// The yargs command (help, `configs`, unusual command lines) is a second file, dist/gregor-command.mjs. In
// the same file its imports of node's assert, util and url would be hoisted to the top, where they load
// at every start (~0.3 MB of idle RSS) though yargs itself is never initialised.
const COMMAND_BUNDLE = 'gregor-command.mjs';
const commandAsSecondFile = {
  name: 'command-as-second-file',
  setup(b) {
    b.onResolve({ filter: /^\.\/command\.js$/ }, (args) =>
      args.importer.endsWith('/cli/main.js') ? { path: `./${COMMAND_BUNDLE}`, external: true } : undefined);
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  external: EXTERNAL,
  // The CommonJS dependencies (pino, yargs' helpers) call require(); an ES module has none.
  banner: { js: "import { createRequire as createRequireForBundle } from 'node:module';\nconst require = createRequireForBundle(import.meta.url);" },
  // Without whitespace and comments the source V8 keeps is a third smaller, and plain ASCII (stored one
  // byte per character, where a single arrow in a comment would make it two). The map gives stack traces
  // their original lines under `node --enable-source-maps`.
  minifyWhitespace: true,
  // Short local names make the kept source a third smaller again (idle RSS ~0.9 MB less); keepNames
  // leaves functions and classes their names, so stack traces and error names still read as written.
  minifyIdentifiers: true,
  minifySyntax: true,
  keepNames: true,
  sourcemap: true,
  logLevel: 'warning',
};

await build({ ...common, entryPoints: ['dist/src/cli/main.js'], outfile: 'dist/gregor.mjs', plugins: [commandAsSecondFile] });
await build({ ...common, entryPoints: ['dist/src/cli/command.js'], outfile: `dist/${COMMAND_BUNDLE}` });
