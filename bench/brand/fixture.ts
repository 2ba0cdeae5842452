/**
 * The brand benchmark's inputs, deterministic: a ~10 KB Markdown answer as
 * the platforms write them (headings, lists, bold, links, a table, bare URLs,
 * Chinese and English), 10 keyword groups of 3 aliases (half with a CJK
 * alias, some with a domain), 20 references, and a task's worth of sub tasks
 * for visibilityOf.
 */
import type { Answer, Reference } from '../../services/shared/contracts/answer.js';
import type { KeywordGroup } from '../../services/shared/contracts/brand.js';
import { keywordGroups } from '../../services/shared/brand/groups.js';
import { answerBrandFields } from '../../services/shared/brand/mentions.js';
import type { VisibilityInput } from '../../services/shared/brand/visibility.js';

export type BenchAnswer = Pick<
  Answer,
  'answerContent' | 'referenceList' | 'citationList' | 'reasoningProcess'
>;

const BRANDS = [
  ['Acme', '阿克米', 'acme.com'],
  ['Globex', 'Globex Corp.', 'globex.io'],
  ['Initech', '英特科', 'initech.cn'],
  ['Umbrella', 'Umbrella Health', 'umbrella.com'],
  ['Hooli', '互力', 'hooli.com'],
  ['Vandelay', 'Vandelay Industries', 'vandelay.com'],
  ['Stark', '斯塔克', 'stark.com'],
  ['Wayne', 'Wayne Enterprises', 'wayne.com'],
  ['Soylent', '绿源', 'soylent.cn'],
  ['Cyberdyne', 'Cyberdyne Systems', 'cyberdyne.ai'],
];

/** 10 groups × 3 aliases (five with a CJK alias), each with a domain alias. */
export function benchGroups(): KeywordGroup[] {
  return keywordGroups(BRANDS.map((aliases) => aliases.join('|')));
}

/** One section of the answer naming brand `b` and its neighbour. */
function section(b: number, variant: number): string {
  const [name, second] = BRANDS[b % BRANDS.length]!;
  const [next] = BRANDS[(b + 1 + variant) % BRANDS.length]!;
  return [
    `## ${b + 1}. ${name}（${second}）`,
    '',
    `**${name}** 在2024年的市场份额持续增长，用户评价普遍较好。与 ${next} 相比，它的价格更低，`,
    `但售后服务略逊一筹。详情见 [${second} 官网](https://www.${BRANDS[b % BRANDS.length]![2]}/about?ref=answer) 和 https://news.example.com/${b}/${variant} 。`,
    '',
    `- Pricing: ${name} starts at $29/month; *${next}* charges about the same for fewer seats.`,
    `- Support: reviewers on [Zhihu](https://www.zhihu.com/question/${1000 + b}) mention \`${name}\` often.`,
    `- 其他：很多用户同时比较了几个品牌，没有明确的结论，这里只列出主要的区别和常见的问题。`,
    '',
  ].join('\n');
}

/** A Markdown answer of about `chars` characters; `variant` changes which brands rank where. */
export function benchAnswer(chars = 10_000, variant = 0): BenchAnswer {
  const parts = ['# 推荐的几个品牌\n\n以下是根据公开资料整理的对比（截至2024年）：\n\n'];
  for (let b = variant % 3; parts.join('').length < chars - 120; b += 1) {
    parts.push(section(b, variant));
    if (b % 4 === 3) {
      parts.push('| 品牌 | 价格 | 评分 |\n|---|---:|:---:|\n');
      for (let r = 0; r < 3; r++)
        parts.push(`| ${BRANDS[(b + r) % 10]![0]} | ${29 + r * 10} | 4.${r} |\n`);
      parts.push('\n');
    }
  }
  parts.push('\n---\n\n总之，选择哪一个取决于预算和需求。[1]: https://www.example.com/summary\n');
  const referenceList: Reference[] = Array.from({ length: 20 }, (_, i) => {
    const brand = BRANDS[(i + variant) % 10]!;
    return {
      index: i + 1,
      title: i % 3 ? `${brand[0]} review ${2020 + (i % 5)}: pros and cons` : `行业报告第${i}期`,
      url:
        i % 4 ? `https://www.site${i % 7}.com/article/${i}` : `https://docs.${brand[2]}/guide/${i}`,
      site: i % 2 ? `站点${i}` : `site${i % 7}.com`,
      icon: '',
    };
  });
  return {
    answerContent: parts.join(''),
    referenceList,
    citationList: referenceList.filter((r) => r.index % 3 === 0),
    reasoningProcess: {
      summary: '比较各品牌的价格和口碑',
      content: `用户想知道哪个品牌更好。先看 ${BRANDS[variant % 10]![0]} 和 ${BRANDS[(variant + 1) % 10]![1]}，再看其他的。`,
    },
  };
}

const PLATFORMS = ['deepseek', 'doubao', 'kimi', 'qwen', 'yuanbao'];
const VARIANTS = 25;

/**
 * `count` sub tasks across 5 platforms, two of them on both channels, one in
 * ten failed, with the mentions, discovered brands and insight digest
 * answerBrandFields gives their answers (25 answer variants, computed once), their prompts,
 * references and citations.
 */
export function benchSubTasks(groups: readonly KeywordGroup[], count: number): VisibilityInput[] {
  const answers = Array.from({ length: VARIANTS }, (_, v) => {
    const answer = benchAnswer(3_000, v);
    return {
      ...answerBrandFields(groups, answer),
      citationList: answer.citationList,
      referenceList: answer.referenceList,
    };
  });
  return Array.from({ length: count }, (_, i) => {
    const platform = PLATFORMS[i % PLATFORMS.length]!;
    const answer = answers[i % VARIANTS]!;
    return {
      platform,
      channel: platform === 'deepseek' || platform === 'kimi' ? (i % 2 ? 'web' : 'api') : 'api',
      mode: 'standard',
      status: i % 10 === 9 ? 'failed' : 'completed',
      subTaskId: `sub-${i}`,
      prompt: `prompt ${i % 50}`,
      mentions: answer.mentions,
      discovered: answer.discovered,
      insightDigest: answer.insightDigest,
      citationList: answer.citationList,
      referenceList: answer.referenceList,
    };
  });
}
