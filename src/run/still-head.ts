import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { GitHub } from '../service/github.js';

/**
 * Read just before writing: an older commit's run that ends last (a re-run, a slower workflow) must
 * not replace the comment of the newer head, nor become the next push's baseline.
 */
export async function isStillHead(github: GitHub, number: number, tested: string): Promise<boolean> {
  const head = (await github.pull(number)).head.sha;
  if (head === tested) return true;
  info(
    line`No pull request comment: this run tested ${tested.slice(0, 7)}, but pull request #${number}'s head is now ${head.slice(0, 7)} (a newer push; its run writes the comment).`,
  );
  return false;
}
