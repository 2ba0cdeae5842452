/**
 * UI text in English and Chinese. The language starts from navigator.language
 * and the toggle's choice is kept in localStorage; status, mode and field
 * names from the API stay as the API spells them.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export type Lang = 'en' | 'zh';

const en = {
  appName: 'AI-answer monitor',
  signIn: 'Sign in',
  signOut: 'Sign out',
  apiKey: 'API key',
  apiKeyHint: 'The key from `npm run admin -- create-user`; only a short-lived token is kept.',
  tasks: 'Tasks',
  newBatch: 'New batch',
  operator: 'Operator',
  operatorOnly:
    'This page needs the operator role. You are signed in as {name} (user {userId}) with the role "{role}".',
  operatorGrant: 'An operator grants the role on the service host:',
  status: 'Status',
  all: 'All',
  created: 'Created',
  prompts: 'Prompts',
  platforms: 'Platforms',
  progress: 'Progress',
  previous: 'Previous',
  next: 'Next',
  pageOf: 'Page {page} of {pages}',
  noTasks: 'No tasks yet.',
  loading: 'Loading…',
  promptsHint: 'One prompt per line (at most 50).',
  platformsHint:
    'Tick each channel to ask and choose its mode (* = the channel used when none is named).',
  channel: 'Channel',
  mode: 'Mode',
  available: 'available',
  unavailable: 'unavailable',
  unknownAvailability: 'availability unknown',
  missingNode: 'no live crawler node runs it',
  missingNodeIn: 'no live crawler node runs it in region {region}',
  missingAccount: 'no usable account',
  missingAccountIn: 'no usable account in region {region}',
  region: 'Region',
  defaultRegion: 'Default (no region)',
  inactive: 'inactive',
  keywords: 'Brand keywords',
  keywordsHint: 'Acme|阿克米|acme.com, Globex — groups by comma, aliases by |.',
  callbackUrl: 'Callback URL',
  screenshot: 'Screenshot',
  screenshot0: 'None',
  screenshot1: 'Page',
  screenshot2: 'Mentions',
  submit: 'Submit batch',
  submitting: 'Submitting…',
  fixErrors: 'The request was refused; see the fields marked below.',
  counters: '{completed}/{total} completed, {failed} failed',
  live: 'live',
  finished: 'finished',
  grid: 'Prompts × platforms',
  visibility: 'Brand visibility',
  visibilitySoFar: 'Over the answers so far; it updates as sub tasks complete.',
  taskName: 'Name (optional)',
  taskNameHint: 'Shown in the task list, on the task page and in exports.',
  mentionRate: 'Mention rate',
  top3Share: 'Recommended among the first 3 (% of answers)',
  positionChip: 'position {n}',
  groupRankChip: '{n} of your brands',
  shareOfVoice: 'Share of voice',
  topDomains: 'Top cited domains',
  noKeywords: 'No keywords were given for this task.',
  noAnswersYet: 'No completed answer to count yet.',
  noMentionsYet: 'No answer mentions any keyword yet.',
  noCitationsYet: 'No answer cites a source yet (sources come with the search modes).',
  exportLabel: 'Export',
  answer: 'Answer',
  references: 'References',
  cited: 'cited',
  reasoning: 'Reasoning',
  followUps: 'Follow-up questions',
  rawEvidence: 'Raw evidence (NDJSON)',
  pageScreenshot: 'Screenshot',
  mentionsShot: 'Mentions screenshot',
  zoom: 'Click to zoom',
  noAnswer: 'No answer.',
  error: 'Error',
  backToTask: 'Back to the task',
  nodes: 'Crawler nodes',
  ports: 'Proxy ports',
  accounts: 'Accounts',
  callbacks: 'Callback deliveries',
  taskId: 'Task id',
  show: 'Show',
  regions: 'Regions',
  capacity: 'Capacity',
  running: 'Running',
  none: 'None.',
  language: '中文',
  choosePlatform: 'choose at least one platform',
};

const zh: typeof en = {
  appName: 'AI 回答监测',
  signIn: '登录',
  signOut: '退出',
  apiKey: 'API 密钥',
  apiKeyHint: '由 `npm run admin -- create-user` 生成；浏览器只保留短期令牌。',
  tasks: '任务',
  newBatch: '新建批量任务',
  operator: '运维',
  operatorOnly:
    '此页面需要 operator（运维）角色。你当前以 {name}（用户 {userId}）登录，角色为 “{role}”。',
  operatorGrant: '请运维人员在服务所在主机上授予该角色：',
  status: '状态',
  all: '全部',
  created: '创建时间',
  prompts: '提示词',
  platforms: '平台',
  progress: '进度',
  previous: '上一页',
  next: '下一页',
  pageOf: '第 {page} / {pages} 页',
  noTasks: '还没有任务。',
  loading: '加载中…',
  promptsHint: '每行一个提示词（最多 50 个）。',
  platformsHint: '勾选要询问的渠道并选择模式（* = 未指定渠道时使用的渠道）。',
  channel: '渠道',
  mode: '模式',
  available: '可用',
  unavailable: '不可用',
  unknownAvailability: '可用性未知',
  missingNode: '没有运行它的在线爬虫节点',
  missingNodeIn: '地区 {region} 没有运行它的在线爬虫节点',
  missingAccount: '没有可用账号',
  missingAccountIn: '地区 {region} 没有可用账号',
  region: '地区',
  defaultRegion: '默认（不指定地区）',
  inactive: '不可用',
  keywords: '品牌关键词',
  keywordsHint: 'Acme|阿克米|acme.com, Globex —— 逗号分组，| 分隔别名。',
  callbackUrl: '回调地址',
  screenshot: '截图',
  screenshot0: '不截图',
  screenshot1: '页面',
  screenshot2: '提及处',
  submit: '提交任务',
  submitting: '提交中…',
  fixErrors: '请求被拒绝，请查看下方标出的字段。',
  counters: '已完成 {completed}/{total}，失败 {failed}',
  live: '实时',
  finished: '已结束',
  grid: '提示词 × 平台',
  visibility: '品牌可见度',
  visibilitySoFar: '基于目前已完成的回答，随子任务完成而更新。',
  taskName: '名称（可选）',
  taskNameHint: '显示在任务列表、任务页面和导出文件中。',
  mentionRate: '提及率',
  top3Share: '位列推荐前三（占回答的 %）',
  positionChip: '第 {n} 位',
  groupRankChip: '你的品牌中第 {n}',
  shareOfVoice: '声量占比',
  topDomains: '被引用最多的域名',
  noKeywords: '此任务未设置关键词。',
  noAnswersYet: '还没有可统计的已完成回答。',
  noMentionsYet: '还没有回答提及任何关键词。',
  noCitationsYet: '还没有回答引用来源（搜索模式才有来源）。',
  exportLabel: '导出',
  answer: '回答',
  references: '参考来源',
  cited: '已引用',
  reasoning: '推理过程',
  followUps: '推荐追问',
  rawEvidence: '原始证据（NDJSON）',
  pageScreenshot: '截图',
  mentionsShot: '提及截图',
  zoom: '点击放大',
  noAnswer: '没有回答。',
  error: '错误',
  backToTask: '返回任务',
  nodes: '爬虫节点',
  ports: '代理端口',
  accounts: '账号',
  callbacks: '回调投递',
  taskId: '任务 ID',
  show: '查看',
  regions: '地区',
  capacity: '容量',
  running: '运行中',
  none: '无。',
  language: 'English',
  choosePlatform: '请至少选择一个平台',
};

export type TextKey = keyof typeof en;
const TEXTS: Record<Lang, typeof en> = { en, zh };

export function initialLang(): Lang {
  const kept = localStorage.getItem('monitor.lang');
  if (kept === 'en' || kept === 'zh') return kept;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function keepLang(lang: Lang): void {
  localStorage.setItem('monitor.lang', lang);
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}

export type Translate = (key: TextKey, vars?: Record<string, string | number>) => string;

export function translator(lang: Lang): Translate {
  return (key, vars) =>
    TEXTS[lang][key].replace(/\{(\w+)\}/g, (_, name: string) => String(vars?.[name] ?? ''));
}

export const LangContext = createContext<{ lang: Lang; t: Translate }>({
  lang: 'en',
  t: translator('en'),
});

export const useT = (): Translate => useContext(LangContext).t;
