/**
 * The conversation's detail (`/api/user/agent/conversation/v1/detail`,
 * daijinma/geo_marketing names the fallback; the body's shape is
 * **[inferred]**): the last AI speech's content items, of which the
 * `searchGuid` item holds the docs the stream left out. Pure.
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The search docs of the conversation's last answer; undefined when it has none. */
export function docsOfDetail(detail: unknown): unknown[] | undefined {
  if (!isObj(detail)) return undefined;
  const answers = list(detail.convs).filter((c) => isObj(c) && c.speaker === 'ai');
  const last = answers.at(-1);
  if (!isObj(last)) return undefined;
  for (const speech of list(last.speechesV2).reverse()) {
    if (!isObj(speech)) continue;
    const item = list(speech.content).find((c) => isObj(c) && c.type === 'searchGuid');
    if (isObj(item) && Array.isArray(item.docs)) return item.docs;
  }
  return undefined;
}
