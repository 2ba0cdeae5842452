/**
 * The platform catalogue: canonical lowercase names, their aliases, and the
 * modes each channel can run. Pure data plus look-ups; the api validates
 * submissions against it and `GET /platforms` lists it.
 */
export const MODES = ['standard', 'reasoning', 'search', 'reasoning_search'] as const;
export type Mode = (typeof MODES)[number];

export const CHANNELS = ['api', 'web'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface PlatformInfo {
  name: string;
  label: string;
  vendor: string;
  aliases: readonly string[];
  /** Modes per channel; a channel that is absent cannot be used for the platform. */
  channels: Readonly<Partial<Record<Channel, readonly Mode[]>>>;
  /** The channel used unless the operator chooses another one. */
  defaultChannel: Channel;
}

const ALL: readonly Mode[] = MODES;
const NO_SEARCH: readonly Mode[] = ['standard', 'reasoning'];

export const PLATFORMS: readonly PlatformInfo[] = [
  {
    name: 'chatgpt',
    label: 'ChatGPT',
    vendor: 'OpenAI',
    aliases: ['openai', 'gpt'],
    channels: { api: ALL, web: ALL },
    defaultChannel: 'api',
  },
  {
    name: 'claude',
    label: 'Claude',
    vendor: 'Anthropic',
    aliases: ['anthropic'],
    channels: { api: ALL, web: ALL },
    defaultChannel: 'api',
  },
  {
    name: 'gemini',
    label: 'Gemini',
    vendor: 'Google',
    aliases: ['google', 'bard'],
    channels: { api: ALL, web: ALL },
    defaultChannel: 'api',
  },
  {
    name: 'perplexity',
    label: 'Perplexity',
    vendor: 'Perplexity AI',
    aliases: ['pplx', 'sonar'],
    channels: { api: ALL, web: ALL },
    defaultChannel: 'api',
  },
  // DeepSeek's API has no web search; its consumer site does.
  {
    name: 'deepseek',
    label: 'DeepSeek',
    vendor: 'DeepSeek',
    aliases: [],
    channels: { api: NO_SEARCH, web: ALL },
    defaultChannel: 'api',
  },
  {
    name: 'doubao',
    label: 'Doubao',
    vendor: 'ByteDance (Volcengine Ark)',
    aliases: ['ark', 'volcengine'],
    channels: { api: ALL, web: ALL },
    defaultChannel: 'api',
  },
  {
    name: 'kimi',
    label: 'Kimi',
    vendor: 'Moonshot AI',
    aliases: ['moonshot'],
    channels: { api: ALL, web: ALL },
    defaultChannel: 'api',
  },
  {
    name: 'qwen',
    label: 'Qwen',
    vendor: 'Alibaba (DashScope)',
    aliases: ['tongyi', 'dashscope'],
    channels: { api: ALL, web: ALL },
    defaultChannel: 'api',
  },
  {
    name: 'yuanbao',
    label: 'Yuanbao',
    vendor: 'Tencent (Hunyuan)',
    aliases: ['hunyuan'],
    channels: { api: ALL, web: ALL },
    defaultChannel: 'api',
  },
  {
    name: 'wenxin',
    label: 'Wenxin (ERNIE)',
    vendor: 'Baidu (Qianfan)',
    aliases: ['ernie', 'qianfan', 'yiyan'],
    channels: { api: ALL, web: ALL },
    defaultChannel: 'api',
  },
  {
    name: 'zhipu',
    label: 'Zhipu GLM',
    vendor: 'Zhipu AI',
    aliases: ['chatglm', 'glm'],
    channels: { api: ALL, web: ALL },
    defaultChannel: 'api',
  },
  {
    name: 'grok',
    label: 'Grok',
    vendor: 'xAI',
    aliases: ['xai'],
    channels: { api: ALL, web: ALL },
    defaultChannel: 'api',
  },
  {
    name: 'sandbox',
    label: 'Sandbox (simulated, API channel)',
    vendor: 'built-in',
    aliases: ['demo'],
    channels: { api: ALL, web: ALL },
    defaultChannel: 'api',
  },
  // Two more simulated assistants, so a batch can try several "platforms" offline.
  {
    name: 'sandbox-web',
    label: 'Sandbox chat site (simulated, web channel)',
    vendor: 'built-in',
    aliases: ['demo-web'],
    channels: { web: ALL },
    defaultChannel: 'web',
  },
  {
    name: 'sandbox-cn',
    label: 'Sandbox 中文助手 (simulated, API channel)',
    vendor: 'built-in',
    aliases: ['demo-cn'],
    channels: { api: ALL },
    defaultChannel: 'api',
  },
];

const byName = new Map<string, PlatformInfo>();
for (const p of PLATFORMS) {
  byName.set(p.name, p);
  for (const alias of p.aliases) byName.set(alias, p);
}

/** Resolves a submitted name (any case, canonical or alias) to its catalogue entry. */
export function findPlatform(name: string): PlatformInfo | undefined {
  return byName.get(name.trim().toLowerCase());
}

/** The channel a platform runs on: the operator's choice if it has that channel, else its default. */
export function activeChannel(
  platform: PlatformInfo,
  choices: Readonly<Record<string, string>> = {},
): Channel {
  const chosen = choices[platform.name];
  return chosen && chosen in platform.channels ? (chosen as Channel) : platform.defaultChannel;
}

/** Modes the platform supports over the given channel (by default its active one). */
export function supportedModes(
  platform: PlatformInfo,
  channel: Channel = platform.defaultChannel,
): Mode[] {
  const modes = platform.channels[channel] ?? [];
  return MODES.filter((m) => modes.includes(m));
}

export function isMode(value: unknown): value is Mode {
  return typeof value === 'string' && (MODES as readonly string[]).includes(value);
}
