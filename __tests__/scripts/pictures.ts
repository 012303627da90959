import * as path from 'node:path';
import type { Story } from './pull-request-story.js';

const DIR = path.resolve('.github/readme');

/** The README's pictures: what each shows, its picture, and the text it was made from. */
export const PICTURES = [
  {
    name: 'comment',
    title: 'github-actions <b>bot</b> commented',
    image: path.join(DIR, 'pr-comment.png'),
    source: path.join(DIR, 'pr-comment.md'),
  },
  {
    name: 'summary',
    title: 'e2e summary',
    image: path.join(DIR, 'job-summary.png'),
    source: path.join(DIR, 'job-summary.html'),
  },
] as const;

/** The texts the pictures are made from: the second push's comment and job summary. */
export function pictureSources(story: Story): Record<(typeof PICTURES)[number]['name'], string> {
  return { comment: story.comment, summary: story.summary };
}
