/**
 * The subset of JSON Schema 2020-12 that the OpenAPI document uses, for the
 * schema fuzz: a validator, a fast-check arbitrary of valid values and one of
 * values that break exactly one rule. `format` is asserted for `uuid` and
 * `uri` (as WHATWG URLs), since clients read it as a rule.
 */
import fc from 'fast-check';

export type Schema = Record<string, any>;

export class JsonSchemas {
  constructor(private readonly components: Record<string, Schema>) {}

  resolve(schema: Schema): Schema {
    const ref = schema.$ref as string | undefined;
    return ref ? this.resolve(this.components[ref.replace('#/components/schemas/', '')]!) : schema;
  }

  /** Why `value` breaks `schema`, or undefined when it does not. */
  problem(schema: Schema, value: unknown, at = '$'): string | undefined {
    const s = this.resolve(schema);
    if (s.anyOf) {
      const fits = (s.anyOf as Schema[]).some((b) => !this.problem(b, value, at));
      if (!fits) return `${at}: fits no anyOf branch`;
    }
    for (const part of (s.allOf ?? []) as Schema[]) {
      const p = this.problem(part, value, at);
      if (p) return p;
    }
    if ('const' in s && value !== s.const) return `${at}: not ${JSON.stringify(s.const)}`;
    if (s.enum && !(s.enum as unknown[]).includes(value)) return `${at}: not in enum`;
    if (s.type && !hasType(s.type as string, value)) return `${at}: not ${s.type}`;
    if (typeof value === 'string') return this.stringProblem(s, value, at);
    if (typeof value === 'number') {
      if (s.minimum !== undefined && value < s.minimum) return `${at}: below minimum`;
      if (s.maximum !== undefined && value > s.maximum) return `${at}: above maximum`;
      if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum)
        return `${at}: not above exclusiveMinimum`;
      if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum)
        return `${at}: not below exclusiveMaximum`;
    }
    if (Array.isArray(value)) {
      if (s.minItems !== undefined && value.length < s.minItems) return `${at}: too few items`;
      if (s.maxItems !== undefined && value.length > s.maxItems) return `${at}: too many items`;
      if (s.items) {
        for (const [i, v] of value.entries()) {
          const p = this.problem(s.items as Schema, v, `${at}[${i}]`);
          if (p) return p;
        }
      }
    }
    if (isObject(value)) return this.objectProblem(s, value, at);
    return undefined;
  }

  private stringProblem(s: Schema, value: string, at: string): string | undefined {
    const length = [...value].length;
    if (s.minLength !== undefined && length < s.minLength) return `${at}: too short`;
    if (s.maxLength !== undefined && length > s.maxLength) return `${at}: too long`;
    if (s.pattern && !new RegExp(s.pattern as string, 'u').test(value)) return `${at}: pattern`;
    if (s.format === 'uuid' && !UUID.test(value)) return `${at}: not a uuid`;
    if (s.format === 'uri' && !URL.canParse(value)) return `${at}: not a URL`;
    return undefined;
  }

  private objectProblem(s: Schema, value: Record<string, unknown>, at: string) {
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    for (const key of (s.required ?? []) as string[]) {
      if (!(key in value)) return `${at}.${key}: missing`;
    }
    for (const [key, v] of Object.entries(value)) {
      if (properties[key]) {
        const p = this.problem(properties[key], v, `${at}.${key}`);
        if (p) return p;
      } else if (s.additionalProperties === false) {
        return `${at}.${key}: not allowed`;
      }
    }
    return undefined;
  }

  /** Valid values. `hints` replace the arbitrary of a property by name (runtime values). */
  valid(schema: Schema, hints: Hints = {}): fc.Arbitrary<unknown> {
    const s = this.resolve(schema);
    if (s.anyOf) return fc.oneof(...(s.anyOf as Schema[]).map((b) => this.valid(b, hints)));
    if ('const' in s) return fc.constant(s.const);
    if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
    switch (s.type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({
          min: s.minimum ?? Number.MIN_SAFE_INTEGER,
          max: s.maximum ?? Number.MAX_SAFE_INTEGER,
        });
      case 'number':
        // Whole numbers where they fit, so a number field is tried with the values clients send most.
        return s.exclusiveMinimum === undefined && s.exclusiveMaximum === undefined
          ? fc.integer({
              min: s.minimum ?? Number.MIN_SAFE_INTEGER,
              max: s.maximum ?? Number.MAX_SAFE_INTEGER,
            })
          : fc.double({
              min: s.exclusiveMinimum ?? s.minimum ?? -Number.MAX_SAFE_INTEGER,
              max: s.exclusiveMaximum ?? s.maximum ?? Number.MAX_SAFE_INTEGER,
              minExcluded: s.exclusiveMinimum !== undefined,
              maxExcluded: s.exclusiveMaximum !== undefined,
              noNaN: true,
            });
      case 'string':
        return this.validString(s);
      case 'array': {
        // Short arrays keep every request cheap; the limits are checked by the invalid side.
        const minLength = s.minItems ?? 0;
        const maxLength = Math.min(s.maxItems ?? 4, minLength + 3);
        return fc.array(this.valid(s.items as Schema, hints), { minLength, maxLength });
      }
      case 'object': {
        const properties = (s.properties ?? {}) as Record<string, Schema>;
        const model = Object.fromEntries(
          Object.entries(properties).map(([k, v]) => [k, hints[k] ?? this.valid(v, hints)]),
        );
        return fc.record(model, { requiredKeys: (s.required ?? []) as string[] });
      }
      default:
        return fc.jsonValue();
    }
  }

  private validString(s: Schema): fc.Arbitrary<string> {
    const patterns = [s.pattern, ...((s.allOf ?? []) as Schema[]).map((p) => p.pattern)]
      .filter((p): p is string => typeof p === 'string')
      .map((p) => new RegExp(p, 'u'));
    let base: fc.Arbitrary<string>;
    if (s.format === 'uuid') base = fc.uuid();
    else if (s.format === 'uri')
      base = fc.webUrl({ withQueryParameters: true, withFragments: true });
    else if (patterns[0]) base = fc.stringMatching(patterns[0]);
    else base = fc.string({ unit: 'binary', minLength: s.minLength ?? 0, maxLength: 40 });
    if (s.maxLength !== undefined && !s.format) {
      // The longest allowed text, in characters outside the BMP too: JSON Schema counts code points.
      const longest = fc.constantFrom('a', 'é', '中', '😀').map((c) => c.repeat(s.maxLength));
      base = fc.oneof({ arbitrary: base, weight: 4 }, { arbitrary: longest, weight: 1 });
    }
    return base.filter(
      (v) =>
        !this.stringProblem({ ...s, format: undefined }, v, '') && patterns.every((p) => p.test(v)),
    );
  }

  /**
   * Values that break the schema: the whole value of a wrong kind, or one
   * place inside a valid value changed to break a rule there.
   */
  invalid(schema: Schema, hints: Hints = {}): fc.Arbitrary<unknown> {
    return fc
      .tuple(this.valid(schema, hints), fc.integer({ min: 0, max: 1_000 }), breaker())
      .map(([value, pick, broken]) => asSent(this.breakOnePlace(schema, value, pick, broken)))
      .filter((v) => this.problem(schema, v) !== undefined);
  }

  private breakOnePlace(schema: Schema, value: unknown, pick: number, broken: Broken): unknown {
    const s = this.resolve(schema);
    const branch = s.anyOf ? ((s.anyOf as Schema[]).find((b) => !this.problem(b, value)) ?? s) : s;
    const inside = this.resolve(branch);
    // Only into places the schema describes: a free-form object (no `properties`, e.g. MCP's
    // `arguments`) or an array without `items` is broken as a whole.
    if (Array.isArray(value) && value.length > 0 && inside.items && pick % 3 !== 0) {
      const i = pick % value.length;
      const copy = [...value];
      copy[i] = this.breakOnePlace(inside.items as Schema, value[i], Math.floor(pick / 3), broken);
      return copy;
    }
    const properties = (inside.properties ?? {}) as Record<string, Schema>;
    const keys = Object.keys(properties);
    if (isObject(value) && keys.length > 0 && pick % 3 !== 0) {
      const key = keys[pick % keys.length]!;
      const copy = { ...value };
      if (pick % 7 === 0) delete copy[key];
      else
        copy[key] = this.breakOnePlace(properties[key]!, value[key], Math.floor(pick / 3), broken);
      return copy;
    }
    return broken(inside, value);
  }
}

export type Hints = Record<string, fc.Arbitrary<unknown>>;
type Broken = (schema: Schema, value: unknown) => unknown;

/** A change that usually breaks the rule of the place it lands on. */
function breaker(): fc.Arbitrary<Broken> {
  return fc.oneof(
    fc.jsonValue().map((other) => () => other),
    fc.constant<Broken>((s, v) => {
      if (s.maxItems !== undefined) return Array(s.maxItems + 1).fill(Array.isArray(v) ? v[0] : v);
      if (s.minItems !== undefined) return [];
      if (s.maxLength !== undefined) return 'x'.repeat(s.maxLength + 1);
      if (s.maximum !== undefined) return s.maximum + 1;
      if (s.minimum !== undefined) return s.minimum - 1;
      if (s.exclusiveMaximum !== undefined) return s.exclusiveMaximum;
      if (s.exclusiveMinimum !== undefined) return s.exclusiveMinimum;
      return v;
    }),
    fc
      .constantFrom('', ' \n\t', 'a\u0000b', 'NOT-AN-ENUM', 'ftp://example.com/x')
      .map((text) => () => text),
    fc.constantFrom(0, -1, 1.5, true, null, [], {}).map((other) => () => other),
  );
}

/** What the server receives: JSON drops undefined members and turns NaN into null. */
function asSent(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return true;
  }
}
