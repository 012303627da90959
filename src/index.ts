import * as core from '@actions/core';
import { STATE } from './state.js';

// One bundle serves both steps: the main step marks the state so that the post step knows it is one.
if (core.getState(STATE.isPost) === 'true') {
  const { cleanup } = await import('./post.js');
  await cleanup();
} else {
  const { run } = await import('./main.js');
  await run();
}
