import * as path from 'node:path';
import type { HistoryStory } from './pull-request-story.js';

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

/** The texts the pictures are made from: the history story's second push, its comment and its job summary. */
export function pictureSources(story: HistoryStory): Record<(typeof PICTURES)[number]['name'], string> {
  return { comment: story.comments.at(-1) ?? '', summary: story.summary };
}
