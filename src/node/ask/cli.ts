#!/usr/bin/env node
/**
 * The `mcp-resolve` bin (see `main` in ./command.ts). The client SDK is an optional peer
 * dependency, so it is loaded here with a clear line when it is missing.
 */
const command = await import('./command.js').catch((error: unknown) => {
  const missing = error instanceof Error && error.message.includes('@modelcontextprotocol/client');
  if (!missing) throw error;
  console.error(
    'mcp-resolve ask needs the peer dependency @modelcontextprotocol/client: npm install @modelcontextprotocol/client',
  );
  process.exit(1);
});
process.exitCode = await command.main(process.argv.slice(2));
