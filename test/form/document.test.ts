import { describe, expect, it } from 'vitest';

import { htmlDocument } from '../../src/form/document.js';

describe('htmlDocument', () => {
  it('escape the title of a document', () => {
    expect(htmlDocument('<b>', '')).toContain('<title>&lt;b&gt;</title>');
  });

  it('names the live region a script fills and puts the script after it', () => {
    const html = htmlDocument('t', '<p>x</p>', { mainId: 'question', script: 'run()' });
    expect(html).toContain(
      '<main id="question" aria-live="polite"><p>x</p></main>\n<script type="module">run()</script>',
    );
    expect(htmlDocument('t', '')).not.toContain('<script');
  });
});
