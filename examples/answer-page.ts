/**
 * Reaching a person whose client shows no forms: with `answerPage`, the server hosts a small web
 * page for each form question such a client cannot show. A client that declares URL elicitation
 * gets a link to the page as a URL question; a client without elicitation gets the link in the
 * tool's result, for the assistant to pass on, and calling the tool again goes on with the answer.
 * Clients that show forms are asked in-band, as without the option. The hotel is tool.ts's.
 *
 *   PORT=3000 npx tsx examples/answer-page.ts    # then connect a client that shows no forms
 */
import { serveHttp } from 'mcp-resolve/node';

import { createHotel } from './tool.js';

const port = Number(process.env.PORT ?? 3000);
const hotel = createHotel({
  answerPage: {
    // Links are absolute: behind a proxy that terminates TLS, name the public origin, e.g.
    // publicOrigin: 'https://hotel.example.com'. Without it, the origin the request came in on.
    // On a fleet, give every instance a shared backend (Redis) and the same formSecret.
  },
});
const handle = await serveHttp(hotel, { port });
console.error(`hotel listening on ${handle.url.href}`); // stderr: stdout stays free

process.once('SIGTERM', () => void handle.close().then(() => process.exit(0)));
process.once('SIGINT', () => void handle.close().then(() => process.exit(0)));
