import { readFileSync } from 'node:fs';
import { PICTURES, pictureSources } from './scripts/pictures.js';
import { historyStory } from './scripts/pull-request-story.js';

/** The README's pictures show what the action writes today: `npm run screenshots` makes them again. */
describe("the README's pictures", () => {
  test('were made from the comment and the summary that dist/index.js writes now', async () => {
    const sources = pictureSources(await historyStory());
    for (const picture of PICTURES) {
      const made = readFileSync(picture.source, 'utf8');
      expect([picture.source, made]).toEqual([picture.source, sources[picture.name]]);
    }
  });

  test('are shown in the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const picture of PICTURES) {
      expect(readme).toContain(`(.github/readme/${picture.image.split('/').pop()})`);
    }
  });
});
