import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes `text` to `file` by way of a new temporary file beside it, renamed into place: a symbolic
 * link at `file` (a checkout may hold one) is replaced, never followed, and no reader sees half a
 * report. The folder is created when missing.
 */
export async function writeFileReplacing(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    // 'wx': a file (or link) already at the temporary name is an error, not a target.
    await writeFile(temporary, text, { encoding: 'utf8', flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
