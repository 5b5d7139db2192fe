/**
 * The floor: a bare `node:http` server that parses each JSON body and sends it back, on loopback.
 *
 *   npx tsx bench/servers/echo.ts --port N   # prints `echo listening on URL` on stderr
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let body: string;
    try {
      body = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch {
      res.writeHead(400).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
});
server.listen(Number(values.port), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.error(`echo listening on http://127.0.0.1:${port}/mcp`);
});
const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
