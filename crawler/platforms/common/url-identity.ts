/**
 * When two source URLs name the same page, pure. Platforms list and cite one
 * page under URLs that differ only in what never changes the page: OpenAI
 * appends `utm_source=openai` (or `chatgpt.com`) to the URLs it cites but not
 * to the sources it lists, Google adds `srsltid` to result links, Alibaba's
 * sites carry `spm`, and a fragment (`#:~:text=…`) points into a page rather
 * than at another one.
 *
 * The rules follow Crawlee's `normalizeUrl` (its request dedup key): scheme and
 * host in lower case, the fragment and a trailing slash dropped, the query
 * sorted; and besides `utm_*` they drop the common click and campaign
 * trackers. Scheme, `www.` and the path's case stay significant: each can name
 * another page. The identity is a key only; answers keep the URL as the
 * platform gave it.
 */

/** Query parameters that only track a click or a campaign (compared in lower case). */
const TRACKERS = new Set([
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'yclid',
  'ttclid',
  'twclid',
  'li_fat_id',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'ref_src',
  'srsltid',
  'spm',
]);

function isTracker(key: string): boolean {
  const k = key.toLowerCase();
  return k.startsWith('utm_') || TRACKERS.has(k);
}

/** The key under which URLs of one page compare equal; anything unparsable is its own key. */
export function urlIdentity(url: string): string {
  const trimmed = url.trim();
  let u: URL;
  try {
    u = new URL(trimmed);
  } catch {
    return trimmed;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return trimmed;
  const params = u.searchParams;
  for (const key of [...params.keys()]) if (isTracker(key)) params.delete(key);
  params.sort();
  const query = params.toString();
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.protocol}//${u.host}${path}${query ? `?${query}` : ''}`;
}
