import type { Context } from 'koa';

/** Where absolute links point: the configured public base URL, else the address the request came to. */
export function baseUrl(ctx: Context, publicBaseUrl: string | undefined): string {
  return publicBaseUrl ?? `${ctx.protocol}://${ctx.host}`;
}
