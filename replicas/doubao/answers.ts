/**
 * What the Doubao replica answers: deterministic per (prompt, mode), with
 * everything the real site gives in that mode: Markdown text, the deep-think
 * reasoning (with a search run inside it when both are on), search results
 * with site names and icons, a Douyin video card, and follow-up questions.
 * The integration test derives its expected fields from here.
 */
import { createHash } from 'node:crypto';

export interface Flags {
  deepThink: boolean;
  webSearch: boolean;
}

export interface TextCard {
  index: number;
  url: string;
  title: string;
  summary: string;
  sitename: string;
  icon: string;
}

export interface VideoCard {
  index: number;
  url: string;
  title: string;
  platform: string;
  cover: string;
}

export interface ReplicaAnswer {
  /** The answer's Markdown, as deltas in streaming order. */
  text: string[];
  /** Deep-think text, as deltas (empty without deep think). */
  reasoning: string[];
  thinkingTitle: string;
  queries: string[];
  cards: TextCard[];
  videos: VideoCard[];
  followUps: string[];
}

const SITES = [
  { host: 'www.zhihu.com', name: '知乎' },
  { host: 'baike.baidu.com', name: '百度百科' },
  { host: 'www.thepaper.cn', name: '澎湃新闻' },
  { host: 'www.36kr.com', name: '36氪' },
  { host: 'news.qq.com', name: '腾讯新闻' },
];

function seedOf(prompt: string): number {
  return createHash('sha256').update(prompt).digest().readUInt32BE(0);
}

export function replicaAnswer(prompt: string, flags: Flags): ReplicaAnswer {
  const topic = prompt.replace(/#\S+/g, '').trim() || '这个问题';
  const seed = seedOf(topic);
  const site = (k: number) => SITES[(seed + k) % SITES.length]!;
  const cards: TextCard[] = flags.webSearch
    ? [0, 1, 2].map((k) => ({
        index: k + 1,
        url: `https://${site(k).host}/doubao/${seed % 10_000}/${k + 1}`,
        title: `${topic}：${['全面解读', '最新进展', '常见问题'][k]}`,
        summary: `关于“${topic}”的资料第 ${k + 1} 篇。`,
        sitename: site(k).name,
        icon: `https://p3-search.byteimg.com/img/labis/${site(k).host.replace(/\W/g, '')}~32x32.image`,
      }))
    : [];
  const videos: VideoCard[] = flags.webSearch
    ? [
        {
          index: 4,
          url: `https://www.douyin.com/video/74${String(seed).padStart(17, '0')}`,
          title: `一分钟看懂${topic}`,
          platform: '抖音',
          cover: `https://p9-sign.douyinpic.com/tos-cn-p-0015/${seed}~tplv-dy-cropcenter.jpeg`,
        },
      ]
    : [];
  const intro = flags.webSearch ? `根据搜索到的资料，关于**${topic}**：` : `关于**${topic}**：`;
  const text = [
    `${intro}\n\n`,
    `1. 第一点：${topic}的背景`,
    `（编号 ${seed % 97}）；\n`,
    `2. 第二点：${flags.deepThink ? '经过深度思考后的' : ''}结论。`,
  ];
  const reasoning = flags.deepThink
    ? [`用户问的是“${topic}”，`, flags.webSearch ? '先搜索最新资料，' : '', '再分两点回答。']
    : [];
  return {
    text,
    reasoning: reasoning.filter(Boolean),
    thinkingTitle: flags.deepThink ? '已深度思考（用时 3 秒）' : '',
    queries: flags.webSearch ? [topic, `${topic} 最新`] : [],
    cards,
    videos,
    followUps: [`${topic}有哪些风险？`, `${topic}适合谁？`, `能再举个例子吗？`],
  };
}

/** The canned refusal Doubao streams for a prompt it will not answer. */
export const REFUSAL_TEXT = ['你好，这个问题我暂时无法回答，', '让我们换个话题再聊聊吧。'];
