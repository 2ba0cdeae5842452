/**
 * Whether an entry an answer recommends names a brand or product, and the one
 * form discovered names are merged by. Pure.
 *
 * Answers list brands, but they also list considerations (`Pricing`,
 * `Battery life`, `价格`), steps (`Step 1`, `第一步`) and headings
 * (`Conclusion`, `总结`) with the same bold heads. Precision matters more than
 * recall: a competitor list full of `Price` is worse than none. A name is NOT a
 * brand when any of these holds (checked on the name with its Markdown removed,
 * `cleanName`):
 * 1. shape: no letter; a single character; longer than 40 characters or six
 *    words; sentence punctuation (`?` `!` `。` `？` `！`); a step or ordinal
 *    (`Step 1`, `Option 2`, `第一步`, `步骤3`, `方法二`);
 * 2. Latin words: every word is a generic word (GENERIC_EN, FUNCTION_EN:
 *    `Battery life`, `Ease of use`, `Final thoughts`), or a word after the first
 *    is written in lower case and is no function word (`Best overall`,
 *    `Noise cancelling` — a phrase, where a brand capitalises: `Stark
 *    Industries`, `Sony WH-1000XM5`);
 * 3. Chinese: the Han part is covered end to end by generic words
 *    (GENERIC_ZH: `续航` + `能力`, `售后服务`), holds a phrase word
 *    (PHRASE_ZH: `的`, `如何`, `建议`, quotes), starts with a verb of steps
 *    (VERB_START_ZH: `设置`, `点击`), ends in a quality suffix at three
 *    characters or more (`安全性`, `舒适度`), or runs longer than eight Han
 *    characters. GENERIC_ZH holds adjectives too, so `续航长` and `价格低`
 *    (a noun and its verdict) are covered;
 * 4. in prose (not a list entry), a single Latin word in lower case is
 *    emphasis (`**not**`, `**expensive**`).
 * The word lists are small on purpose: the shape tests catch most phrases, the
 * lists the short generic heads that look like names.
 */

/** Generic English words: considerations, headings, steps, link labels. Lower case. */
const GENERIC_EN = new Set(
  (
    'price prices pricing cost costs budget value money plan plans tier tiers free trial ' +
    'feature features functionality performance speed quality reliability durability design ' +
    'build comfort fit size weight battery life display screen camera cameras sound audio ' +
    'storage memory connectivity compatibility integration integrations security privacy ' +
    'support service customer customers warranty ease use usability interface ui ux setup ' +
    'installation scalability availability accessibility flexibility customization ' +
    'pros cons advantages disadvantages benefits drawbacks strengths weaknesses limitations ' +
    'summary conclusion conclusions overview introduction intro background verdict ' +
    'recommendation recommendations comparison alternatives alternative options option ' +
    'note notes tip tips tldr faq faqs final thoughts bottom line key takeaways takeaway ' +
    'step steps method methods approach next best overall top pick picks choice choices ' +
    'runner up budget premium mid range entry level high end ' +
    'reviews review ratings rating reputation popularity market share ' +
    'here source sources link links website site official more learn read details ' +
    'example examples reference references why how what which who when where ' +
    'health safety efficiency energy fuel mileage range charging noise cancellation ' +
    'maintenance delivery shipping returns return policy refund ' +
    'considerations factors consider factor things requirements needs goals ' +
    'other others misc general important caveats caveat'
  ).split(' '),
);

/** Words that join the words of a name (`Procter and Gamble`, `Bang & Olufsen`). */
const FUNCTION_EN = new Set(
  'a an the of and or for to in on at by with vs de du la le des y & + under over below above between from up'.split(
    ' ',
  ),
);

/** Generic Chinese words; a Han name made only of them is a consideration or heading. */
const GENERIC_ZH = [
  '价格',
  '价钱',
  '售价',
  '费用',
  '成本',
  '预算',
  '性价比',
  '价位',
  '定价',
  '功能',
  '性能',
  '质量',
  '品质',
  '做工',
  '设计',
  '外观',
  '颜值',
  '材质',
  '重量',
  '尺寸',
  '续航',
  '电池',
  '充电',
  '屏幕',
  '显示',
  '拍照',
  '相机',
  '影像',
  '音质',
  '降噪',
  '信号',
  '系统',
  '软件',
  '硬件',
  '配置',
  '存储',
  '内存',
  '处理器',
  '芯片',
  '散热',
  '接口',
  '售后',
  '服务',
  '客服',
  '保修',
  '口碑',
  '评价',
  '评测',
  '评分',
  '用户',
  '体验',
  '使用',
  '安全',
  '隐私',
  '稳定',
  '兼容',
  '易用',
  '操作',
  '安装',
  '维护',
  '能力',
  '效果',
  '速度',
  '优点',
  '缺点',
  '优势',
  '劣势',
  '特点',
  '亮点',
  '不足',
  '短板',
  '区别',
  '对比',
  '比较',
  '总结',
  '结论',
  '小结',
  '概述',
  '简介',
  '介绍',
  '背景',
  '总体',
  '总的来说',
  '综上',
  '推荐',
  '理由',
  '建议',
  '选购',
  '购买',
  '指南',
  '攻略',
  '注意',
  '事项',
  '要点',
  '技巧',
  '步骤',
  '方法',
  '方案',
  '流程',
  '第一步',
  '第二步',
  '第三步',
  '最后',
  '其他',
  '其它',
  '常见',
  '问题',
  '适合',
  '人群',
  '场景',
  '需求',
  '因素',
  '考虑',
  '维度',
  '参考',
  '来源',
  '官网',
  '链接',
  '详情',
  '更多',
  '入门',
  '中端',
  '高端',
  '旗舰',
  '预算有限',
  '首选',
  '备选',
  '品牌',
  '产品',
  '型号',
  '款式',
  '市场',
  '份额',
  '排名',
  '榜单',
  '综合',
  '整体',
  '核心',
  '舒适',
  '舒适度',
  '耐用',
  '便携',
  '轻薄',
  '生态',
  '智能',
  '健康',
  '环保',
  '能耗',
  '油耗',
  '空间',
  '资源',
  '会员',
  '界面',
  '配送',
  '商家',
  '优惠',
  '表盘',
  '限速',
  '扫描',
  '能效',
  '等级',
  '匹数',
  '噪音',
  '千元',
  '万元',
  '以内',
  '以上',
  '以下',
  '左右',
  '元',
  '旅行',
  '拍摄',
  '家庭',
  '记录',
  '运动',
  '跟拍',
  '直播',
  '带货',
  '办公',
  '学习',
  '游戏',
  '日常',
  '通勤',
  '文章',
  '有',
  // Adjectives and degree words after a generic noun: `续航长`, `价格低`, `表盘较少`, `不限速`.
  '长',
  '短',
  '低',
  '高',
  '多',
  '少',
  '大',
  '小',
  '快',
  '慢',
  '贵',
  '好',
  '强',
  '弱',
  '简洁',
  '较',
  '不',
];
const GENERIC_ZH_SET = new Set(GENERIC_ZH);
const GENERIC_ZH_LONGEST = Math.max(...GENERIC_ZH.map((w) => w.length));

/** Chinese words that only phrases hold. */
const PHRASE_ZH =
  /[的吗呢吧这那此最更很“”「」]|如何|怎么|什么|哪些|哪个|为什么|可以|需要|建议|选择|是否|应该|注意|非常|比较/;
/** A step or tip starts with a verb (`设置支付密码`, `关闭后台自启动`). */
const VERB_START_ZH =
  /^(?:打开|点击|设置|关闭|开启|选择|下载|注册|绑定|输入|进入|登录|减少|增加|调低|调高|使用|避免|保持|查看|完成|确认|填写|上传|安装|更新|升级|删除|添加|搜索)/;
/** A quality noun (`安全性`, `舒适度`, `满意率`, `续航力`). */
const QUALITY_SUFFIX_ZH = /[性度率感力]$/;
const STEP =
  /^(?:(?:step|stage|phase|part|tip|option|method|way|day|week|round|no)\s*\.?\s*\d+|第\s*[一二三四五六七八九十百\d]+\s*[步点条个种章节部类]|(?:步骤|方法|方案|阶段|选项)\s*[一二三四五六七八九十\d]+)/i;
const SENTENCE = /[?!。？！]/;
const LETTER = /\p{L}/u;
const HAN = /\p{sc=Han}/u;
const HAN_RUN = /\p{sc=Han}+/gu;
const LATIN_WORD = /[\p{sc=Latin}\d][\p{sc=Latin}\d'’.&+-]*/gu;

const MARKDOWN = /[*_`\\[~]/;
const EDGES = /^[\s《「『“"'（(]|[\s:：,，、;；.\-–—》」』”"'）)]$/u;

/**
 * The name with its Markdown removed: emphasis and code markers, a link's
 * target (its text kept), quotes and brackets around it (`《…》`, `「…」`,
 * `"…"`), and a trailing separator or colon.
 */
export function cleanName(raw: string): string {
  let name = raw;
  if (MARKDOWN.test(name)) {
    name = name
      .replace(/!?\[((?:[^\]\\]|\\.)*)\]\([^)]*\)/g, '$1')
      .replace(/\[\^?\d+\]/g, '')
      .replace(/\*\*|__|~~|`/g, '')
      .replace(/(^|\s)[*_](?=\S)|(?<=\S)[*_](?=\s|$)/g, '$1')
      .replace(/\\(.)/g, '$1');
  }
  if (!EDGES.test(name)) return name;
  return name
    .trim()
    .replace(/[\s:：,，、;；.\-–—]+$/u, '')
    .replace(/^[《「『“"'（(\s]+|[》」』”"'）)\s]+$/gu, '')
    .trim();
}

/** The merging key of a name already cleaned (`cleanName`). */
const keyOfClean = (name: string): string =>
  ASCII.test(name)
    ? name.toLowerCase().replace(/[^a-z0-9]+/g, '')
    : name
        .normalize('NFKC')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, '');
/** NFKC leaves ASCII as it is: the common case skips it. */
const ASCII = /^[\x20-\x7e]*$/;

/**
 * The merging key: full and half width folded (NFKC), lower case, and only
 * letters and digits kept, so `Stark Industries`, `**stark industries**` and
 * `Ｓｔａｒｋ-Industries` are one brand.
 */
export function brandKey(name: string): string {
  return keyOfClean(cleanName(name));
}

/** `han` is generic words end to end (dynamic programming over the cut points). */
function coveredByGeneric(han: string): boolean {
  const reach = new Array<boolean>(han.length + 1).fill(false);
  reach[0] = true;
  for (let i = 0; i < han.length; i++) {
    if (!reach[i]) continue;
    for (let len = 1; len <= GENERIC_ZH_LONGEST && i + len <= han.length; len++) {
      if (GENERIC_ZH_SET.has(han.slice(i, i + len))) reach[i + len] = true;
    }
  }
  return reach[han.length]!;
}

function latinIsPhrase(words: string[]): boolean {
  if (!words.length) return false;
  const lower = words.map((w) => w.toLowerCase().replace(/[.'’]+$/u, ''));
  if (lower.every((w) => GENERIC_EN.has(w) || FUNCTION_EN.has(w) || /^\d+$/.test(w))) return true;
  return words.slice(1).some((w, i) => /^\p{Ll}+$/u.test(w) && !FUNCTION_EN.has(lower[i + 1]!));
}

function hanIsPhrase(name: string, runs: string[]): boolean {
  const han = runs.join('');
  if (han.length > 8 || PHRASE_ZH.test(name) || VERB_START_ZH.test(han)) return true;
  if (han.length >= 3 && runs.some((r) => QUALITY_SUFFIX_ZH.test(r))) return true;
  // Only a Han name made of generic words is one; `华为 Mate` has a Latin part that names it.
  const latin = name.replace(HAN_RUN, '').match(LATIN_WORD) ?? [];
  return latin.length === 0 && runs.every(coveredByGeneric);
}

/** A name as discovery reads it: cleaned, its merging key, and whether it names a brand. */
export interface ReadName {
  name: string;
  key: string;
  brand: boolean;
}

/** `raw` (an entry's name as written, Markdown kept or not) read once. */
export function readName(raw: string): ReadName {
  const name = cleanName(raw);
  return { name, key: keyOfClean(name), brand: brandShaped(name) };
}

/**
 * Whether `raw` (an entry's name as written, Markdown kept or not) names a
 * brand or product; `inProse`: bold or linked text outside a list's entries.
 */
export function isBrandName(raw: string, inProse = false): boolean {
  const name = cleanName(raw);
  return !(inProse && proseEmphasis(name)) && brandShaped(name);
}

/** In prose a single Latin word in lower case is emphasis (`**not**`), not a name. */
export const proseEmphasis = (name: string): boolean => /^\p{Ll}+$/u.test(name);

function brandShaped(name: string): boolean {
  if (name.length < 2 || name.length > 40 || !LETTER.test(name)) return false;
  if (SENTENCE.test(name) || STEP.test(name)) return false;
  const words = name.split(/\s+/u);
  if (words.length > 6) return false;
  if (!HAN.test(name)) return !latinIsPhrase(name.match(LATIN_WORD) ?? []);
  const runs = name.match(HAN_RUN)!;
  if (hanIsPhrase(name, runs)) return false;
  const latin = name.replace(HAN_RUN, ' ').match(LATIN_WORD) ?? [];
  if (latin.length && latin.every((w) => GENERIC_EN.has(w.toLowerCase()))) {
    return !runs.every(coveredByGeneric);
  }
  return true;
}
