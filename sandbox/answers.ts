/**
 * The sandbox platform's "model": a pure, deterministic answer for (prompt, mode).
 *
 * The same prompt always mentions the same brands and cites the same sources, in
 * every mode; the mode only decides which fields are present (reasoning in the
 * reasoning modes, references and citations in the search modes). Failure and
 * latency directives (`#fail:…`, `#latency:…`, `#vary:…`) are stripped before the
 * answer is derived, so `best CRM #fail:500x2` answers like `best CRM` once it
 * succeeds. `withoutLead` (the `#vary:` directive's draw) puts a brand the
 * answer does not otherwise name in its lead brand's place.
 */
import type { Mode } from '../services/shared/platforms.js';
import type { Answer, Media, Reference } from '../services/shared/contracts/answer.js';

export interface SandboxBrand {
  name: string;
  /** The brand's Chinese name, used in the Chinese sentence of the answer. */
  zh: string;
}

export const SANDBOX_BRANDS: readonly SandboxBrand[] = [
  { name: 'Acme', zh: '阿克米' },
  { name: 'Globex', zh: '格罗贝克斯' },
  { name: 'Initech', zh: '英尼泰克' },
  { name: 'Umbrella', zh: '安布雷拉' },
  { name: 'Hooli', zh: '呼利' },
  { name: 'Stark Industries', zh: '斯塔克工业' },
];

interface SiteInfo {
  site: string;
  title: (topic: string, a: SandboxBrand, b: SandboxBrand) => string;
}

const SITES: readonly SiteInfo[] = [
  { site: 'reviewhub', title: (t, a, b) => `${a.name} vs ${b.name}: ${t} compared` },
  { site: 'techdaily', title: (t) => `The best ${t} options this year` },
  { site: 'marketwatcher', title: (_t, a) => `Why ${a.name} keeps winning market share` },
  { site: 'buyersguide', title: (t) => `Buyer's guide: ${t}` },
  { site: 'zhiku', title: (_t, a) => `2025年${a.zh}深度评测` },
  { site: 'industryinsight', title: (_t, _a, b) => `${b.name} in 2025: strengths and weaknesses` },
  { site: 'forumtalk', title: (t) => `Community thread: what do you use for ${t}?` },
  { site: 'datasheet', title: (_t, a, b) => `${a.name} and ${b.name} pricing table` },
];

const TRAITS = [
  'the most complete feature set and a long track record',
  'strong value for money and a generous free tier',
  'excellent support and a fast-moving roadmap',
  'the best integrations with the tools teams already use',
  'a simple, friendly interface that needs almost no training',
  'solid security certifications for regulated industries',
];

const BEST_FOR = ['Enterprises', 'Small teams', 'Startups', 'Power users', 'Beginners', 'Agencies'];
const PRICES = ['$', '$$', '$$$'];

/** The refusal the sandbox gives for `#fail:refuse`. */
export const REFUSAL_TEXT = "I can't help with that.";

/** 32-bit FNV-1a over the UTF-8 bytes of `s`. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(s)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A small deterministic PRNG (mulberry32): returns a function giving numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function modeFlags(mode: Mode): { reasoning: boolean; search: boolean } {
  return {
    reasoning: mode === 'reasoning' || mode === 'reasoning_search',
    search: mode === 'search' || mode === 'reasoning_search',
  };
}

export function modeFromFlags(reasoning: boolean, search: boolean): Mode {
  if (reasoning && search) return 'reasoning_search';
  if (reasoning) return 'reasoning';
  if (search) return 'search';
  return 'standard';
}

/** Matches the sandbox's prompt directives (`#fail:500x2`, `#latency:200`, `#vary:50`). */
export const DIRECTIVE_RE = /#(?:fail:[a-z0-9]+(?:x\d+)?|latency:\d+|vary:\d+)/gi;

/** The prompt without directives, trimmed and with runs of blanks collapsed. */
export function stripDirectives(prompt: string): string {
  return prompt.replace(DIRECTIVE_RE, ' ').replace(/\s+/g, ' ').trim();
}

/** A Markdown-safe short topic for the prompt (letters, digits, spaces, hyphens). */
export function topicOf(prompt: string): string {
  const cleaned = stripDirectives(prompt)
    .replace(/[^\p{L}\p{N}\s-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!cleaned) return 'your question';
  const chars = Array.from(cleaned);
  return chars.length > 60 ? chars.slice(0, 60).join('').trim() : cleaned;
}

function slugOf(topic: string, h: number): string {
  const words = topic
    .toLowerCase()
    .split(' ')
    .filter((w) => /^[a-z0-9-]+$/.test(w))
    .slice(0, 5);
  const base = words.join('-').replace(/-+/g, '-').replace(/^-|-$/g, '') || 'guide';
  return `${base}-${(h & 0xffff).toString(16).padStart(4, '0')}`;
}

function pick<T>(items: readonly T[], rnd: () => number, count: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) {
    const i = Math.floor(rnd() * pool.length);
    out.push(pool.splice(i, 1)[0] as T);
  }
  return out;
}

/** The three brands the answer to `prompt` mentions, most recommended first. */
export function brandsFor(prompt: string): SandboxBrand[] {
  const rnd = mulberry32(hashString(stripDirectives(prompt)));
  return pick(SANDBOX_BRANDS, rnd, 3);
}

function imageFor(brand: SandboxBrand, slug: string, hue: number): Media {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="270" viewBox="0 0 480 270">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="hsl(${hue},70%,55%)"/>` +
    `<stop offset="1" stop-color="hsl(${(hue + 60) % 360},70%,35%)"/></linearGradient></defs>` +
    `<rect width="480" height="270" rx="18" fill="url(#g)"/>` +
    `<circle cx="400" cy="70" r="44" fill="rgba(255,255,255,0.18)"/>` +
    `<text x="32" y="160" font-family="sans-serif" font-size="44" font-weight="700" fill="#fff">${brand.name}</text>` +
    `<text x="32" y="200" font-family="sans-serif" font-size="18" fill="rgba(255,255,255,0.85)">${slug}</text>` +
    `</svg>`;
  return {
    type: 'image',
    url: `data:image/svg+xml,${encodeURIComponent(svg)}`,
    title: `${brand.name} product overview`,
  };
}

function markers(indices: number[] | undefined): string {
  return indices && indices.length > 0 ? indices.map((i) => `[${i}]`).join('') : '';
}

/**
 * The sandbox's answer to `prompt` in `mode`. Pure and deterministic: the same
 * (prompt, mode, withoutLead) always gives a deeply equal Answer.
 */
export function sandboxAnswer(prompt: string, mode: Mode, withoutLead = false): Answer {
  const clean = stripDirectives(prompt);
  const h = hashString(clean);
  const rnd = mulberry32(h);
  const picked = pick(SANDBOX_BRANDS, rnd, 3) as [SandboxBrand, SandboxBrand, SandboxBrand];
  const [lead, b2, b3] = picked;
  const b1 = withoutLead ? SANDBOX_BRANDS.find((b) => !picked.includes(b))! : lead;
  const traits = pick(TRAITS, rnd, 3);
  const bestFor = pick(BEST_FOR, rnd, 3);
  const prices = [0, 1, 2].map(() => PRICES[Math.floor(rnd() * PRICES.length)] as string);
  const topic = topicOf(prompt);
  const slug = slugOf(topic, h);
  const { reasoning, search } = modeFlags(mode);

  // Sources: 4-6 of them; a non-empty strict subset is cited.
  const refCount = 4 + Math.floor(rnd() * 3);
  const sites = pick(SITES, rnd, refCount);
  const references: Reference[] = sites.map((s, i) => ({
    index: i + 1,
    title: s.title(topic, i % 2 === 0 ? b1 : b2, i % 2 === 0 ? b2 : b3),
    url: `https://${s.site}.example/${slug}-${i + 1}`,
    site: s.site,
    icon: `https://${s.site}.example/favicon.ico`,
  }));
  const citedCount = 1 + Math.floor(rnd() * (refCount - 1));
  const cited = pick(
    references.map((r) => r.index),
    rnd,
    citedCount,
  ).sort((a, b) => a - b);

  // Citation markers go into six slots of the text, each cited index at least once.
  const slots: number[][] = [[], [], [], [], [], []];
  if (search) {
    cited.forEach((index, i) => slots[i % slots.length]!.push(index));
    if (cited.length < slots.length) slots[5]!.push(cited[0]!);
  }

  const lines = [
    `## ${topic.charAt(0).toUpperCase()}${topic.slice(1)}`,
    '',
    `Here is a quick overview for “${topic}”. **${b1.name}** is the option most often recommended${markers(slots[0])}, ` +
      `followed by **${b2.name}** and **${b3.name}**${markers(slots[1])}.`,
    '',
    '### Top picks',
    '',
    `1. **${b1.name}** — ${traits[0]}${markers(slots[2])}`,
    `2. **${b2.name}** — ${traits[1]}${markers(slots[3])}`,
    `3. **${b3.name}** — ${traits[2]}`,
    '',
    '| Brand | Best for | Price |',
    '| --- | --- | --- |',
    `| ${b1.name} | ${bestFor[0]} | ${prices[0]} |`,
    `| ${b2.name} | ${bestFor[1]} | ${prices[1]} |`,
    `| ${b3.name} | ${bestFor[2]} | ${prices[2]} |`,
    '',
    `> 中文摘要：${b1.zh}在这一领域口碑最好，${b2.zh}性价比更高${markers(slots[4])}。🚀`,
    '',
    `In short: start with **${b1.name}**, compare it with *${b2.name}*, and keep ${b3.name} in mind ` +
      `if your needs are specialised${markers(slots[5])}.`,
  ];
  const answerContent = lines.join('\n');

  const reasoningProcess = reasoning
    ? {
        summary: `Compared ${b1.name}, ${b2.name} and ${b3.name} for “${topic}” and ranked ${b1.name} first.`,
        content: [
          `The user asks about “${topic}”. I should list the main options and rank them.`,
          `1. ${b1.name}: widely recommended, ${traits[0]}.`,
          `2. ${b2.name}: ${traits[1]}.`,
          `3. ${b3.name}: ${traits[2]}.`,
          search
            ? `The sources from ${references[0]!.site} and ${references[1]!.site} agree that ${b1.name} leads.`
            : 'I did not search the web, so I rely on what I already know.',
          `用中文再确认一下：${b1.zh}是首选，${b2.zh}排第二。`,
          `So the answer should lead with ${b1.name} and give a short comparison table.`,
        ].join('\n'),
      }
    : null;

  return {
    answerContent,
    referenceList: search ? references : [],
    citationList: search ? references.filter((r) => cited.includes(r.index)) : [],
    reasoningProcess,
    recommendedQuestions: [
      `How does ${b1.name} compare with ${b2.name}?`,
      `What does ${b3.name} cost for a small team?`,
      `${b1.zh}有哪些替代品？`,
    ],
    mediaContent: [imageFor(b1, slug, h % 360)],
  };
}
