/**
 * The conformance client for the suite's client scenario `sep-2322-client-request-state`.
 *
 *   npx tsx scripts/conformance/client.ts <url>   # the suite appends its mock server's URL
 *
 * It connects exactly the way the stories do — `connectHttp` from `mcp-resolve/testing`, modern
 * era (pins 2026-07-28), answering elicitations from a script — and calls each of the mock's four
 * tools once. The SDK client drives the `input_required` rounds: it echoes `requestState`
 * byte-for-byte under a new JSON-RPC id, omits it when the server sent none, and never mixes one
 * call's state into another.
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

import { connectHttp } from 'mcp-resolve/testing';

const TOOLS = ['test_mrtr_echo_state', 'test_mrtr_unrelated', 'test_mrtr_no_state', 'test_mrtr_no_result_type'];

const target = process.argv.at(-1);
if (target === undefined || !URL.canParse(target)) {
  console.error('usage: npx tsx scripts/conformance/client.ts <server url>');
  process.exit(2);
}

const connection = await connectHttp(new URL(target), {
  era: 'modern',
  elicit: () => ({ action: 'accept', content: { confirmed: true } }),
});
try {
  for (const name of TOOLS) {
    try {
      const result = await connection.client.callTool({ name, arguments: {} });
      console.log(`${name}: ${JSON.stringify(result.content)}`);
    } catch (error) {
      // The mock answers `test_mrtr_no_result_type` without `resultType`, to check that a client
      // treats such a result as complete and does not retry it. The 2.4 SDK client is stricter: a
      // 2026-07-28 result must carry `resultType`, so it rejects the reply with INVALID_RESULT —
      // without retrying, which is what the check verifies. Only that error on that call is expected.
      if (
        name === 'test_mrtr_no_result_type' &&
        error instanceof SdkError &&
        error.code === SdkErrorCode.InvalidResult
      ) {
        console.log(`${name}: rejected by the SDK client (no resultType), not retried`);
        continue;
      }
      throw error;
    }
  }
} finally {
  await connection.close();
}
