/**
 * A page build chosen at run time, as a site rolls out a new build to some
 * loads of its page: a test picks which build later loads get.
 */
import { readBody, sendJson, type Route } from './site.js';

/** Test-only: `POST /__replica/page-variant` picks the page build later loads of the chat page get. */
export function pageVariantRoute<V extends string>(
  variants: readonly V[],
  choose: (variant: V) => void,
): Route {
  return {
    method: 'POST',
    path: '/__replica/page-variant',
    handle: async (req, res) => {
      const { variant } = JSON.parse((await readBody(req)) || '{}') as { variant?: string };
      if (!(variants as readonly string[]).includes(variant ?? ''))
        return sendJson(res, { ok: false, variants }, 400);
      choose(variant as V);
      sendJson(res, { ok: true });
    },
  };
}
