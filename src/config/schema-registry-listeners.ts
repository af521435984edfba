// gregor.schema.registry.listeners: the schema registry's own addresses, as Confluent's `listeners`
// (http://host:port, comma-separated; an empty host binds every interface, port 0 an ephemeral port).

export interface RegistryListener {
  readonly host: string;
  readonly port: number;
}

const LISTENER = /^http:\/\/(\[[^\]]*\]|[^:/[\]]*):([0-9]{1,5})\/?$/i;

/** The listener an item names, or the reason it names none. */
export function parseRegistryListener(text: string): RegistryListener | string {
  const match = LISTENER.exec(text.trim());
  if (match === null) return `${text} is not http://host:port`;
  const port = Number(match[2]);
  if (port > 65535) return `${text}: port ${port} is above 65535`;
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

export function parseRegistryListeners(items: readonly string[]): RegistryListener[] {
  return items.filter((item) => item.trim() !== '').map((item) => {
    const parsed = parseRegistryListener(item);
    if (typeof parsed === 'string') throw new Error(`gregor.schema.registry.listeners: ${parsed}`);
    return parsed;
  });
}
