import { describe, expect, it } from 'vitest';

import { escapeHtml } from '../../src/form/escape.js';

describe('escapeHtml', () => {
  it('escapes every character that could end text or an attribute', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y' \`z\``)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39; &#96;z&#96;',
    );
  });
});
