/**
 * Where the CLI finds the service and its API key: the environment
 * (AIMON_URL, AIMON_API_KEY), else the config file (AIMON_CONFIG, default
 * ~/.config/aimon/config.json) that `aimon login` writes; and the directory
 * the user's relative paths mean (INIT_CWD). The only module of the CLI that
 * reads the environment or the config file.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError, EXIT } from './exit-codes.js';

export const DEFAULT_URL = 'http://127.0.0.1:3000';

export interface Settings {
  url: string;
  apiKey: string | undefined;
  /** The config file read (and written by `login`). */
  configPath: string;
  /**
   * Where relative paths the user gives (`-o`, `--file`) start: npm's
   * INIT_CWD, the directory `npm run cli` was typed in (npm runs the script
   * from the project root), else the process's own directory.
   */
  cwd: string;
}

export interface SavedConfig {
  url?: string;
  apiKey?: string;
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.AIMON_CONFIG || join(env.HOME || homedir(), '.config', 'aimon', 'config.json');
}

/** The environment wins over the file, the file over the default. */
export async function loadSettings(env: NodeJS.ProcessEnv = process.env): Promise<Settings> {
  const path = configPath(env);
  const saved = await readConfig(path);
  return {
    url: trimSlash(env.AIMON_URL || saved.url || DEFAULT_URL),
    apiKey: env.AIMON_API_KEY || saved.apiKey || undefined,
    configPath: path,
    cwd: env.INIT_CWD || process.cwd(),
  };
}

async function readConfig(path: string): Promise<SavedConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`cannot read ${path}: ${(err as Error).message}`, EXIT.usage);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
    const { url, apiKey } = parsed as Record<string, unknown>;
    return {
      url: typeof url === 'string' ? url : undefined,
      apiKey: typeof apiKey === 'string' ? apiKey : undefined,
    };
  } catch {
    throw new CliError(`${path} is not a JSON object like {"url":…,"apiKey":…}`, EXIT.usage);
  }
}

/** Writes the file readable by its owner only: it holds a secret. */
export async function saveConfig(path: string, config: SavedConfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  // `mode` applies only when the file is created; an older file may have been wider.
  await chmod(path, 0o600);
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
