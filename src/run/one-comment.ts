import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { CreatedComment, GitHub } from '../service/github.js';

/**
 * Two runs of one target that both found no comment both create one. After its create, each run
 * lists again and keeps the earliest of the token's own comments with this marker (with its body),
 * deleting the others: no run deletes the earliest and each deletes every later one it sees, so one
 * comment remains whatever the interleaving. Its author is the created comment's: the token's own.
 */
export async function keepOneComment(
  github: GitHub,
  { number, marker, body }: { number: number; marker: string; body: string },
  created: CreatedComment,
): Promise<string> {
  const author = created.user?.id;
  if (author === undefined) return created.html_url;
  const [earliest, ...others] = await github.commentsBy(number, marker, author);
  if (earliest === undefined || (earliest.id === created.id && others.length === 0)) return created.html_url;
  const url = earliest.id === created.id ? created.html_url : await github.updateComment(earliest.id, body);
  for (const other of others) await github.deleteComment(other.id);
  info(
    line`Another run of this target commented on pull request #${number} at the same time: kept the earliest comment, ${url}, and deleted ${others.length} other${others.length === 1 ? '' : 's'}.`,
  );
  return url;
}
