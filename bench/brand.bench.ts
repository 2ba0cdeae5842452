/**
 * Brand visibility benchmark (`npm run bench:brand`): the pure computation
 * of issue 14 in this process, no servers.
 *   1) brandFields per sub task: a ~10 KB Markdown answer, 10 keyword groups
 *      of 3 aliases (some CJK), 20 references; p50 and p90 over --runs runs
 *      after --warmup runs (target: p50 under 1 ms);
 *   2) visibilityOf over --subtasks sub tasks (total ms);
 *   3) discovered brands (issue 36) on the labeled corpus
 *      (bench/brand/corpus): precision and recall (targets 0.9, 0.8);
 *   4) what discovery adds to 1): answerBrandFields (brand fields and
 *      discovered brands, as recorded) against brandFields, p50 over the
 *      same runs, interleaved;
 *   5) what the insights add to 2), over the same sub tasks watching half
 *      the brands (so the other half are discovered), each against
 *      visibilityOf without them (`insights: false`), CPU time, medians of
 *      interleaved rounds: the read of a final task, whose insights were
 *      summed once at its finish and stored with it (stored-insights.ts;
 *      target: under 10 %); the read of a running task, which sums them
 *      (visibilityOf with them); what the finish pays once per task (that
 *      same sum); and the sum over answers stored before the insights'
 *      digest, which is then made as each is read (insight-digest.ts).
 * Options: --runs (default 2000), --warmup (300), --subtasks (2500),
 * --answer-chars (10000).
 */
import { availableParallelism, loadavg } from 'node:os';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { answerBrandFields, brandFields } from '../services/shared/brand/mentions.js';
import { scoreCorpus } from './brand/corpus/score.js';
import type { Visibility } from '../services/shared/contracts/brand.js';
import { visibilityOf } from '../services/shared/brand/visibility.js';
import { toStored, visibilityWith } from '../services/shared/brand/stored-insights.js';
import { benchAnswer, benchGroups, benchSubTasks } from './brand/fixture.js';
import { percentile } from './common.js';

const TARGET_MS = 1;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '300' },
    subtasks: { type: 'string', default: '2500' },
    'answer-chars': { type: 'string', default: '10000' },
  },
});
const int = (name: keyof typeof values, min: number): number => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}`);
  return n;
};
const runs = int('runs', 1);
const warmup = int('warmup', 0);
const subtasks = int('subtasks', 1);
const answerChars = int('answer-chars', 100);

const groups = benchGroups();
const answer = benchAnswer(answerChars);
const fmt = (ms: number): string => ms.toFixed(3);

console.log(
  `== brand visibility (services/shared/brand), node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)}`,
);
console.log(
  `answer: ${answer.answerContent.length} characters (${(Buffer.byteLength(answer.answerContent) / 1024).toFixed(1)} KiB UTF-8) of Markdown, ${groups.length} groups × ` +
    `${groups[0]!.aliases.length} aliases (${groups.filter((g) => g.aliases.some((a) => /\p{sc=Han}/u.test(a))).length} with a CJK alias), ` +
    `${answer.referenceList.length} references (${answer.citationList.length} cited)`,
);

for (let i = 0; i < warmup; i++) brandFields(groups, answer);
const times: number[] = [];
let fields = brandFields(groups, answer);
const cpuBefore = process.cpuUsage();
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  fields = brandFields(groups, answer);
  times.push(performance.now() - started);
}
const cpu = process.cpuUsage(cpuBefore);
times.sort((a, b) => a - b);
const p50 = percentile(times, 50);
const p90 = percentile(times, 90);
console.log(
  `1) brandFields per sub task over ${runs} runs after ${warmup} warm-up: p50 ${fmt(p50)} ms, p90 ${fmt(p90)} ms, ` +
    `max ${fmt(times.at(-1)!)} ms (target: p50 < ${TARGET_MS} ms) ${p50 < TARGET_MS ? 'PASS' : 'FAIL'}`,
);
console.log(
  `   CPU time per run ${fmt((cpu.user + cpu.system) / 1000 / runs)} ms (all of this process's threads, GC included; unlike wall time, not stretched by other processes)`,
);
const counted = fields.mentions.reduce((n, m) => n + m.count, 0);
console.log(
  `   ${fields.mentions.filter((m) => m.count).length} of ${groups.length} groups mentioned, ${counted} mentions; ` +
    `in citations ${fields.mentions.filter((m) => m.inCitations).length}, in references ${fields.mentions.filter((m) => m.inReferences).length}`,
);

const inputs = benchSubTasks(groups, subtasks);
visibilityOf(groups, inputs.slice(0, 100));
const started = performance.now();
const visibility = visibilityOf(groups, inputs);
const total = performance.now() - started;
console.log(
  `2) visibilityOf over ${subtasks} sub tasks: ${total.toFixed(1)} ms total (${fmt(total / subtasks)} ms per sub task); ` +
    `${visibility.rows.length} rows, ${visibility.domains.length} platform domain lists`,
);

const score = scoreCorpus();
const PRECISION_TARGET = 0.9;
const RECALL_TARGET = 0.8;
console.log(
  `3) discovered brands on the labeled corpus (${score.answers} answers, ${score.labels} labels): ` +
    `precision ${score.precision.toFixed(3)}, recall ${score.recall.toFixed(3)} ` +
    `(${score.right} right of ${score.found} found; targets ${PRECISION_TARGET}, ${RECALL_TARGET}) ` +
    `${score.precision >= PRECISION_TARGET && score.recall >= RECALL_TARGET ? 'PASS' : 'FAIL'}`,
);

// Interleaved, so both sides see the same load.
const plain: number[] = [];
const withDiscovery: number[] = [];
let discovered = answerBrandFields(groups, answer).discovered;
for (let i = 0; i < runs; i++) {
  let started = performance.now();
  brandFields(groups, answer);
  plain.push(performance.now() - started);
  started = performance.now();
  discovered = answerBrandFields(groups, answer).discovered;
  withDiscovery.push(performance.now() - started);
}
plain.sort((a, b) => a - b);
withDiscovery.sort((a, b) => a - b);
const plainP50 = percentile(plain, 50);
const discoveryP50 = percentile(withDiscovery, 50);
console.log(
  `4) discovery per sub task: answerBrandFields p50 ${fmt(discoveryP50)} ms against brandFields p50 ${fmt(plainP50)} ms ` +
    `(+${(((discoveryP50 - plainP50) / plainP50) * 100).toFixed(1)} %); ${discovered.length} brands discovered in the answer`,
);

const halfGroups = groups.slice(0, groups.length / 2);
const halfInputs = benchSubTasks(halfGroups, subtasks);
/** CPU time of `repeat` calls (this process's threads: not stretched by other processes, unlike wall time). */
const cpuMs = (f: () => void, repeat: number): number => {
  const before = process.cpuUsage();
  for (let i = 0; i < repeat; i++) f();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / repeat;
};
const ROUNDS = 25;
const WARM_ROUNDS = 4;
const REPEAT = 5;
/**
 * Medians of `f` and `baseline` in CPU ms per call over ROUNDS interleaved
 * rounds of REPEAT calls, each round in the other order, so both see the same
 * load and the same heap.
 */
function against(
  f: () => void,
  baseline: () => void,
): { ms: number; baseMs: number; added: number } {
  const mine: number[] = [];
  const base: number[] = [];
  for (let round = 0; round < ROUNDS + WARM_ROUNDS; round++) {
    const firstMine = round % 2 === 0;
    const a = cpuMs(firstMine ? f : baseline, REPEAT);
    const b = cpuMs(firstMine ? baseline : f, REPEAT);
    if (round < WARM_ROUNDS) continue;
    mine.push(firstMine ? a : b);
    base.push(firstMine ? b : a);
  }
  mine.sort((x, y) => x - y);
  base.sort((x, y) => x - y);
  const ms = percentile(mine, 50);
  const baseMs = percentile(base, 50);
  return { ms, baseMs, added: ((ms - baseMs) / baseMs) * 100 };
}
const pct = (n: number): string => `${n >= 0 ? '+' : ''}${n.toFixed(1)} %`;

const without = (): Visibility => visibilityOf(halfGroups, halfInputs, { insights: false });
const live = (): Visibility => visibilityWith(halfGroups, halfInputs, null);
// What the ledger stores with the final status (services/shared/subtasks/final-insights.ts).
const finished = toStored(live());
const fromStored = (): Visibility => visibilityWith(halfGroups, halfInputs, finished);
const v = live();
console.log(
  `5) insights watching ${halfGroups.length} of ${groups.length} brands: ${v.discovered.length} discovered brands, ${v.opportunities.length} opportunity domains; ` +
    `a final task's read with its stored insights ${isDeepStrictEqual(fromStored(), v) ? 'identical to' : 'DIFFERS FROM'} the live sum`,
);
const INSIGHTS_TARGET = 10;
const finalRead = against(fromStored, without);
console.log(
  `   read of a final task (insights stored at its finish) over ${subtasks} sub tasks: ${finalRead.ms.toFixed(2)} ms against ${finalRead.baseMs.toFixed(2)} ms without the insights ` +
    `(CPU time, medians of ${ROUNDS} interleaved rounds of ${REPEAT}): ${pct(finalRead.added)} (target: < ${INSIGHTS_TARGET} %) ` +
    `${finalRead.added < INSIGHTS_TARGET ? 'PASS' : 'FAIL'}`,
);
const runningRead = against(live, without);
console.log(
  `   read of a running task (insights summed on each read): ${runningRead.ms.toFixed(2)} ms against ${runningRead.baseMs.toFixed(2)} ms without the insights: ${pct(runningRead.added)}`,
);
console.log(
  `   at the finish, once per task: the sum stored with the final status ${runningRead.ms.toFixed(2)} ms CPU ` +
    `(${((runningRead.ms / subtasks) * 1000).toFixed(2)} µs per sub task; plus reading the sub tasks from the store, not measured here); ` +
    `stored: ${(Buffer.byteLength(JSON.stringify(finished)) / 1024).toFixed(1)} KiB as JSON`,
);

// Answers recorded before the digest existed (a running task, or one finished before insights were stored): it is made as each is read.
const stored = halfInputs.map(({ insightDigest: _, ...s }) => s);
const asBefore = (): Visibility => visibilityWith(halfGroups, stored, null);
const undigested = against(asBefore, without);
console.log(
  `   answers stored without a digest (made as each is read): ${undigested.ms.toFixed(2)} ms with the insights against ${undigested.baseMs.toFixed(2)} ms ` +
    `(${pct(undigested.added)})`,
);
