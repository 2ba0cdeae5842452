/**
 * Prints the ten slowest test files of the last tap run (infra/test.sh calls it
 * after every run, so the summary names where the suite's time goes).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatFileTimes, slowestFiles, type ProcessInfo } from './test-times.js';

const dir = '.tap/processinfo';
const infos = await Promise.all(
  (await readdir(dir).catch(() => [])).map(
    async (name) => JSON.parse(await readFile(join(dir, name), 'utf8')) as ProcessInfo,
  ),
);
console.log('== slowest test files (wall seconds each, start to exit)');
console.log(formatFileTimes(slowestFiles(infos, 10)) || `  none recorded in ${dir}`);
