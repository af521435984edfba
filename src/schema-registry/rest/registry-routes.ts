// Confluent Schema Registry's REST API as fastify routes (its resources: Root, Schemas, Subjects,
// SubjectVersions, Config, Mode, Compatibility), answered from a SchemaRegistry. Registered in a scope of its
// own (its JSON content types, Confluent's error bodies) on the HTTP listener under a prefix, and at the root of
// the registry's own port.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRuleSet, invalidSchema, notFound, RegistryError, unprocessableBody } from '../errors.js';
import type { SchemaRegistry, SchemaRequest } from '../registry.js';
import { typeAndReferences, type SchemaValue } from '../schemas-records.js';
import { BadEntity, readMetadata, readRuleSet, ruleSetProblem, type Metadata, type RuleSet } from '../metadata.js';
import { normalizeSubject } from '../contexts.js';
import { SCHEMA_TYPES, type SchemaReference, type SchemaType } from '../schema-types.js';

/** Where the API is on the HTTP listener (gregor.http.listeners): http://host:8080/schema-registry is a registry URL. */
export const SCHEMA_REGISTRY_PREFIX = '/schema-registry';

/** Confluent's content type; also accepted: its unversioned form, application/json and application/octet-stream. */
export const REGISTRY_CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';
const BODY_TYPES = [REGISTRY_CONTENT_TYPE, 'application/vnd.schemaregistry+json', 'application/octet-stream'];

type Query = Record<string, string | undefined>;
type Params = Record<string, string>;
type Req = FastifyRequest<{ Params: Params; Querystring: Query; Body: unknown }>;

const flag = (query: Query, name: string): boolean => query[name]?.toLowerCase() === 'true';

/** The answer's content type: what the client accepts among Confluent's (its own by default). */
function contentType(request: FastifyRequest): string {
  const accept = request.headers.accept ?? '';
  if (accept.includes(REGISTRY_CONTENT_TYPE) || accept.includes('application/vnd.schemaregistry+json')) return REGISTRY_CONTENT_TYPE;
  return accept.includes('application/json') ? 'application/json' : REGISTRY_CONTENT_TYPE;
}

/** Confluent's answer for a schema version: subject, version, id, then schemaType (not for Avro), references, schema. */
async function versionBody(value: SchemaValue, sr: SchemaRegistry, format?: string): Promise<Record<string, unknown>> {
  return { subject: value.subject, version: value.version, id: value.id, ...typeAndReferences(value), schema: await sr.formatted(value, format) };
}

function schemaRequest(body: unknown): SchemaRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw unprocessableBody('Request body must be a JSON object');
  const json = body as Record<string, unknown>;
  const schema = json['schema'];
  if (schema !== undefined && schema !== null && typeof schema !== 'string') throw unprocessableBody('schema must be a string');
  const typeText = json['schemaType'] ?? 'AVRO';
  const schemaType = SCHEMA_TYPES.find((t) => t === typeText);
  if (schemaType === undefined) throw invalidSchema(`Invalid schema type ${String(typeText)}`);
  const references = (json['references'] ?? []) as SchemaReference[];
  if (!Array.isArray(references) || references.some((r) => typeof r?.name !== 'string' || typeof r.subject !== 'string' || typeof r.version !== 'number')) {
    throw unprocessableBody('references must be a list of {name, subject, version}');
  }
  const version = typeof json['version'] === 'number' ? json['version'] : 0;
  const id = typeof json['id'] === 'number' ? json['id'] : -1;
  let metadata: Metadata | undefined;
  let ruleSet: RuleSet | undefined;
  try {
    metadata = readMetadata(json['metadata']);
    ruleSet = readRuleSet(json['ruleSet']);
  } catch (error) {
    if (error instanceof BadEntity) throw unprocessableBody(error.message);
    throw error;
  }
  // Confluent's resource validates the rule set sent (42210) before anything else of the registration.
  const problem = ruleSetProblem(ruleSet);
  if (problem !== undefined) throw invalidRuleSet(problem);
  return {
    schema: (schema as string | undefined) ?? '', schemaType: schemaType as SchemaType,
    references: references.map(({ name, subject, version: v }) => ({ name, subject, version: v })), version, id, metadata, ruleSet,
  };
}

/**
 * A request under /contexts/{context} as Confluent's ContextFilter rewrites it: a subject (and the root config or
 * mode, and an id's `subject`, and a listing's `subjectPrefix`) that names no context is taken in that one.
 */
function inContext(r: Req, path: string): void {
  const raw = r.params['context'];
  if (raw === undefined) return;
  const name = raw.replace(/^:/, '').replace(/:$/, '');
  const context = name === '.' || name === '' ? '' : `:${name.startsWith('.') ? name : `.${name}`}:`;
  const qualified = (text: string) => (text.startsWith(':') ? text : context + text);
  if (r.params['subject'] !== undefined) r.params['subject'] = qualified(r.params['subject']);
  else if ((path === '/config' || path === '/mode') && context !== '') r.params['subject'] = context;
  if (path.startsWith('/schemas/ids')) r.query['subject'] = qualified(r.query['subject'] ?? '');
  if (path === '/schemas' || path === '/subjects') r.query['subjectPrefix'] = qualified(r.query['subjectPrefix'] ?? '');
}

/** The root config or mode, or a context's under /contexts/{context} (null: the global one). */
const rootSubject = (r: Req): string | null => (r.params['subject'] === undefined ? null : normalizeSubject(r.params['subject']));

/** A subject path parameter as Confluent keeps it (`:.:orders` is `orders`). */
const subjectOf = (r: Req): string => normalizeSubject(r.params['subject']!);

function id(params: Params): number {
  const text = params['id']!;
  if (!/^-?[0-9]+$/.test(text)) throw notFound();
  return Number(text);
}

/**
 * Registers the API on `app` (under `prefix`: '' on the registry's own port). `registry` is read at each request:
 * on the HTTP listener the registry exists only once the broker has started.
 */
export function registerSchemaRegistryRoutes(app: FastifyInstance, registry: () => SchemaRegistry, prefix = ''): void {
  void app.register(async (scope) => {
    for (const type of BODY_TYPES) {
      scope.addContentTypeParser(type, { parseAs: 'string' }, (_request, body, done) => {
        try {
          done(null, body === '' ? {} : JSON.parse(body as string));
        } catch (error) {
          done(new RegistryError(400, 400, `Unexpected character in JSON body: ${(error as Error).message}`), undefined);
        }
      });
    }
    scope.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
      if (error instanceof RegistryError) return reply.code(error.status).type(contentType(request)).send({ error_code: error.errorCode, message: error.message });
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      return reply.code(status).type(contentType(request)).send({ error_code: status === 500 ? 50001 : status, message: error.message });
    });
    scope.setNotFoundHandler((request, reply) => reply.code(404).type(contentType(request)).send({ error_code: 404, message: 'HTTP 404 Not Found' }));

    type Handler = (request: Req, sr: SchemaRegistry) => Promise<unknown> | unknown;
    // Each route also answers under /contexts/{context} (Confluent's ContextFilter), in that context.
    const route = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, handler: Handler) => {
      scope.route({ method, url: path, handler: answer(path, handler) });
      if (path !== '/' && path !== '/contexts') scope.route({ method, url: `/contexts/:context${path}`, handler: answer(path, handler) });
    };
    const get = (path: string, handler: Handler) => route('GET', path, handler);
    const post = (path: string, handler: Handler) => route('POST', path, handler);
    const put = (path: string, handler: Handler) => route('PUT', path, handler);
    const del = (path: string, handler: Handler) => route('DELETE', path, handler);
    function answer(path: string, handler: Handler) {
      return async (request: FastifyRequest, reply: FastifyReply) => {
        const sr = registry();
        await sr.catchUp();
        inContext(request as Req, path);
        const body = await handler(request as Req, sr);
        reply.type(contentType(request));
        // The /schema endpoints answer the schema text itself.
        return typeof body === 'string' ? reply.send(body) : reply.send(JSON.stringify(body));
      };
    }

    get('/', () => ({}));
    get('/schemas/types', (_r, sr) => sr.schemaTypes());
    // ?subject= names the context an id is read in (Confluent's ids are numbered per context).
    const idSubject = (r: Req) => (r.query['subject'] === undefined ? undefined : normalizeSubject(r.query['subject']));
    get('/schemas/ids/:id', async (r, sr) => {
      const schema = sr.schemaById(id(r.params), idSubject(r));
      return { ...typeAndReferences(schema), schema: await sr.formatted(schema, r.query['format']) };
    });
    get('/schemas/ids/:id/schema', (r, sr) => sr.formatted(sr.schemaById(id(r.params), idSubject(r)), r.query['format']));
    get('/schemas/ids/:id/subjects', (r, sr) => sr.subjectsOfId(id(r.params), flag(r.query, 'deleted'), idSubject(r)));
    get('/schemas/ids/:id/versions', (r, sr) => sr.versionsOfId(id(r.params), flag(r.query, 'deleted'), idSubject(r)));
    get('/contexts', (_r, sr) => sr.contexts());
    scope.delete('/contexts/:context', async (request, reply) => {
      const sr = registry();
      await sr.catchUp();
      const raw = (request.params as Params)['context']!;
      await sr.deleteContext(normalizeSubject(raw.startsWith(':') ? raw : `:${raw.startsWith('.') ? raw : `.${raw}`}:`));
      return reply.code(204).send();
    });
    get('/schemas', (r, sr) => {
      const deleted = flag(r.query, 'deleted');
      const latestOnly = flag(r.query, 'latestOnly');
      const values = sr.subjects(deleted, r.query['subjectPrefix'] ?? '').flatMap((subject) => {
        const versions = sr.versions(subject, deleted).map((v) => sr.version(subject, String(v), deleted));
        return latestOnly ? versions.slice(-1) : versions;
      });
      return Promise.all(values.map((value) => versionBody(value, sr)));
    });

    get('/subjects', (r, sr) => {
      if (flag(r.query, 'deletedOnly')) {
        const live = new Set(sr.subjects(false));
        return sr.subjects(true, r.query['subjectPrefix'] ?? '').filter((s) => !live.has(s) || sr.versions(s, false, true).length > 0);
      }
      return sr.subjects(flag(r.query, 'deleted'), r.query['subjectPrefix'] ?? '');
    });
    post('/subjects/:subject', async (r, sr) =>
      versionBody(await sr.lookup(subjectOf(r), schemaRequest(r.body), flag(r.query, 'normalize'), flag(r.query, 'deleted')), sr, r.query['format']));
    del('/subjects/:subject', (r, sr) => sr.deleteSubject(subjectOf(r), flag(r.query, 'permanent')));
    get('/subjects/:subject/versions', (r, sr) => sr.versions(subjectOf(r), flag(r.query, 'deleted'), flag(r.query, 'deletedOnly')));
    post('/subjects/:subject/versions', async (r, sr) => {
      const value = await sr.register(subjectOf(r), schemaRequest(r.body), flag(r.query, 'normalize'));
      return { id: value.id };
    });
    get('/subjects/:subject/versions/:version', (r, sr) => versionBody(sr.version(subjectOf(r), r.params['version']!, flag(r.query, 'deleted')), sr, r.query['format']));
    get('/subjects/:subject/versions/:version/schema', (r, sr) => sr.formatted(sr.version(subjectOf(r), r.params['version']!, flag(r.query, 'deleted')), r.query['format']));
    get('/subjects/:subject/versions/:version/referencedby', (r, sr) => sr.referencedBy(subjectOf(r), r.params['version']!));
    del('/subjects/:subject/versions/:version', (r, sr) => sr.deleteVersion(subjectOf(r), r.params['version']!, flag(r.query, 'permanent')));

    const compatibility = async (r: Req, sr: SchemaRegistry, version: string | undefined) => {
      const messages = await sr.checkCompatibility(subjectOf(r), version, schemaRequest(r.body), flag(r.query, 'normalize'));
      return flag(r.query, 'verbose') ? { is_compatible: messages.length === 0, messages } : { is_compatible: messages.length === 0 };
    };
    post('/compatibility/subjects/:subject/versions', (r, sr) => compatibility(r, sr, undefined));
    post('/compatibility/subjects/:subject/versions/:version', (r, sr) => compatibility(r, sr, r.params['version']!));

    const configBody = (r: Req) => {
      if (r.body === null || typeof r.body !== 'object' || Array.isArray(r.body)) return {};
      return r.body as Record<string, unknown>;
    };
    get('/config', (r, sr) => sr.config(rootSubject(r), flag(r.query, 'defaultToGlobal')));
    put('/config', (r, sr) => sr.setConfig(rootSubject(r), configBody(r)));
    del('/config', (r, sr) => sr.deleteConfig(rootSubject(r)));
    get('/config/:subject', (r, sr) => sr.config(subjectOf(r), flag(r.query, 'defaultToGlobal')));
    put('/config/:subject', (r, sr) => sr.setConfig(subjectOf(r), configBody(r)));
    del('/config/:subject', (r, sr) => sr.deleteConfig(subjectOf(r)));

    get('/mode', (r, sr) => ({ mode: sr.mode(rootSubject(r), true) }));
    put('/mode', async (r, sr) => ({ mode: await sr.setMode(rootSubject(r), ((r.body ?? {}) as Record<string, unknown>)['mode'], flag(r.query, 'force')) }));
    get('/mode/:subject', (r, sr) => ({ mode: sr.mode(subjectOf(r), flag(r.query, 'defaultToGlobal')) }));
    put('/mode/:subject', async (r, sr) => ({ mode: await sr.setMode(subjectOf(r), ((r.body ?? {}) as Record<string, unknown>)['mode'], flag(r.query, 'force')) }));
    del('/mode/:subject', async (r, sr) => ({ mode: await sr.deleteMode(subjectOf(r)) }));
  }, { prefix });
}

