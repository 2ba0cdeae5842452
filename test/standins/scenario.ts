/**
 * The deterministic answer every stand-in gives, before each vendor's wire
 * format dresses it up, plus the directives a prompt can carry to make a
 * stand-in fail (`#fail:<kind>`, optionally `#once` to fail only the first
 * time that prompt is asked). Shared by the stand-ins and the tests' expectations.
 */
export interface Source {
  title: string;
  url: string;
  site: string;
  icon: string;
}

export interface Segment {
  text: string;
  /** 1-based indices into SOURCES that this segment cites. */
  cite: number[];
}

export const SOURCES: readonly Source[] = [
  {
    title: '阿克米 CRM 官方网站',
    url: 'https://www.acme-crm.example.cn/',
    site: '阿克米',
    icon: 'https://www.acme-crm.example.cn/favicon.ico',
  },
  {
    title: '2025 年 CRM 评测',
    url: 'https://review.example.com/crm-2025',
    site: '评测网',
    icon: 'https://review.example.com/icon.png',
  },
  {
    title: 'Best CRM tools of the year',
    url: 'https://tech.example.org/best-crm',
    site: 'TechExample',
    icon: 'https://tech.example.org/fav.ico',
  },
  {
    title: '知乎：哪个 CRM 好用？',
    url: 'https://zhihu.example.com/q/123',
    site: '知乎',
    icon: 'https://zhihu.example.com/favicon.ico',
  },
];

/** Sources the search answer cites (1-based), in order. */
export const CITED = [1, 3];

/**
 * xAI's `citations`: the three sources its search met, in its order (1-based
 * into SOURCES). The first is never cited; the answer annotates the other two.
 */
export const XAI_FOUND = [2, 1, 3];

/** xAI's inline link for a cited source: numbered by citation, not by source. */
export const xaiMarker = (n: number): string =>
  `[[${CITED.indexOf(n) + 1}]](${SOURCES[n - 1]!.url})`;

/**
 * The model a vendor says answered: the dated snapshot behind the alias asked
 * for (OpenAI answers `gpt-4o` with `gpt-4o-2024-08-06`), so a driver that
 * copied the requested name instead of reading the response's is caught.
 */
export const servedModel = (requested: unknown): string => `${String(requested)}-2026-05-01`;

export const REASONING =
  '先弄清用户关心的是价格还是功能。Then compare the candidates.\n第二步：总结结论。';
export const RELATED = ['阿克米 CRM 多少钱？', 'Which CRM integrates with WeChat?'];
export const IMAGES = [
  { url: 'https://img.example.cn/acme.png', origin: 'https://www.acme-crm.example.cn/' },
];

/** The answer as segments; without search nothing is cited. */
export function segments(prompt: string, search: boolean): Segment[] {
  const topic = prompt.replace(/#\S+/g, '').trim();
  return [
    { text: `关于「${topic}」，阿克米 CRM 🚀 在中小企业中口碑很好`, cite: search ? [1] : [] },
    { text: '，价格透明且支持中文客服。', cite: [] },
    { text: 'Independent reviews rank it among the top three', cite: search ? [3, 1] : [] },
    { text: '。', cite: [] },
  ];
}

/** The answer text with each segment's markers written by `marker` (none: plain text). */
export function answerText(segs: Segment[], marker?: (n: number) => string): string {
  return segs.map((s) => s.text + (marker ? s.cite.map(marker).join('') : '')).join('');
}

export const FAIL_KINDS = [
  'auth',
  'billing',
  'rate',
  'overload',
  'server',
  'midstream',
  'refusal',
  'empty',
  'slow',
  // Gemini's stand-in only: its 429s for a spent daily quota and a spent plan.
  'quota_day',
  'quota_plan',
] as const;
export type FailKind = (typeof FAIL_KINDS)[number];

/** The failures a vendor answers with an HTTP error instead of an answer stream. */
const ERROR_REPLIES = ['auth', 'billing', 'rate', 'overload', 'server'] as const;
export type ErrorReply = (typeof ERROR_REPLIES)[number];
export const isErrorReply = (kind: FailKind | undefined): kind is ErrorReply =>
  (ERROR_REPLIES as readonly (string | undefined)[]).includes(kind);

/** The failure a prompt asks for; `#once` fails only the first ask of that prompt. */
export class Directives {
  private readonly seen = new Map<string, number>();

  failure(prompt: string): FailKind | undefined {
    const kind = /#fail:(\w+)/.exec(prompt)?.[1] as FailKind | undefined;
    if (!kind || !FAIL_KINDS.includes(kind)) return undefined;
    const count = (this.seen.get(prompt) ?? 0) + 1;
    this.seen.set(prompt, count);
    return /#once\b/.test(prompt) && count > 1 ? undefined : kind;
  }
}
