import { checkListen, fail, loadConfigOrFail } from './startup.ts';

// `npm start` runs this before anything else (before the web app's build, which reads PORT and
// APP_URL too): the whole configuration is checked, and HOST:PORT is bound for a moment, so that
// every bad value stops the start with one line naming its variable, at once and not after a
// build. Prints nothing when all is well. The server checks all of it again when it starts.

const config = loadConfigOrFail();
const problem = await checkListen(config);
if (problem !== null) fail(problem);
