/**
 * The OpenAPI document's schemas as ajv validators (JSON Schema 2020-12), and
 * its events stream read the way a schema-aware client reads it: each message
 * as the object of its fields (`id`, `event`, `data`; a comment line as
 * `comment`), checked against the response schema, then the JSON of `data`
 * against the `contentSchema` of the branch the message fits.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

export type Json = Record<string, any>;

// Component references point into the document; ajv reads them from one schema of their own.
const DOC_ID = 'urn:openapi:components';
const local = <T>(schema: T): T =>
  JSON.parse(
    JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${DOC_ID}#/$defs/`),
  ) as T;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class DocumentSchemas {
  private readonly ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    strictTuples: false,
    allErrors: true,
  });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(components: Json) {
    this.ajv.addFormat('uuid', UUID);
    this.ajv.addFormat('uri', { validate: (v: string) => URL.canParse(v) });
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ $id: DOC_ID, $defs: local(components) });
  }

  /** Why `value` breaks `schema`, or undefined when it fits. */
  problem(schema: Json, value: unknown): string | undefined {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) this.validators.set(key, (validate = this.ajv.compile(local(schema))));
    return validate(value) ? undefined : this.ajv.errorsText(validate.errors);
  }

  /** Why a stream message breaks the stream's message schema or its branch's `contentSchema`. */
  messageProblem(stream: Json, message: Json): string | undefined {
    const off = this.problem(stream, message);
    if (off) return off;
    const branch = (stream.oneOf as Json[]).find((b) => !this.problem(b, message))!;
    const content = branch.properties?.data?.contentSchema as Json | undefined;
    if (!content) return undefined;
    const inside = this.problem(content, JSON.parse(message.data as string));
    return inside && `data: ${inside}`;
  }
}

/** The messages of a raw `text/event-stream`, each as the object of its fields. */
export function sseMessages(raw: string): Json[] {
  return raw
    .split(/\r?\n\r?\n/)
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const message: Json = {};
      for (const line of frame.split(/\r?\n/)) {
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        const name = field === '' ? 'comment' : field;
        message[name] = name === 'data' && name in message ? `${message.data}\n${value}` : value;
      }
      return message;
    });
}
