/**
 * The OpenAPI document's examples against its own schemas, with ajv (JSON
 * Schema 2020-12, the dialect of OpenAPI 3.1): every operation and webhook
 * shows examples (its request body, a success and an error answer), and each
 * example, parameter example and schema-level `examples` value validates.
 * The events stream's example is read frame by frame against the schema of
 * each event, and the webhook example's signature verifies.
 */
import t from 'tap';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { buildOpenApi } from '../../../services/api/openapi.js';
import { ERROR_KINDS } from '../../../services/api/openapi-errors.js';
import { SECRET_EXAMPLE } from '../../../services/api/openapi-examples.js';
import { verifyWebhook } from '../../../services/shared/webhooks/sign.js';
import { AppError, describeError } from '../../../services/shared/errors.js';

type Json = Record<string, any>;

const doc = buildOpenApi('0.1.0', '/') as Json;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Component references point into the document; ajv reads them from one schema of their own.
const DOC_ID = 'urn:openapi:components';
const local = <T>(schema: T): T =>
  JSON.parse(
    JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${DOC_ID}#/$defs/`),
  ) as T;

const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, allErrors: true });
ajv.addFormat('uuid', UUID);
ajv.addFormat('uri', { validate: (v: string) => URL.canParse(v) });
ajv.addFormat('binary', true);
ajv.addSchema({ $id: DOC_ID, $defs: local(doc.components.schemas) });

const validators = new Map<string, ValidateFunction>();
function problem(schema: Json, value: unknown): string | undefined {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) validators.set(key, (validate = ajv.compile(local(schema))));
  return validate(value) ? undefined : ajv.errorsText(validate.errors);
}

interface Operation {
  where: string;
  op: Json;
  webhook: boolean;
}

const operations: Operation[] = [
  ...Object.entries(doc.paths as Json).map(([path, item]) => [path, item, false] as const),
  ...Object.entries(doc.webhooks as Json).map(([name, item]) => [name, item, true] as const),
].flatMap(([name, item, webhook]) =>
  METHODS.filter((m) => item[m]).map((m) => ({
    where: `${m.toUpperCase()} ${name}`,
    op: item[m] as Json,
    webhook,
  })),
);

/** The named values of a media type, parameter or header. */
function examplesOf(holder: Json): unknown[] {
  return [
    ...('example' in holder ? [holder.example] : []),
    ...Object.values((holder.examples ?? {}) as Json).map((e) => (e as Json).value),
  ];
}

/** A body no example can show: bytes of an image or a spreadsheet. */
const binary = (schema: Json) =>
  schema.format === 'binary' || String(schema.contentMediaType ?? '').startsWith('image/');

t.test('the document is OpenAPI 3.1 with webhooks', async (t) => {
  t.equal(doc.openapi, '3.1.0');
  t.ok(doc.webhooks.taskFinished.post, 'the completion callback');
  t.ok(operations.length >= 25, `${operations.length} operations`);
});

t.test('every operation shows examples and every example fits its schema', async (t) => {
  const failures: string[] = [];
  for (const { where, op, webhook } of operations) {
    const shown = { request: 0, success: 0, error: 0 };
    const check = (what: string, holder: Json, schema: Json | undefined) => {
      const values = examplesOf(holder);
      if (schema === undefined) return values.length;
      for (const [i, value] of values.entries()) {
        const p = problem(schema, value);
        if (p) failures.push(`${where} ${what} example ${i}: ${p}`);
      }
      return values.length;
    };
    for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Json)) {
      const n = check(`request ${type}`, media, media.schema);
      if (n === 0) failures.push(`${where}: request ${type} has no example`);
      shown.request += n;
    }
    for (const [status, res] of Object.entries(op.responses as Json)) {
      for (const [type, media] of Object.entries((res.content ?? {}) as Json)) {
        const n = check(`${status} ${type}`, media, media.schema);
        if (n === 0 && !binary(media.schema))
          failures.push(`${where}: ${status} ${type} has no example`);
        // An image or a spreadsheet counts as shown: its bytes cannot be an example.
        const count = n || (binary(media.schema) ? 1 : 0);
        if (/^2/.test(status)) shown.success += count;
        else shown.error += count;
      }
      for (const [name, header] of Object.entries((res.headers ?? {}) as Json)) {
        check(`${status} header ${name}`, header, header.schema);
      }
    }
    for (const param of (op.parameters ?? []) as Json[]) {
      check(`parameter ${param.name}`, param, param.schema);
    }
    if (op.requestBody && shown.request === 0) failures.push(`${where}: no request example`);
    if (!webhook && shown.success === 0) failures.push(`${where}: no success example`);
    if (!webhook && shown.error === 0) failures.push(`${where}: no error example`);
  }
  t.same(failures, [], 'no operation without examples, no example off its schema');
});

t.test('schema-level examples fit the schema that carries them', async (t) => {
  const failures: string[] = [];
  const walk = (schema: unknown, at: string): void => {
    if (Array.isArray(schema)) return schema.forEach((s, i) => walk(s, `${at}/${i}`));
    if (!schema || typeof schema !== 'object') return;
    const s = schema as Json;
    for (const [i, value] of ((s.examples ?? []) as unknown[]).entries()) {
      const p = problem(s, value);
      if (p) failures.push(`${at} examples/${i}: ${p}`);
    }
    for (const [key, child] of Object.entries(s)) {
      if (key !== 'examples') walk(child, `${at}/${key}`);
    }
  };
  for (const [name, schema] of Object.entries(doc.components.schemas as Json)) {
    t.doesNotThrow(() => problem(schema, null), `${name} compiles`);
    walk(schema, name);
  }
  t.same(failures, []);
});

t.test('every error type is shown with its status', async (t) => {
  const shown = new Map<string, Set<string>>();
  for (const { op } of operations) {
    for (const [status, res] of Object.entries(op.responses as Json)) {
      const media = res.content?.['application/json'];
      for (const name of Object.keys((media?.examples ?? {}) as Json)) {
        if (!shown.has(name)) shown.set(name, new Set());
        shown.get(name)!.add(status);
      }
    }
  }
  const table = doc.components.schemas.ErrorEnvelope.description as string;
  for (const kind of ERROR_KINDS) {
    t.same([...(shown.get(kind.type) ?? [])], [kind.status], `${kind.type} under ${kind.status}`);
    t.match(table, `| ${kind.status} | \`${kind.type}\` |`, `${kind.type} in the table`);
    // A documented type must be one the error middleware passes on with that status.
    const seen = describeError(new AppError('x', Number(kind.status), kind.type));
    t.same([seen.status, seen.type], [Number(kind.status), kind.type]);
  }
});

t.test('the events stream example: each frame fits the schema of its event', async (t) => {
  const media =
    doc.paths['/api/business/monitor/task/{taskId}/events'].get.responses['200'].content[
      'text/event-stream'
    ];
  const schemas = media['x-sse-events'] as Json;
  t.same(Object.keys(schemas), ['snapshot', 'subtask', 'done']);
  const stream = examplesOf(media)[0] as string;
  const frames = stream.split('\n\n').filter(Boolean);
  t.ok(frames.includes(': ping'), 'a heartbeat comment');
  const events = frames
    .filter((f) => !f.startsWith(':'))
    .map((f) =>
      Object.fromEntries(
        f.split('\n').map((l) => [l.split(': ')[0], l.slice(l.indexOf(': ') + 2)]),
      ),
    );
  t.same(
    events.map((e) => e.event),
    ['snapshot', 'subtask', 'subtask', 'done'],
  );
  t.same(
    events.map((e) => Number(e.id)),
    [1, 2, 3, 4],
    'ids increase',
  );
  for (const e of events) {
    t.equal(problem(schemas[e.event!], JSON.parse(e.data!)), undefined, `${e.event} ${e.id}`);
  }
});

t.test('the webhook example carries the real signature of its body', async (t) => {
  const post = doc.webhooks.taskFinished.post;
  const body = JSON.stringify(examplesOf(post.requestBody.content['application/json'])[0]);
  const headers = Object.fromEntries(
    (post.parameters as Json[]).map((p) => [p.name, p.example as string]),
  );
  const sentAt = Number(headers['webhook-timestamp']) * 1000;
  t.ok(verifyWebhook(SECRET_EXAMPLE, headers, body, sentAt), 'verifies with the example secret');
  t.notOk(verifyWebhook(SECRET_EXAMPLE, headers, `${body} `, sentAt), 'not for another body');
});
