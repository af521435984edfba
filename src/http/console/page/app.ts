// The console page: a hash-routed single page over /console/api (console-routes.ts), no framework. Each view
// renders into <main> and re-reads its data every POLL_MS while the tab is visible; the message browser reads on
// demand and follows the live tail over Server-Sent Events. Keyboard: 1-8 sections, / filter, j/k rows, Enter
// opens, n new, Delete deletes, Esc closes, ? help.

const API = '/console/api';
const POLL_MS = 2000;

// ---- small DOM helpers ----

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | ((e: Event) => void) | undefined>;

function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === 'class') el.className = String(v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

const $ = <T extends Element = HTMLElement>(sel: string, root: ParentNode = document): T | null => root.querySelector<T>(sel);

function toast(text: string, bad = false): void {
  const el = $('#toast')!;
  el.textContent = text;
  el.className = bad ? 'show bad' : 'show';
  window.clearTimeout((el as HTMLElement & { timer?: number }).timer);
  (el as HTMLElement & { timer?: number }).timer = window.setTimeout(() => (el.className = ''), bad ? 8000 : 3000);
}

// ---- formatting ----

const fmtInt = (n: number): string => n.toLocaleString('en-US');
function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) (v /= 1024), u++;
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}
function fmtMs(ms: number): string {
  if (ms < 0) return '∞';
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(0)} s`;
  if (s < 3600) return `${(s / 60).toFixed(0)} min`;
  if (s < 86400) return `${(s / 3600).toFixed(1).replace(/\.0$/, '')} h`;
  return `${(s / 86400).toFixed(1).replace(/\.0$/, '')} d`;
}
const fmtTime = (ms: number): string => (ms < 0 ? '-' : new Date(ms).toISOString().replace('T', ' ').replace('Z', ''));

// ---- the API ----

class ApiError extends Error {}

async function api<T>(path: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const response = await fetch(API + path, {
    method: init?.method ?? 'GET',
    headers: init?.body === undefined ? {} : { 'content-type': 'application/json' },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok) throw new ApiError(body.error ?? `${response.status} ${response.statusText}`);
  return body as T;
}

const enc = encodeURIComponent;

interface Overview {
  clusterId: string; controllerId: number; version: string; uptimeMs: number; topics: number; partitions: number; sizeBytes: number;
  brokers: { nodeId: number; host: string; port: number; listener: string }[];
  features: { name: string; level: number; minVersion: number; maxVersion: number }[];
  throughput: { messagesPerSec: number; bytesPerSec: number };
}
interface TopicSummary {
  name: string; topicId: string; internal: boolean; partitions: number; sizeBytes: number; messages: number; retentionMs: number; retentionBytes: number; cleanupPolicy: string;
}
interface ConfigEntry { name: string; value: string | null; source: string; readOnly: boolean; sensitive: boolean; documentation: string | null }
interface TopicDetail extends TopicSummary {
  partitionDetails: { partition: number; logStartOffset: number; highWatermark: number; logEndOffset: number; sizeBytes: number; leader: number }[];
  configs: ConfigEntry[];
  producers: { partition: number; producerId: number; producerEpoch: number; lastSequence: number; lastTimestamp: number; currentTxnStartOffset: number }[];
}
interface ShownBytes { b64: string | null; size: number }
interface ShownRecord {
  partition: number; offset: number; timestamp: number; timestampType: string; key: ShownBytes; value: ShownBytes;
  headers: { key: string; value: ShownBytes }[]; producerId: number; transactional: boolean;
}
interface BrowseResult { records: ShownRecord[]; next: Record<string, number>; done: boolean; scannedBytes: number }
interface ListedGroup { groupId: string; type: string; protocolType: string; state: string }
interface GroupDetail extends ListedGroup {
  protocol: string; coordinator: number; totalLag: number;
  members: { memberId: string; instanceId: string | null; clientId: string; host: string; assignment: Record<string, number[]> }[];
  offsets: { topic: string; partition: number; committed: number | null; logEndOffset: number; lag: number | null; memberId: string | null }[];
}
interface ClusterInfo {
  mode: 'single' | 'cluster'; clusterId: string; controllerId: number; underReplicated: number; offline: number;
  brokers: { nodeId: number; rack: string | null; controller: boolean; self: boolean; endpoints: { listener: string; host: string; port: number }[] }[];
  partitions: { topic: string; partition: number; leader: number; leaderEpoch: number; replicas: number[]; isr: number[]; offline: number[]; underReplicated: boolean; leaderless: boolean }[];
}
interface Acl { resourceType: string; resourceName: string; patternType: string; principal: string; host: string; operation: string; permissionType: string }
interface ScramUser { user: string; credentials: { mechanism: string; iterations: number }[] }
interface Txn { transactionalId: string; producerId: number; producerEpoch: number; state: string; timeoutMs: number; startTimeMs: number; partitions: Record<string, number[]> }

// ---- bytes shown as text, JSON or hex ----

type Format = 'text' | 'json' | 'hex';
const utf8 = new TextDecoder('utf-8', { fatal: true });

function bytesOf(b: ShownBytes): Uint8Array | null {
  if (b.b64 === null) return null;
  const raw = atob(b.b64);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}
function hexOf(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    const row = bytes.subarray(i, i + 16);
    const hex = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = [...row].map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${i.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return lines.join('\n');
}
/** The best format for these bytes: JSON when they parse as JSON, text when UTF-8, else hex. */
function render(b: ShownBytes, format: Format | 'auto'): { text: string; format: Format } {
  const bytes = bytesOf(b);
  if (bytes === null) return { text: 'null', format: 'text' };
  let text: string | null = null;
  try {
    text = utf8.decode(bytes);
  } catch {
    text = null;
  }
  const cut = b.size > bytes.length ? `\n… ${fmtInt(b.size - bytes.length)} more bytes` : '';
  if ((format === 'auto' || format === 'json') && text !== null) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (format === 'json' || typeof parsed === 'object') return { text: JSON.stringify(parsed, null, 2) + cut, format: 'json' };
    } catch {
      if (format === 'json') return { text: '(not JSON)\n' + text + cut, format: 'json' };
    }
  }
  if (format !== 'hex' && text !== null) return { text: text + cut, format: 'text' };
  return { text: hexOf(bytes) + cut, format: 'hex' };
}
function preview(b: ShownBytes): string {
  const bytes = bytesOf(b);
  if (bytes === null) return 'null';
  try {
    const text = utf8.decode(bytes.subarray(0, 300));
    return text.length > 200 ? text.slice(0, 200) + '…' : text;
  } catch {
    return hexOf(bytes.subarray(0, 16)).slice(10, 57) + (bytes.length > 16 ? ' …' : '');
  }
}

// ---- views and polling ----

let stopView: (() => void) | null = null;

/** Runs `load` now and every POLL_MS while the tab is visible, until the view changes. */
function poll(load: () => Promise<void>): () => void {
  let timer = 0;
  let stopped = false;
  const run = async (): Promise<void> => {
    if (stopped) return;
    if (document.visibilityState === 'visible') {
      try {
        await load();
        $('#live-dot')!.className = 'dot on';
      } catch (err) {
        $('#live-dot')!.className = 'dot off';
        if (err instanceof ApiError) toast(err.message, true);
      }
    }
    if (!stopped) timer = window.setTimeout(run, POLL_MS);
  };
  void run();
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}

function page(title: string, ...rest: (Child | Child[])[]): HTMLElement {
  const main = $('#main')!;
  main.replaceChildren(h('header', { class: 'page-head' }, h('h1', {}, title), ...rest.flat()));
  return main;
}

/** A table whose body is replaced on each refresh while the focused row (by key) stays focused. */
function table(head: string[], id: string, numeric: number[] = []): { el: HTMLTableElement; fill: (rows: HTMLTableRowElement[]) => void } {
  const el = h('table', { id, class: 'grid' }, h('thead', {}, h('tr', {}, head.map((c, i) => h('th', { class: numeric.includes(i) ? 'num' : '' }, c)))), h('tbody'));
  const fill = (rows: HTMLTableRowElement[]): void => {
    const focusedKey = (document.activeElement as HTMLElement | null)?.closest('tr')?.dataset['key'];
    for (const row of rows) for (const i of numeric) row.children[i]?.classList.add('num');
    el.tBodies[0]!.replaceChildren(...rows);
    if (rows.length === 0) el.tBodies[0]!.append(h('tr', {}, h('td', { colspan: head.length, class: 'empty' }, 'Nothing here yet')));
    if (focusedKey !== undefined) el.querySelector<HTMLElement>(`tr[data-key="${CSS.escape(focusedKey)}"]`)?.focus();
  };
  return { el, fill };
}

/** A row that opens `href` on click or Enter. */
function linkRow(key: string, href: string, ...cells: Child[]): HTMLTableRowElement {
  const open = (): void => void (location.hash = href);
  return h('tr', { 'data-key': key, tabindex: 0, class: 'link-row', onclick: open, onkeydown: (e) => (e as KeyboardEvent).key === 'Enter' && open() },
    cells.map((c) => h('td', {}, c)));
}

function row(key: string, ...cells: Child[]): HTMLTableRowElement {
  return h('tr', { 'data-key': key, tabindex: 0 }, cells.map((c) => h('td', {}, c)));
}

function stat(label: string, value: Child, id?: string): HTMLElement {
  return h('div', { class: 'stat' }, h('div', { class: 'stat-label' }, label), h('div', { class: 'stat-value', id }, value));
}

// ---- dialogs ----

function dialog(title: string, body: HTMLElement[], submitLabel: string, onSubmit: (form: HTMLFormElement) => Promise<void>, danger = false): void {
  const error = h('p', { class: 'form-error', role: 'alert' });
  const form = h('form', { class: 'dialog-form', method: 'dialog' },
    h('h2', {}, title), ...body, error,
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'secondary', onclick: () => dlg.close() }, 'Cancel'),
      h('button', { type: 'submit', class: danger ? 'danger' : 'primary' }, submitLabel)));
  const dlg = h('dialog', { class: 'dialog' }, form);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    const button = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
    button.disabled = true;
    try {
      await onSubmit(form);
      dlg.close();
    } catch (err) {
      error.textContent = (err as Error).message;
    } finally {
      button.disabled = false;
    }
  });
  dlg.addEventListener('close', () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
  // The first field, or for a confirmation (no field) its button: Enter confirms what the keyboard asked for.
  (form.querySelector<HTMLElement>('input, select, textarea') ?? form.querySelector<HTMLElement>('button[type=submit]'))?.focus();
}

function field(label: string, input: HTMLElement, hint?: string): HTMLElement {
  return h('label', { class: 'field' }, h('span', {}, label), input, hint === undefined ? null : h('small', {}, hint));
}
const value = (form: HTMLFormElement, name: string): string => (form.elements.namedItem(name) as HTMLInputElement).value;

/** "k=v" lines → an object. */
function pairs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t === '') continue;
    const i = t.indexOf('=');
    if (i <= 0) throw new Error(`"${t}" is not key=value`);
    out[t.slice(0, i).trim()] = t.slice(i + 1);
  }
  return out;
}

// ---- overview ----

function overviewView(): () => void {
  const body = h('div', { class: 'cards' });
  const brokers = table(['Node', 'Listener', 'Host', 'Port', 'Role'], 'brokers');
  const features = table(['Feature', 'Finalized level', 'Supported'], 'features', [1]);
  page('Overview');
  $('#main')!.append(body, h('section', {}, h('h2', {}, 'Brokers'), brokers.el), h('section', {}, h('h2', {}, 'Features'), features.el));
  return poll(async () => {
    const o = await api<Overview>('/overview');
    $('#cluster-id')!.textContent = o.clusterId;
    body.replaceChildren(
      stat('Cluster id', o.clusterId, 'ov-cluster'), stat('Version', o.version), stat('Uptime', fmtMs(o.uptimeMs)),
      stat('Topics', fmtInt(o.topics), 'ov-topics'), stat('Partitions', fmtInt(o.partitions)), stat('Size on disk', fmtBytes(o.sizeBytes)),
      stat('Messages in', `${fmtInt(Math.round(o.throughput.messagesPerSec))}/s`, 'ov-rate'), stat('Bytes in', `${fmtBytes(Math.round(o.throughput.bytesPerSec))}/s`));
    brokers.fill(o.brokers.map((b) => row(`${b.listener}`, b.nodeId, b.listener, b.host, b.port, b.nodeId === o.controllerId ? 'broker, controller' : 'broker')));
    features.fill(o.features.map((f) => row(f.name, f.name, f.level, `${f.minVersion}–${f.maxVersion}`)));
  });
}

// ---- topics ----

function topicsView(): () => void {
  let showInternal = false;
  let latest: TopicSummary[] = [];
  const filter = h('input', { type: 'search', id: 'topic-filter', placeholder: 'Filter topics  /', 'aria-label': 'Filter topics', oninput: () => draw() });
  const internal = h('label', { class: 'check' }, h('input', { type: 'checkbox', onchange: (e) => ((showInternal = (e.target as HTMLInputElement).checked), draw()) }), 'internal');
  const t = table(['Topic', 'Partitions', 'Messages', 'Size', 'Retention', 'Cleanup'], 'topics', [1, 2, 3]);
  const draw = (): void => {
    const q = filter.value.toLowerCase();
    t.fill(latest.filter((x) => (showInternal || !x.internal) && x.name.toLowerCase().includes(q)).map((x) =>
      linkRow(x.name, `#/topics/${enc(x.name)}`, h('span', { class: 'mono' }, x.name), x.partitions, fmtInt(x.messages), fmtBytes(x.sizeBytes),
        x.retentionMs < 0 ? '∞' : fmtMs(x.retentionMs) + (x.retentionBytes >= 0 ? ` / ${fmtBytes(x.retentionBytes)}` : ''), x.cleanupPolicy)));
  };
  page('Topics', h('div', { class: 'tools' }, filter, internal, h('button', { class: 'primary', id: 'create-topic', onclick: createTopicDialog }, 'Create topic')));
  $('#main')!.append(t.el);
  return poll(async () => {
    latest = await api<TopicSummary[]>('/topics');
    draw();
  });
}

function createTopicDialog(): void {
  dialog('Create topic', [
    field('Name', h('input', { name: 'name', required: true, autocomplete: 'off' })),
    field('Partitions', h('input', { name: 'partitions', type: 'number', min: 1, placeholder: 'broker default (num.partitions)' })),
    field('Configs', h('textarea', { name: 'configs', rows: 3, placeholder: 'retention.ms=86400000\ncleanup.policy=compact' }), 'one key=value a line'),
  ], 'Create', async (form) => {
    const partitions = value(form, 'partitions');
    const name = value(form, 'name');
    await api('/topics', { method: 'POST', body: { name, ...(partitions === '' ? {} : { partitions: Number(partitions) }), configs: pairs(value(form, 'configs')) } });
    toast(`Created ${name}`);
    location.hash = `#/topics/${enc(name)}`;
  });
}

function topicView(name: string, tab: string): () => void {
  const tabs = ['messages', 'partitions', 'configs', 'producers'];
  const tabBar = h('div', { class: 'tabs', role: 'tablist' }, tabs.map((t) => h('a', {
    href: `#/topics/${enc(name)}/${t}`, role: 'tab', class: t === tab ? 'active' : '', 'aria-selected': t === tab ? 'true' : 'false',
  }, t[0]!.toUpperCase() + t.slice(1))));
  const summary = h('div', { class: 'cards small' });
  page(name,
    h('div', { class: 'tools' },
      h('button', { onclick: () => produceDialog(name, () => onProduced()), id: 'produce', class: 'primary' }, 'Produce'),
      h('button', { onclick: () => addPartitionsDialog(name) }, 'Add partitions'),
      h('button', { onclick: () => deleteRecordsDialog(name) }, 'Delete records'),
      h('button', { class: 'danger', onclick: () => deleteTopicDialog(name) }, 'Delete topic')));
  const main = $('#main')!;
  main.append(summary, tabBar);
  const content = h('div', { class: 'tab-content' });
  main.append(content);
  let detail: TopicDetail | undefined;
  /** After a produce from the page, the browser shows it (it reads on demand only). */
  let onProduced = (): void => {};
  const drawSummary = (d: TopicDetail): void => summary.replaceChildren(stat('Partitions', d.partitions, 'tp-partitions'), stat('Messages', fmtInt(d.messages), 'tp-messages'),
    stat('Size', fmtBytes(d.sizeBytes)), stat('Retention', d.retentionMs < 0 ? '∞' : fmtMs(d.retentionMs)), stat('Cleanup', d.cleanupPolicy), stat('Topic id', h('span', { class: 'mono' }, d.topicId)));
  if (tab === 'messages') {
    const stopPoll = poll(async () => {
      detail = await api<TopicDetail>(`/topics/${enc(name)}`);
      drawSummary(detail);
      browser.partitions(detail.partitions);
    });
    const browser = messageBrowser(name, content);
    onProduced = browser.reload;
    return () => (stopPoll(), browser.stop());
  }
  const t = tab === 'partitions' ? table(['Partition', 'Leader', 'Log start', 'High watermark', 'Log end', 'Messages', 'Size'], 'partitions', [0, 1, 2, 3, 4, 5, 6])
    : tab === 'configs' ? table(['Config', 'Value', 'Source', ''], 'configs')
      : table(['Partition', 'Producer id', 'Epoch', 'Last sequence', 'Last timestamp', 'Open txn from'], 'producers', [0, 1, 2, 3, 5]);
  const cfgFilter = h('input', { type: 'search', placeholder: 'Filter configs  /', 'aria-label': 'Filter configs', oninput: () => detail && draw(detail) });
  if (tab === 'configs') content.append(h('div', { class: 'tools' }, cfgFilter));
  content.append(t.el);
  const draw = (d: TopicDetail): void => {
    if (tab === 'partitions') t.fill(d.partitionDetails.map((p) => row(String(p.partition), p.partition, p.leader, fmtInt(p.logStartOffset), fmtInt(p.highWatermark), fmtInt(p.logEndOffset), fmtInt(p.highWatermark - p.logStartOffset), fmtBytes(p.sizeBytes))));
    else if (tab === 'configs') t.fill(d.configs.filter((c) => c.name.includes(cfgFilter.value)).map((c) => configRow(c, `/topics/${enc(name)}/configs`, 'DYNAMIC_TOPIC_CONFIG')));
    else t.fill(d.producers.map((p) => row(`${p.partition}-${p.producerId}`, p.partition, p.producerId, p.producerEpoch, p.lastSequence, fmtTime(p.lastTimestamp), p.currentTxnStartOffset < 0 ? '-' : p.currentTxnStartOffset)));
  };
  return poll(async () => {
    detail = await api<TopicDetail>(`/topics/${enc(name)}`);
    drawSummary(detail);
    draw(detail);
  });
}

/**
 * A config row; a writable one is edited in place (Enter saves, Esc cancels), one set at this resource's own level
 * (`ownSource`: the topic's or the broker's dynamic config) reset to what lies beneath.
 */
function configRow(c: ConfigEntry, path: string, ownSource: string): HTMLTableRowElement {
  const overridden = c.source === ownSource;
  const valueCell = h('td', { class: 'mono wrap' }, c.sensitive ? '(sensitive)' : c.value ?? 'null');
  const edit = (): void => {
    const input = h('input', { value: c.value ?? '', class: 'mono', 'aria-label': `value of ${c.name}` });
    const save = async (): Promise<void> => {
      try {
        await api(path, { method: 'PATCH', body: { configs: { [c.name]: input.value } } });
        toast(`${c.name} set`);
      } catch (err) {
        toast((err as Error).message, true);
      }
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') void save();
      if (e.key === 'Escape') valueCell.replaceChildren(c.value ?? 'null');
    });
    valueCell.replaceChildren(input);
    input.focus();
  };
  const reset = async (): Promise<void> => {
    try {
      await api(path, { method: 'PATCH', body: { configs: { [c.name]: null } } });
      toast(`${c.name} back to its default`);
    } catch (err) {
      toast((err as Error).message, true);
    }
  };
  return h('tr', { 'data-key': c.name, tabindex: 0, title: c.documentation ?? '', onkeydown: (e) => (e as KeyboardEvent).key === 'e' && e.target === e.currentTarget && edit() },
    h('td', { class: 'mono' }, c.name), valueCell, h('td', {}, h('span', { class: c.source.startsWith('DYNAMIC') ? 'tag accent' : 'tag' }, c.source)),
    h('td', { class: 'row-actions' }, c.readOnly ? null : h('button', { class: 'small', onclick: edit }, 'Edit'),
      overridden ? h('button', { class: 'small', onclick: () => void reset() }, 'Reset') : null));
}

function produceDialog(topic: string, produced: () => void): void {
  dialog(`Produce to ${topic}`, [
    field('Partition', h('input', { name: 'partition', type: 'number', min: 0, placeholder: 'by key (murmur2), or round robin' })),
    field('Key', h('input', { name: 'key', autocomplete: 'off', placeholder: 'empty: null key' })),
    field('Value', h('textarea', { name: 'value', rows: 6, class: 'mono' })),
    field('Headers', h('textarea', { name: 'headers', rows: 2, class: 'mono', placeholder: 'trace-id=abc' }), 'one key=value a line'),
  ], 'Produce', async (form) => {
    const partition = value(form, 'partition');
    const key = value(form, 'key');
    const result = await api<{ partition: number; offset: number }>(`/topics/${enc(topic)}/messages`, {
      method: 'POST',
      body: {
        partition: partition === '' ? null : Number(partition), key: key === '' ? null : key, value: value(form, 'value'),
        headers: Object.entries(pairs(value(form, 'headers'))).map(([k, v]) => ({ key: k, value: v })),
      },
    });
    toast(`Produced to ${topic}-${result.partition} at offset ${result.offset}`);
    produced();
  });
}

function addPartitionsDialog(topic: string): void {
  dialog(`Add partitions to ${topic}`, [field('Total partitions', h('input', { name: 'total', type: 'number', min: 1, required: true }))], 'Add', async (form) => {
    await api(`/topics/${enc(topic)}/partitions`, { method: 'POST', body: { total: Number(value(form, 'total')) } });
    toast('Partitions added');
  });
}

function deleteRecordsDialog(topic: string): void {
  dialog(`Delete records of ${topic}`, [
    field('Partition', h('input', { name: 'partition', placeholder: 'all', type: 'number', min: 0 })),
    field('Before offset', h('input', { name: 'offset', placeholder: 'high watermark (everything)', type: 'number', min: 0 })),
  ], 'Delete records', async (form) => {
    const detail = await api<TopicDetail>(`/topics/${enc(topic)}`);
    const p = value(form, 'partition');
    const o = value(form, 'offset');
    const offsets: Record<number, number> = {};
    for (const d of detail.partitionDetails) if (p === '' || Number(p) === d.partition) offsets[d.partition] = o === '' ? -1 : Number(o);
    await api(`/topics/${enc(topic)}/delete-records`, { method: 'POST', body: { offsets } });
    toast('Records deleted');
  }, true);
}

function deleteTopicDialog(topic: string): void {
  dialog(`Delete topic ${topic}`, [field('Type the topic name to confirm', h('input', { name: 'confirm', autocomplete: 'off' }))], 'Delete', async (form) => {
    if (value(form, 'confirm') !== topic) throw new Error('the name typed is not the topic’s');
    await api(`/topics/${enc(topic)}`, { method: 'DELETE' });
    toast(`Deleted ${topic}`);
    location.hash = '#/topics';
  }, true);
}

// ---- the message browser ----

function messageBrowser(topic: string, root: HTMLElement): { partitions: (n: number) => void; reload: () => void; stop: () => void } {
  let partitionCount = -1;
  let format: Format | 'auto' = 'auto';
  let cursor: Record<string, number> | null = null;
  let tail: EventSource | null = null;
  let searching = 0;
  const partition = h('select', { 'aria-label': 'Partition', id: 'mb-partition' }, h('option', { value: '' }, 'All partitions'));
  const from = h('select', { 'aria-label': 'Start from', id: 'mb-from', onchange: () => fromChanged() },
    h('option', { value: 'newest' }, 'Newest'), h('option', { value: 'offset' }, 'From offset'), h('option', { value: 'timestamp' }, 'From time'));
  const at = h('input', { 'aria-label': 'Offset or time', id: 'mb-at', hidden: true, class: 'mono' });
  const key = h('input', { type: 'search', placeholder: 'Key contains  /', 'aria-label': 'Key contains', id: 'mb-key', class: 'mono' });
  const val = h('input', { type: 'search', placeholder: 'Value contains', 'aria-label': 'Value contains', id: 'mb-value', class: 'mono' });
  const hdr = h('input', { type: 'search', placeholder: 'Header contains', 'aria-label': 'Header contains', id: 'mb-header', class: 'mono' });
  const limit = h('select', { 'aria-label': 'Page size' }, [50, 100, 200, 500].map((n) => h('option', { value: n }, `${n} / page`)));
  const fmt = h('select', { 'aria-label': 'Show values as', id: 'mb-format', onchange: () => ((format = fmt.value as Format | 'auto'), redraw()) },
    h('option', { value: 'auto' }, 'Auto'), h('option', { value: 'text' }, 'Text'), h('option', { value: 'json' }, 'JSON'), h('option', { value: 'hex' }, 'Hex'));
  const tailButton = h('button', { type: 'button', id: 'mb-tail', 'aria-pressed': 'false', onclick: () => toggleTail() }, 'Live tail');
  const status = h('span', { class: 'muted', id: 'mb-status', 'aria-live': 'polite' });
  const more = h('button', { id: 'mb-more', hidden: true, onclick: () => void load(true) }, 'Older');
  const t = table(['Partition', 'Offset', 'Timestamp (UTC)', 'Key', 'Value', 'Headers'], 'messages', [0, 1]);
  const shown: ShownRecord[] = [];
  const form = h('form', { class: 'tools browser-tools', onsubmit: (e) => (e.preventDefault(), void load(false)) },
    partition, from, at, key, val, hdr, limit, h('button', { type: 'submit', class: 'primary', id: 'mb-search' }, 'Search'), tailButton, fmt, status);
  root.append(form, t.el, h('div', { class: 'tools' }, more));

  function fromChanged(): void {
    at.hidden = from.value === 'newest';
    at.placeholder = from.value === 'offset' ? 'offset' : 'YYYY-MM-DD HH:MM:SS (UTC) or ms';
    if (!at.hidden) at.focus();
  }

  function recordRow(r: ShownRecord): HTMLTableRowElement {
    const k = `${r.partition}-${r.offset}`;
    const tr = h('tr', { 'data-key': k, tabindex: 0, class: 'link-row' },
      h('td', {}, r.partition), h('td', {}, r.offset), h('td', { class: 'nowrap' }, fmtTime(r.timestamp)),
      h('td', { class: 'mono clip key' }, preview(r.key)), h('td', { class: 'mono clip val' }, preview(r.value)), h('td', {}, r.headers.length || ''));
    const open = (): void => {
      const next = tr.nextElementSibling;
      if (next?.classList.contains('detail')) return void next.remove();
      const v = render(r.value, format);
      tr.after(h('tr', { class: 'detail' }, h('td', { colspan: 6 },
        h('div', { class: 'detail-grid' },
          h('div', {}, h('h3', {}, 'Key'), h('pre', {}, render(r.key, format === 'hex' ? 'hex' : 'text').text)),
          h('div', {}, h('h3', {}, `Value (${v.format}${r.value.size >= 0 ? `, ${fmtBytes(r.value.size)}` : ''})`), h('pre', { class: 'value' }, v.text)),
          h('div', {}, h('h3', {}, 'Headers'), r.headers.length === 0 ? h('p', { class: 'muted' }, 'none')
            : h('table', { class: 'kv' }, r.headers.map((x) => h('tr', {}, h('td', { class: 'mono' }, x.key), h('td', { class: 'mono' }, render(x.value, 'text').text))))),
          h('div', { class: 'muted' }, `${r.timestampType} ${fmtTime(r.timestamp)} (${r.timestamp})`, r.producerId >= 0 ? ` · producer ${r.producerId}` : '', r.transactional ? ' · transactional' : '')))));
    };
    tr.addEventListener('click', open);
    tr.addEventListener('keydown', (e) => e.key === 'Enter' && open());
    return tr;
  }
  function redraw(): void {
    t.fill(shown.map(recordRow));
  }

  function query(older: boolean): string {
    const q = new URLSearchParams();
    if (partition.value !== '') q.set('partition', partition.value);
    q.set('limit', limit.value);
    if (from.value === 'offset') q.set('offset', at.value.trim() === '' ? '0' : at.value.trim());
    if (from.value === 'timestamp') {
      const raw = at.value.trim();
      const ms = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw.replace(' ', 'T') + (raw.endsWith('Z') ? '' : 'Z'));
      if (!Number.isFinite(ms)) throw new ApiError('the time is not YYYY-MM-DD HH:MM:SS or milliseconds');
      q.set('timestamp', String(ms));
    }
    q.set('from', from.value);
    if (older && cursor !== null) q.set('cursor', JSON.stringify(cursor));
    for (const [name, input] of [['key', key], ['value', val], ['header', hdr]] as const) if (input.value !== '') q.set(name, input.value);
    return q.toString();
  }

  /** One page; with a filter, pages that found nothing yet go on (each bounded by the server) until some are found. */
  async function load(older: boolean): Promise<void> {
    const run = ++searching;
    if (!older) {
      shown.length = 0;
      cursor = null;
    }
    let scanned = 0;
    try {
      for (;;) {
        const result = await api<BrowseResult>(`/topics/${enc(topic)}/messages?${query(older || cursor !== null)}`);
        if (run !== searching) return;
        scanned += result.scannedBytes;
        shown.push(...result.records);
        cursor = result.next;
        more.hidden = result.done;
        more.textContent = from.value === 'newest' ? 'Older' : 'Newer';
        const found = result.records.length;
        status.textContent = `${fmtInt(shown.length)} shown${scanned > 0 ? ` · ${fmtBytes(scanned)} read` : ''}${result.done ? ' · end' : ''}`;
        redraw();
        if (found > 0 || result.done) break;
        status.textContent = `searching… ${fmtBytes(scanned)} read`;
      }
    } catch (err) {
      status.textContent = '';
      toast((err as Error).message, true);
    }
  }

  function toggleTail(): void {
    if (tail !== null) {
      tail.close();
      tail = null;
      tailButton.setAttribute('aria-pressed', 'false');
      tailButton.classList.remove('on');
      status.textContent = 'tail stopped';
      return;
    }
    const q = new URLSearchParams();
    if (partition.value !== '') q.set('partition', partition.value);
    for (const [name, input] of [['key', key], ['value', val], ['header', hdr]] as const) if (input.value !== '') q.set(name, input.value);
    tail = new EventSource(`${API}/topics/${enc(topic)}/tail?${q}`);
    tailButton.setAttribute('aria-pressed', 'true');
    tailButton.classList.add('on');
    // Following only once the stream is open: the server fixes where the tail starts before it answers, so a record
    // produced after this status shows is never missed.
    status.textContent = 'connecting the tail…';
    tail.onopen = () => (status.textContent = 'following new messages…');
    tail.addEventListener('records', (e) => {
      const records = (JSON.parse((e as MessageEvent).data as string) as { records: ShownRecord[] }).records;
      if (records.length === 0) return;
      shown.unshift(...records.reverse());
      if (shown.length > 1000) shown.length = 1000;
      redraw();
      status.textContent = `following · ${fmtInt(shown.length)} shown`;
    });
    tail.addEventListener('skipped', (e) => {
      const s = JSON.parse((e as MessageEvent).data as string) as { partition: number; count: number };
      status.textContent = `following · skipped ${fmtInt(s.count)} on partition ${s.partition}`;
    });
    tail.onerror = () => (status.textContent = 'tail reconnecting…');
  }

  void load(false);
  return {
    reload: () => void (tail === null && load(false)),
    partitions(n: number): void {
      if (n === partitionCount) return;
      partitionCount = n;
      const selected = partition.value;
      partition.replaceChildren(h('option', { value: '' }, 'All partitions'), ...Array.from({ length: n }, (_, p) => h('option', { value: p }, `Partition ${p}`)));
      partition.value = selected;
    },
    stop(): void {
      searching++;
      tail?.close();
    },
  };
}

// ---- consumer groups ----

function groupsView(): () => void {
  const filter = h('input', { type: 'search', placeholder: 'Filter groups  /', 'aria-label': 'Filter groups', oninput: () => draw() });
  const t = table(['Group', 'Type', 'State', 'Protocol type'], 'groups');
  let latest: ListedGroup[] = [];
  const draw = (): void => t.fill(latest.filter((g) => g.groupId.toLowerCase().includes(filter.value.toLowerCase())).map((g) =>
    linkRow(g.groupId, `#/groups/${enc(g.groupId)}`, h('span', { class: 'mono' }, g.groupId), g.type, stateTag(g.state), g.protocolType)));
  page('Consumer groups', h('div', { class: 'tools' }, filter));
  $('#main')!.append(t.el);
  return poll(async () => {
    latest = await api<ListedGroup[]>('/groups');
    draw();
  });
}

function stateTag(state: string): HTMLElement {
  const cls = state === 'Stable' ? 'ok' : state === 'Empty' || state === 'Dead' ? '' : 'warn';
  return h('span', { class: `tag ${cls}` }, state);
}

function groupView(id: string): () => void {
  const summary = h('div', { class: 'cards small' });
  const members = table(['Member', 'Client id', 'Host', 'Assignment'], 'members');
  const offsets = table(['Topic', 'Partition', 'Committed', 'Log end', 'Lag', 'Member'], 'offsets', [1, 2, 3, 4]);
  const offsetsTitle = h('h2', {}, 'Offsets and lag');
  let detail: GroupDetail | undefined;
  page(id, h('div', { class: 'tools' },
    h('button', { id: 'reset-offsets', class: 'primary', onclick: () => detail && resetDialog(detail) }, 'Reset offsets'),
    h('button', { class: 'danger', id: 'delete-group', onclick: () => deleteGroupDialog(id) }, 'Delete group')));
  $('#main')!.append(summary, h('section', {}, offsetsTitle, offsets.el), h('section', {}, h('h2', {}, 'Members'), members.el));
  return poll(async () => {
    const g = (detail = await api<GroupDetail>(`/groups/${enc(id)}`));
    // A share group has no committed offsets: each partition's start offset (kafka-share-groups --describe's START-OFFSET).
    const share = g.type === 'share';
    offsetsTitle.textContent = share ? 'Start offsets and lag' : 'Offsets and lag';
    offsets.el.tHead!.rows[0]!.cells[2]!.textContent = share ? 'Start offset' : 'Committed';
    summary.replaceChildren(stat('State', stateTag(g.state), 'gr-state'), stat('Type', g.type), stat('Protocol', g.protocol || '-'),
      stat('Members', g.members.length), stat('Total lag', fmtInt(g.totalLag), 'gr-lag'), stat('Coordinator', g.coordinator));
    members.fill(g.members.map((m) => row(m.memberId, h('span', { class: 'mono' }, m.memberId), m.clientId, m.host,
      h('span', { class: 'mono' }, Object.entries(m.assignment).map(([topic, ps]) => `${topic}: ${ps.join(',')}`).join('  ')))));
    offsets.fill(g.offsets.map((o) => row(`${o.topic}-${o.partition}`, h('a', { href: `#/topics/${enc(o.topic)}` }, o.topic), o.partition,
      o.committed === null ? '-' : fmtInt(o.committed), fmtInt(o.logEndOffset), o.lag === null ? '-' : fmtInt(o.lag), h('span', { class: 'mono' }, o.memberId ?? '-'))));
  });
}

function resetDialog(g: GroupDetail): void {
  const topics = [...new Set(g.offsets.map((o) => o.topic))];
  const to = h('select', { name: 'to', onchange: () => ((at.hidden = to.value === 'earliest' || to.value === 'latest'), at.focus()) },
    h('option', { value: 'earliest' }, 'Earliest'), h('option', { value: 'latest' }, 'Latest'), h('option', { value: 'offset' }, 'Offset'), h('option', { value: 'timestamp' }, 'Time'));
  const at = h('input', { name: 'at', hidden: true, placeholder: 'offset, or YYYY-MM-DD HH:MM:SS (UTC) or ms', class: 'mono' });
  dialog(`Reset offsets of ${g.groupId}`, [
    field('Topic', h('select', { name: 'topic' }, h('option', { value: '' }, 'All committed partitions'), topics.map((t) => h('option', { value: t }, t)))),
    field('To', to), at,
    h('p', { class: 'muted' }, `As ${g.type === 'share' ? 'kafka-share-groups' : 'kafka-consumer-groups'} --reset-offsets --execute: the group must have no active members.`),
  ], 'Reset', async (form) => {
    const raw = value(form, 'at').trim();
    const body: Record<string, unknown> = { to: to.value, topic: value(form, 'topic') };
    if (to.value === 'offset') body['offset'] = Number(raw);
    if (to.value === 'timestamp') body['timestamp'] = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw.replace(' ', 'T') + 'Z');
    const result = await api<{ offsets: unknown[] }>(`/groups/${enc(g.groupId)}/reset-offsets`, { method: 'POST', body });
    toast(`Reset ${result.offsets.length} partition(s)`);
  });
}

function deleteGroupDialog(id: string): void {
  dialog(`Delete group ${id}`, [h('p', {}, 'Its committed offsets go with it. A group with members cannot be deleted.')], 'Delete', async () => {
    await api(`/groups/${enc(id)}`, { method: 'DELETE' });
    toast(`Deleted ${id}`);
    location.hash = '#/groups';
  }, true);
}

// ---- transactions, broker configs ----

function transactionsView(): () => void {
  const t = table(['Transactional id', 'State', 'Producer id', 'Epoch', 'Timeout', 'Started', 'Partitions'], 'transactions', [2, 3]);
  page('Transactions');
  $('#main')!.append(t.el);
  return poll(async () => {
    const txns = await api<Txn[]>('/transactions');
    t.fill(txns.map((x) => row(x.transactionalId, h('span', { class: 'mono' }, x.transactionalId), stateTag(x.state), x.producerId, x.producerEpoch, fmtMs(x.timeoutMs),
      fmtTime(x.startTimeMs), Object.entries(x.partitions).map(([topic, ps]) => `${topic}: ${ps.join(',')}`).join('  '))));
  });
}

function brokerView(): () => void {
  const filter = h('input', { type: 'search', placeholder: 'Filter configs  /', 'aria-label': 'Filter configs', oninput: () => draw() });
  const t = table(['Config', 'Value', 'Source', ''], 'broker-configs');
  let latest: ConfigEntry[] = [];
  const draw = (): void => t.fill(latest.filter((c) => c.name.includes(filter.value)).map((c) => configRow(c, '/broker/configs', 'DYNAMIC_BROKER_CONFIG')));
  page('Broker configs', h('div', { class: 'tools' }, filter));
  $('#main')!.append(t.el);
  return poll(async () => {
    latest = await api<ConfigEntry[]>('/broker/configs');
    draw();
  });
}

// ---- cluster, ACLs, users ----

function clusterView(): () => void {
  const summary = h('div', { class: 'cards small' });
  const brokers = table(['Node', 'Rack', 'Endpoints', 'Role'], 'cluster-brokers', [0]);
  const filter = h('input', { type: 'search', placeholder: 'Filter partitions  /', 'aria-label': 'Filter partitions', oninput: () => draw() });
  const troubled = h('input', { type: 'checkbox', id: 'cl-troubled', onchange: () => draw() });
  const partitions = table(['Topic', 'Partition', 'Leader', 'Epoch', 'Replicas', 'ISR', 'State'], 'cluster-partitions', [1, 2, 3]);
  let latest: ClusterInfo | undefined;
  const draw = (): void => {
    if (latest === undefined) return;
    const q = filter.value.toLowerCase();
    partitions.fill(latest.partitions.filter((p) => p.topic.toLowerCase().includes(q) && (!troubled.checked || p.underReplicated || p.leaderless)).map((p) =>
      row(`${p.topic}-${p.partition}`, h('a', { href: `#/topics/${enc(p.topic)}/partitions` }, p.topic), p.partition, p.leader < 0 ? 'none' : p.leader, p.leaderEpoch,
        p.replicas.join(', '), p.isr.join(', '),
        p.leaderless ? h('span', { class: 'tag bad' }, 'offline') : p.underReplicated ? h('span', { class: 'tag warn' }, 'under-replicated') : h('span', { class: 'tag ok' }, 'in sync'))));
  };
  page('Cluster', h('div', { class: 'tools' }, filter, h('label', { class: 'check' }, troubled, 'under-replicated or offline only')));
  $('#main')!.append(summary, h('section', {}, h('h2', {}, 'Brokers'), brokers.el), h('section', {}, h('h2', {}, 'Partitions'), partitions.el));
  return poll(async () => {
    const c = (latest = await api<ClusterInfo>('/cluster'));
    summary.replaceChildren(stat('Mode', c.mode === 'single' ? 'single broker' : 'cluster', 'cl-mode'), stat('Brokers', c.brokers.length, 'cl-brokers'),
      stat('Controller', c.controllerId < 0 ? 'none' : c.controllerId, 'cl-controller'), stat('Partitions', fmtInt(c.partitions.length)),
      stat('Under-replicated', fmtInt(c.underReplicated), 'cl-under'), stat('Offline', fmtInt(c.offline), 'cl-offline'));
    brokers.fill(c.brokers.map((b) => row(String(b.nodeId), b.nodeId, b.rack ?? '-',
      h('div', {}, b.endpoints.map((e) => h('div', { class: 'mono' }, `${e.listener} ${e.host}:${e.port}`))),
      (b.controller ? 'controller' : 'broker') + (b.self ? ' (this console)' : ''))));
    draw();
  });
}

const RESOURCE_TYPES = ['TOPIC', 'GROUP', 'CLUSTER', 'TRANSACTIONAL_ID', 'DELEGATION_TOKEN', 'USER'];
const OPERATIONS = ['ALL', 'READ', 'WRITE', 'CREATE', 'DELETE', 'ALTER', 'DESCRIBE', 'CLUSTER_ACTION', 'DESCRIBE_CONFIGS', 'ALTER_CONFIGS', 'IDEMPOTENT_WRITE',
  'CREATE_TOKENS', 'DESCRIBE_TOKENS', 'TWO_PHASE_COMMIT'];
const options = (values: string[], any?: string): HTMLOptionElement[] =>
  [...(any === undefined ? [] : [h('option', { value: '' }, any)]), ...values.map((v) => h('option', { value: v }, v))];

function aclsView(): () => void {
  const resourceType = h('select', { 'aria-label': 'Resource type', id: 'acl-type', onchange: () => void refresh().catch((err: Error) => toast(err.message, true)) },
    options(RESOURCE_TYPES, 'Any resource'));
  const principal = h('input', { type: 'search', placeholder: 'Principal  /', 'aria-label': 'Principal', id: 'acl-principal', class: 'mono', oninput: () => draw() });
  const name = h('input', { type: 'search', placeholder: 'Resource name', 'aria-label': 'Resource name', id: 'acl-name', class: 'mono', oninput: () => draw() });
  const t = table(['Resource', 'Name', 'Pattern', 'Principal', 'Host', 'Operation', 'Permission', ''], 'acls');
  let latest: Acl[] = [];
  const keyOf = (a: Acl): string => [a.resourceType, a.resourceName, a.patternType, a.principal, a.host, a.operation, a.permissionType].join('|');
  const draw = (): void => {
    const p = principal.value.toLowerCase();
    const n = name.value.toLowerCase();
    t.fill(latest.filter((a) => a.principal.toLowerCase().includes(p) && a.resourceName.toLowerCase().includes(n)).map((a) => {
      const remove = (): void => deleteAclDialog(a, () => void refresh());
      return h('tr', { 'data-key': keyOf(a), tabindex: 0, onkeydown: (e) => (e as KeyboardEvent).key === 'Delete' && e.target === e.currentTarget && remove() },
        h('td', {}, a.resourceType), h('td', { class: 'mono' }, a.resourceName), h('td', {}, a.patternType), h('td', { class: 'mono' }, a.principal),
        h('td', { class: 'mono' }, a.host), h('td', {}, a.operation),
        h('td', {}, h('span', { class: a.permissionType === 'ALLOW' ? 'tag ok' : 'tag bad' }, a.permissionType)),
        h('td', { class: 'row-actions' }, h('button', { class: 'small danger', onclick: remove }, 'Delete')));
    }));
  };
  const notice = h('p', { class: 'muted', id: 'acl-notice' }, 'The broker’s own ACLs, as kafka-acls --list shows them; changes go through CreateAcls and DeleteAcls.');
  const refresh = async (): Promise<void> => {
    try {
      latest = await api<Acl[]>(`/acls${resourceType.value === '' ? '' : `?resourceType=${enc(resourceType.value)}`}`);
    } catch (err) {
      // Said once on the page rather than in a toast at every poll.
      if (!(err instanceof ApiError) || !err.message.startsWith('SECURITY_DISABLED')) throw err;
      notice.textContent = 'No authorizer is configured on this broker (authorizer.class.name): it keeps no ACLs.';
      latest = [];
    }
    draw();
  };
  page('ACLs', h('div', { class: 'tools' }, resourceType, principal, name,
    h('button', { class: 'primary new', id: 'create-acl', onclick: () => createAclDialog(() => void refresh()) }, 'Add ACL')));
  $('#main')!.append(notice, t.el);
  return poll(refresh);
}

function createAclDialog(done: () => void): void {
  const type = h('select', { name: 'resourceType' }, options(RESOURCE_TYPES));
  const resourceName = h('input', { name: 'resourceName', required: true, autocomplete: 'off', class: 'mono', placeholder: 'a name, or * for all' });
  type.addEventListener('change', () => {
    if (type.value === 'CLUSTER') resourceName.value = 'kafka-cluster';
  });
  dialog('Add ACL', [
    field('Principal', h('input', { name: 'principal', required: true, autocomplete: 'off', class: 'mono', placeholder: 'User:alice' })),
    field('Resource type', type), field('Resource name', resourceName),
    field('Pattern', h('select', { name: 'patternType' }, options(['LITERAL', 'PREFIXED']))),
    field('Operation', h('select', { name: 'operation' }, options(OPERATIONS))),
    field('Permission', h('select', { name: 'permissionType' }, options(['ALLOW', 'DENY']))),
    field('Host', h('input', { name: 'host', value: '*', class: 'mono' }), '* for any host'),
  ], 'Add', async (form) => {
    const acl: Acl = {
      principal: value(form, 'principal').trim(), resourceType: value(form, 'resourceType'), resourceName: value(form, 'resourceName').trim(),
      patternType: value(form, 'patternType'), operation: value(form, 'operation'), permissionType: value(form, 'permissionType'), host: value(form, 'host').trim(),
    };
    await api('/acls', { method: 'POST', body: acl });
    toast(`ACL added: ${acl.permissionType} ${acl.principal} ${acl.operation} on ${acl.resourceType} ${acl.resourceName}`);
    done();
  });
}

function deleteAclDialog(a: Acl, done: () => void): void {
  dialog('Delete ACL', [h('p', {}, `${a.permissionType} ${a.principal} from ${a.host} ${a.operation} on ${a.resourceType} ${a.resourceName} (${a.patternType})`)], 'Delete', async () => {
    await api('/acls', { method: 'DELETE', body: a });
    toast('ACL deleted');
    done();
  }, true);
}

const MECHANISMS = ['SCRAM-SHA-256', 'SCRAM-SHA-512'];

function usersView(): () => void {
  const filter = h('input', { type: 'search', placeholder: 'Filter users  /', 'aria-label': 'Filter users', oninput: () => draw() });
  const t = table(['User', 'Mechanism', 'Iterations', ''], 'users', [2]);
  let latest: ScramUser[] = [];
  const draw = (): void => t.fill(latest.filter((u) => u.user.toLowerCase().includes(filter.value.toLowerCase())).flatMap((u) => u.credentials.map((c) => {
    const remove = (): void => deleteCredentialDialog(u.user, c.mechanism, () => void refresh());
    const alter = (): void => userDialog(() => void refresh(), u.user, c.mechanism, c.iterations);
    const keys = (e: Event): void => {
      const key = (e as KeyboardEvent).key;
      if (e.target !== e.currentTarget) return;
      if (key === 'Delete') remove();
      if (key === 'e' || key === 'Enter') alter();
    };
    return h('tr', { 'data-key': `${u.user}|${c.mechanism}`, tabindex: 0, onkeydown: keys },
      h('td', { class: 'mono' }, u.user), h('td', {}, c.mechanism), h('td', {}, fmtInt(c.iterations)),
      h('td', { class: 'row-actions' }, h('button', { class: 'small', onclick: alter }, 'Change password'), h('button', { class: 'small danger', onclick: remove }, 'Delete')));
  })));
  const refresh = async (): Promise<void> => {
    latest = await api<ScramUser[]>('/users');
    draw();
  };
  page('Users', h('div', { class: 'tools' }, filter, h('button', { class: 'primary new', id: 'create-user', onclick: () => userDialog(() => void refresh()) }, 'Add user')));
  $('#main')!.append(h('p', { class: 'muted' }, 'SCRAM credentials, as kafka-configs --entity-type users shows them. A password is salted in the broker and never shown or kept.'), t.el);
  return poll(refresh);
}

function userDialog(done: () => void, user?: string, mechanism?: string, iterations?: number): void {
  const mech = h('select', { name: 'mechanism' }, options(MECHANISMS));
  if (mechanism !== undefined) mech.value = mechanism;
  dialog(user === undefined ? 'Add SCRAM user' : `Change the password of ${user}`, [
    field('User', h('input', { name: 'user', required: true, autocomplete: 'off', class: 'mono', value: user ?? '', readonly: user !== undefined })),
    field('Mechanism', mech),
    field('Password', h('input', { name: 'password', type: 'password', required: true, autocomplete: 'new-password' })),
    field('Iterations', h('input', { name: 'iterations', type: 'number', min: 4096, max: 16384, value: iterations ?? 4096 }), '4096 – 16384'),
  ], user === undefined ? 'Add' : 'Change', async (form) => {
    const name = value(form, 'user').trim();
    await api(`/users/${enc(name)}/credentials/${enc(mech.value)}`, { method: 'PUT', body: { password: value(form, 'password'), iterations: Number(value(form, 'iterations')) } });
    toast(`${name}: ${mech.value} credential set`);
    done();
  });
}

function deleteCredentialDialog(user: string, mechanism: string, done: () => void): void {
  dialog(`Delete ${mechanism} of ${user}`, [h('p', {}, `${user} can no longer log in with ${mechanism}.`)], 'Delete', async () => {
    await api(`/users/${enc(user)}/credentials/${enc(mechanism)}`, { method: 'DELETE' });
    toast(`${user}: ${mechanism} deleted`);
    done();
  }, true);
}

// ---- routing and keys ----

function route(): void {
  stopView?.();
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const section = parts[0] ?? '';
  for (const a of document.querySelectorAll<HTMLAnchorElement>('#nav a')) {
    const target = a.getAttribute('href')!.replace(/^#\/?/, '');
    a.classList.toggle('active', target === section);
  }
  if (section === 'topics' && parts[1] !== undefined && parts[1] !== '') stopView = topicView(parts[1], parts[2] || 'messages');
  else if (section === 'topics') stopView = topicsView();
  else if (section === 'groups' && parts[1] !== undefined && parts[1] !== '') stopView = groupView(parts[1]);
  else if (section === 'groups') stopView = groupsView();
  else if (section === 'transactions') stopView = transactionsView();
  else if (section === 'broker') stopView = brokerView();
  else if (section === 'cluster') stopView = clusterView();
  else if (section === 'acls') stopView = aclsView();
  else if (section === 'users') stopView = usersView();
  else stopView = overviewView();
  document.title = `${parts[1] ?? ($('#nav a.active')?.firstChild?.textContent ?? 'Overview')} · gregor`;
}

function helpDialog(): void {
  dialog('Keyboard', [h('table', { class: 'kv' }, [
    ['1 – 8', 'sections'], ['n', 'new (ACL, user)'], ['Delete', 'delete the focused ACL or credential'], ['/', 'focus the filter'], ['j / k', 'next / previous row'], ['Enter', 'open the row'],
    ['e', 'edit a config row'], ['Esc', 'close a dialog'], ['Backspace', 'back'],
  ].map(([k, d]) => h('tr', {}, h('td', {}, h('kbd', {}, k!)), h('td', {}, d!))))], 'OK', async () => {});
}

document.addEventListener('keydown', (e) => {
  const target = e.target as HTMLElement;
  const typing = target.matches('input, textarea, select') || document.querySelector('dialog[open]') !== null;
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  const nav = document.querySelector<HTMLAnchorElement>(`#nav a[data-key="${e.key}"]`);
  if (nav !== null) {
    location.hash = nav.getAttribute('href')!;
    e.preventDefault();
  } else if (e.key === '/') {
    $<HTMLInputElement>('#main input[type=search]')?.focus();
    e.preventDefault();
  } else if (e.key === 'j' || e.key === 'k') {
    const rows = [...document.querySelectorAll<HTMLElement>('#main table.grid > tbody > tr[tabindex]')];
    const i = rows.indexOf(target.closest('tr') as HTMLElement);
    rows[Math.max(0, Math.min(rows.length - 1, i < 0 ? 0 : i + (e.key === 'j' ? 1 : -1)))]?.focus();
    e.preventDefault();
  } else if (e.key === 'n') {
    $<HTMLButtonElement>('#main button.new')?.click();
  } else if (e.key === '?') helpDialog();
  else if (e.key === 'Backspace') history.back();
});
$('#help-button')!.addEventListener('click', helpDialog);
window.addEventListener('hashchange', route);
route();
