/** Helpers of the export tests: an RFC 4180 parser, raw downloads, answered sub tasks. */
import type mongoose from 'mongoose';
import { brandFields } from '../../services/shared/brand/mentions.js';
import { keywordGroups } from '../../services/shared/brand/groups.js';
import type { Reference } from '../../services/shared/contracts/answer.js';
import type { Mode } from '../../services/shared/platforms/definition.js';

/** RFC 4180: quoted fields may hold commas, CR/LF and doubled quotes; records end in CRLF. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i += 1;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else if (c === '"' || c === '\r' || c === '\n') {
      throw new Error(`bare ${JSON.stringify(c)} at ${i}`);
    } else field += c;
    i += 1;
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (field !== '' || record.length > 0) throw new Error('last record without CRLF');
  return records;
}

/** A GET whose body arrives as bytes. */
export async function download(baseUrl: string, path: string, token: string) {
  const res = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

export interface AnswerSpec {
  answerContent: string;
  referenceList: Reference[];
  /** Indexes of referenceList that are cited. */
  cited: number[];
  status?: 'completed' | 'failed';
  errorMessage?: string;
  /** The mode that ran, when not the requested one (a silent fallback). */
  effectiveMode?: Mode;
}

/**
 * Completes the task's stored sub tasks as a ledger would: the answer, its
 * references and citations, and the brand fields computed by the pure API.
 */
export async function answerSubTasks(
  db: mongoose.Connection,
  taskId: string,
  keywords: readonly string[],
  answerFor: (seq: number) => AnswerSpec,
): Promise<void> {
  const groups = keywordGroups(keywords);
  const subs = db.collection('subtasks');
  const docs = await subs.find({ taskId }).project({ _id: 1, seq: 1, mode: 1 }).toArray();
  await subs.bulkWrite(
    docs.map((d) => {
      const spec = answerFor(d.seq as number);
      const citationList = spec.referenceList.filter((r) => spec.cited.includes(r.index));
      const answer = {
        answerContent: spec.answerContent,
        referenceList: spec.referenceList,
        citationList,
        reasoningProcess: null,
      };
      const failed = spec.status === 'failed';
      return {
        updateOne: {
          filter: { _id: d._id },
          update: {
            $set: failed
              ? { status: 'failed', errorMessage: spec.errorMessage ?? 'failed', time: 1_000 }
              : {
                  status: 'completed',
                  time: 1_000 + (d.seq as number),
                  effectiveMode: spec.effectiveMode ?? d.mode,
                  pageScreenshot: `/screenshots/${String(d._id)}.png`,
                  ...answer,
                  ...brandFields(groups, answer),
                  sentiment: null,
                },
          },
        },
      };
    }),
    { ordered: false },
  );
}
