import fc from 'fast-check';
import t from 'tap';
import { JsonSchemas } from '../../helpers/json-schema.js';

const schemas = new JsonSchemas({
  Item: {
    type: 'object',
    properties: {
      name: { type: 'string', enum: ['a', 'b'] },
      size: { anyOf: [{ type: 'integer', minimum: 1, maximum: 9 }, { type: 'null' }] },
    },
    required: ['name'],
    additionalProperties: false,
  },
});
const list = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 3,
      items: { $ref: '#/components/schemas/Item' },
    },
    text: { type: 'string', maxLength: 5, allOf: [{ pattern: '\\S' }] },
    id: { type: 'string', format: 'uuid' },
    url: { type: 'string', format: 'uri', pattern: '^https?://' },
  },
  required: ['items', 'text'],
};

t.test('the validator finds each broken rule of the subset', async (t) => {
  const good = { items: [{ name: 'a', size: null }], text: 'x' };
  t.equal(schemas.problem(list, good), undefined);
  const cases: [unknown, string][] = [
    [{ text: 'x' }, '$.items: missing'],
    [{ ...good, items: [] }, '$.items: too few items'],
    [{ ...good, items: Array(4).fill({ name: 'a' }) }, '$.items: too many items'],
    [{ ...good, items: [{ name: 'c' }] }, '$.items[0].name: not in enum'],
    [{ ...good, items: [{ name: 'a', size: 10 }] }, '$.items[0].size: fits no anyOf branch'],
    [{ ...good, items: [{ name: 'a', size: 1.5 }] }, '$.items[0].size: fits no anyOf branch'],
    [{ ...good, items: [{ name: 'a', extra: 1 }] }, '$.items[0].extra: not allowed'],
    [{ ...good, text: '   ' }, '$.text: pattern'],
    [{ ...good, text: '😀😀😀😀😀😀' }, '$.text: too long'],
    [{ ...good, id: 'nope' }, '$.id: not a uuid'],
    [{ ...good, url: 'https://exa mple.com' }, '$.url: not a URL'],
    [{ ...good, url: 'ftp://example.com' }, '$.url: pattern'],
    [[good], '$: not object'],
  ];
  for (const [value, problem] of cases) t.equal(schemas.problem(list, value), problem, problem);
  t.equal(schemas.problem(list, { ...good, text: '😀😀😀😀😀' }), undefined, 'code points count');
});

t.test('valid values are valid, broken ones are not', async (t) => {
  fc.assert(fc.property(schemas.valid(list), (v) => schemas.problem(list, v) === undefined));
  fc.assert(fc.property(schemas.invalid(list), (v) => schemas.problem(list, v) !== undefined));
  t.pass();
});

t.test('a free-form object or array (no properties, no items) is broken as a whole', async (t) => {
  // MCP's `arguments`: an object of any keys. Breaking "one place inside" it found no place.
  const call = {
    type: 'object',
    properties: {
      name: { type: 'string', enum: ['a'] },
      arguments: { type: 'object', additionalProperties: true },
      extra: { type: 'array' },
    },
    required: ['name', 'arguments'],
  };
  const hints = {
    arguments: fc.constant({ limit: 5, nested: { deep: [1, 2] } }),
    extra: fc.constant([1, 'two']),
  };
  fc.assert(
    fc.property(schemas.invalid(call, hints), (v) => schemas.problem(call, v) !== undefined),
    { numRuns: 300 },
  );
  t.pass();
});
