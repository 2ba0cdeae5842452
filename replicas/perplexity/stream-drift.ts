/**
 * The stream drifts (replicas/common/drift.ts) in Perplexity's frames,
 * applied to the current format's frames chatFrames made (the older
 * format's are left as they are): content-free frames (a status, no
 * blocks) at the start and between frames before the final one; the
 * answer's first chunk moved out of the markdown block into a block of a
 * field no known format names (`rich_markdown_block`); the markdown's
 * `chunks` renamed `contents`. The page script renders all of them, as the
 * site's own next build would.
 */
import { hasDrift, type Drifts } from '../common/drift.js';

type Obj = Record<string, unknown>;
interface Patch {
  op: string;
  path: string;
  value?: unknown;
}
const message = (v: unknown) => `event: message\ndata: ${JSON.stringify(v)}\n\n`;

function json(frame: string): Obj | undefined {
  const m = /^event: message\ndata: (\{.*\})\n\n$/s.exec(frame);
  if (!m) return undefined;
  const v = JSON.parse(m[1]!) as unknown;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

const markdownPatches = (f: Obj | undefined): Patch[] | undefined => {
  const b = Array.isArray(f?.blocks) ? (f.blocks as Obj[]) : [];
  const d = b.find((x) => (x.diff_block as Obj | undefined)?.field === 'markdown_block');
  return d ? ((d.diff_block as Obj).patches as Patch[]) : undefined;
};

const isFinal = (f: Obj | undefined) => f?.final_sse_message === true || f?.final === true;

export function driftPerplexityStream(frames: string[], drifts: Drifts | undefined): string[] {
  let out = frames;
  if (hasDrift(drifts, 'unknown_content_frame')) {
    const at = out.findIndex((fr) =>
      (markdownPatches(json(fr)) ?? []).some((p) => p.path === '/chunks/-' && p.value !== ''),
    );
    if (at >= 0) {
      const f = json(out[at]!)!;
      const chunk = markdownPatches(f)!.find((p) => p.path === '/chunks/-')!.value;
      out = out.with(
        at,
        message({
          ...f,
          blocks: [
            {
              intended_usage: 'ask_text_rich',
              diff_block: {
                field: 'rich_markdown_block',
                patches: [{ op: 'replace', path: '', value: { text: chunk } }],
              },
            },
          ],
        }),
      );
    }
  }
  if (hasDrift(drifts, 'renamed_fields'))
    out = out.map((fr) => {
      const f = json(fr);
      const patches = markdownPatches(f);
      if (!f || !patches) return fr;
      const renamed = patches.map((p) => ({
        ...p,
        path: p.path.replace(/^\/chunks(?=\/|$)/, '/contents'),
        value:
          p.path === '' && typeof p.value === 'object' && p.value !== null
            ? Object.fromEntries(
                Object.entries(p.value).map(([k, v]) => [k === 'chunks' ? 'contents' : k, v]),
              )
            : p.value,
      }));
      const blocks = (f.blocks as Obj[]).map((b) =>
        (b.diff_block as Obj | undefined)?.field === 'markdown_block'
          ? { ...b, diff_block: { ...(b.diff_block as Obj), patches: renamed } }
          : b,
      );
      return message({ ...f, blocks });
    });
  if (hasDrift(drifts, 'empty_sentinels')) {
    const first = json(out[0] ?? '');
    if (first && !isFinal(first) && first.final === undefined) {
      const sentinel = message({ backend_uuid: first.backend_uuid, status: 'PENDING', blocks: [] });
      const end = out.findIndex((fr) => isFinal(json(fr)));
      const before = end < 0 ? out : out.slice(0, end);
      out = [
        sentinel,
        ...before.flatMap((fr) => [fr, sentinel]),
        ...(end < 0 ? [] : out.slice(end)),
      ];
    }
  }
  return out;
}
