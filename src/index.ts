import { run } from './main.js';
import { cleanup } from './post.js';
import { STATE } from './run/state.js';
import { getState, isDebug } from './runner/step.js';

// Source maps cost tens of milliseconds at start-up: they are turned on only when step debug
// logging is on, the only time a stack trace is printed.
if (isDebug()) process.setSourceMapsEnabled(true);

// One bundle serves both steps: the main step marks the state so that the post step knows it is one.
// Not awaited at the top level: that makes webpack run the entry as an async module, about 2 ms
// more before the first request. Neither step rejects; if one did, Node would print the error and
// exit 1, as it would for a top-level await.
void (getState(STATE.isPost) === 'true' ? cleanup() : run());
