/**
 * Building blocks of the OpenAPI document: zod → JSON Schema with shared
 * schemas under components, media types with their examples, and the
 * documented form of a platform configuration.
 */
import { z } from 'zod';
import {
  activeChannel,
  channelsOf,
  PLATFORMS,
  supportedModes,
  type Channel,
  type Mode,
} from '../shared/platforms.js';

export type Json = Record<string, unknown>;

/** Named examples of a media type (OpenAPI `examples`), shown by Swagger UI as a choice. */
export type Examples = Record<string, { summary: string; value: unknown }>;

/** One example under the name `example`. */
export const example = (summary: string, value: unknown): Examples => ({
  example: { summary, value },
});

/** Converts zod schemas, collecting every `meta({ id })` schema into `components`. */
export class SchemaSet {
  readonly components: Record<string, Json> = {};

  json(s: z.ZodType, io: 'input' | 'output' = 'output'): Json {
    const json = z.toJSONSchema(s, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    delete json.$schema;
    for (const [id, def] of Object.entries(defs)) this.components[id] = toComponentRefs(def);
    return toComponentRefs(json);
  }

  /** A JSON body of schema `s` with its examples (every body the document shows has some). */
  content(s: z.ZodType, examples: Examples, io: 'input' | 'output' = 'output') {
    return { content: { 'application/json': { schema: this.json(s, io), examples } } };
  }

  /**
   * Query parameters as the values they stand for (`page` an integer from 1),
   * which is how OpenAPI describes them; the query string carries their text.
   */
  queryParams(query: z.ZodType) {
    const values = (this.json(query, 'output').properties ?? {}) as Record<string, Json>;
    const texts = (this.json(query, 'input').properties ?? {}) as Record<string, Json>;
    // A value JSON Schema cannot show (a transform's result) is documented by its text.
    const typed = (name: string) => ('type' in values[name]! ? values[name]! : texts[name]!);
    return Object.keys(values)
      .map((name) => [name, typed(name)] as const)
      .map(([name, schema]) => ({
        name,
        in: 'query',
        required: false,
        schema,
        description: schema.description,
      }));
  }
}

/**
 * A platform configuration as the submission check enforces it: a catalogue
 * name or alias, a channel it has (absent: its active one) and a mode the
 * channel runs. Platforms with the same channel, role and modes share one
 * variant, so the document stays short.
 */
export function documentedPlatformConfig(channelChoices: Readonly<Record<string, string>>) {
  const groups = new Map<
    string,
    { names: string[]; channel: Channel; active: boolean; modes: readonly Mode[] }
  >();
  for (const p of PLATFORMS) {
    const active = activeChannel(p, channelChoices);
    for (const channel of channelsOf(p)) {
      const modes = supportedModes(p, channel);
      const key = `${channel} ${channel === active} ${modes.join()}`;
      const group = groups.get(key) ?? { names: [], channel, active: channel === active, modes };
      group.names.push(p.name, ...p.aliases);
      groups.set(key, group);
    }
  }
  const variants = [...groups.values()].map(({ names, channel, active, modes }) =>
    z.object({
      platform: z.enum(names as [string, ...string[]]).meta({
        description:
          'Platform name or alias (case-insensitive). GET /api/business/monitor/platforms lists them; one no live crawler node runs on the channel is refused.',
      }),
      channel: active
        ? z
            .literal(channel)
            .nullable()
            .optional()
            .meta({ description: `Absent or null: ${channel}, the active channel` })
        : z.literal(channel),
      mode: z.enum(modes as [Mode, ...Mode[]]),
      screenshot: z
        .union([z.literal(0), z.literal(1), z.literal(2)])
        .nullable()
        .default(0)
        .meta({
          description: '0 none (default; null too), 1 screenshot, 2 screenshot of mentions',
        }),
    }),
  );
  return z.union(variants as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]);
}

/** zod names shared schemas under $defs; OpenAPI keeps them under components. */
function toComponentRefs(json: Json): Json {
  return JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
}
