import { rmSync } from 'node:fs';

export default function removeTestBundle() {
  const dir = process.env.DIST_UNDER_TEST_TEMPORARY;
  if (dir) rmSync(dir, { recursive: true, force: true });
}
