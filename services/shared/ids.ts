/**
 * Identifier rules: taskIds are random UUIDs (derived from the user and the
 * key when a submission carries an Idempotency-Key), subTaskIds are derived
 * from them.
 */
import { createHash, randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export function newTaskId(): string {
  return randomUUID();
}

/**
 * A sub task id is a UUID derived from its task and position, so it is stable
 * and a half-written submission can be completed with the very same ids.
 */
export function subTaskIdFor(taskId: string, index: number): string {
  return derivedUuid(`${taskId.toLowerCase()}/${index}`);
}

/**
 * The task id of a submission sent with an Idempotency-Key: derived from the
 * user and the key, so that a retried submission meets the task the first one
 * created (the id is taken) instead of creating a second one.
 */
export function taskIdForKey(userId: number, key: string): string {
  return derivedUuid(`idempotency/${userId}/${key}`);
}

function derivedUuid(source: string): string {
  const hex = createHash('sha256').update(source).digest('hex');
  // Shape it as a version-8 (custom) UUID with the RFC 9562 variant bits.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
