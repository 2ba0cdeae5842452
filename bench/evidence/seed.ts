/**
 * An answered task with evidence for the bundle benchmark and the memory
 * test: the export seed's task (bench/export/seed.ts), plus raw frames for
 * each web sub task (its answer streamed in small frames, repeated up to
 * `frameBytes`) and a stored page screenshot for each one that asked for it.
 */
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { EvidenceStore } from '../../services/shared/evidence.js';
import { ScreenshotStore, screenshotPath } from '../../services/shared/screenshots.js';
import { taskModels } from '../../services/shared/subtasks/models.js';
import { seedAnswer, seedLargeTask } from '../export/seed.js';

/** The NDJSON of one streamed answer: a request line, then frames of 40 characters. */
export function seedFrames(seq: number, frameBytes: number): string {
  const lines = [
    JSON.stringify({
      t: 0,
      kind: 'request',
      url: 'https://chat.example.com/api/chat?session_id=s1',
      method: 'POST',
      body: JSON.stringify({ prompt: `prompt ${seq}`, token: 'not-for-the-bundle' }),
    }),
  ];
  let size = lines[0]!.length;
  const answer = seedAnswer(seq);
  for (let i = 0; size < frameBytes; i++) {
    const at = (i * 40) % answer.length;
    const line = JSON.stringify({
      t: 10 + i,
      kind: 'frame',
      data: `data: ${JSON.stringify({ v: answer.slice(at, at + 40), i })}`,
    });
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return lines.join('\n') + '\n';
}

/** Seeds the task; returns its id. `pngBytes` is the size of each stored screenshot. */
export async function seedEvidenceTask(
  conn: Connection,
  userId: number,
  subTasks: number,
  frameBytes: number,
  pngBytes: number,
): Promise<string> {
  const taskId = await seedLargeTask(conn, userId, subTasks);
  const { SubTask } = taskModels(conn);
  const evidence = new EvidenceStore(conn);
  const screenshots = new ScreenshotStore(conn);
  const subs = await SubTask.find({ taskId }, { channel: 1, screenshot: 1, seq: 1 }).lean<
    { _id: string; channel: string; screenshot: number; seq: number }[]
  >();
  const now = Date.now();
  for (const s of subs) {
    if (s.channel === 'web') {
      const evidenceId = await evidence.save(seedFrames(s.seq, frameBytes), s._id, now);
      await SubTask.updateOne({ _id: s._id }, { $set: { evidenceId, formatVersion: 'sandbox-1' } });
    }
    if (s.screenshot > 0) {
      const id = await screenshots.save(randomBytes(pngBytes), s._id, now);
      await SubTask.updateOne({ _id: s._id }, { $set: { pageScreenshot: screenshotPath(id) } });
    }
  }
  return taskId;
}
