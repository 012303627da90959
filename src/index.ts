import { run } from './main.js';
import { cleanup } from './post.js';
import { STATE } from './run/state.js';
import { getState, isDebug } from './runner/step.js';

// Source maps cost tens of milliseconds at start-up: they are turned on only when step debug
// logging is on, the only time a stack trace is printed.
if (isDebug()) process.setSourceMapsEnabled(true);

// One bundle serves both steps: the main step marks the state so that the post step knows it is one.
if (getState(STATE.isPost) === 'true') await cleanup();
else await run();
