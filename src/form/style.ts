/** How the question's form looks, wherever it is shown. */

/** The form's one style sheet, inlined by every document that shows the form (the answer page, the app). */
export const FORM_STYLE = [
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1.5rem;background:#f6f6f4;color:#1b1b1b}',
  'main{max-width:36rem;margin:0 auto;background:#fff;border:1px solid #d4d4d0;border-radius:8px;padding:1.5rem}',
  'h1{font-size:1.35rem;margin:0 0 1rem}',
  '.message{white-space:pre-wrap;margin:0 0 1.25rem}',
  'fieldset{border:0;margin:0 0 1.1rem;padding:0}',
  '.group{margin:0 0 1.1rem}',
  'legend,label.field{display:block;font-weight:600;margin-bottom:.25rem}',
  '.hint{color:#4a4a48;font-size:.9rem;margin:.1rem 0 .4rem}',
  '.required{color:#8a1c1c}',
  'input[type=text],input[type=email],input[type=url],input[type=date],input[type=datetime-local],input[type=number],select,textarea',
  '{width:100%;box-sizing:border-box;font:inherit;padding:.45rem;border:1px solid #8c8c88;border-radius:4px}',
  '.choice{display:block;margin:.2rem 0}',
  '.error{color:#8a1c1c;font-weight:600;margin:.3rem 0 0}',
  '[aria-invalid=true]{border-color:#8a1c1c;outline:2px solid #8a1c1c}',
  '.summary{border:2px solid #8a1c1c;border-radius:6px;padding:.75rem 1rem;margin:0 0 1.25rem}',
  '.summary h2{font-size:1.1rem;margin:0 0 .5rem}',
  '.summary p{margin:0 0 .5rem}',
  '.summary a{color:#8a1c1c}',
  '.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.5rem}',
  'button{font:inherit;padding:.5rem 1.1rem;border-radius:4px;border:1px solid #1b1b1b;background:#fff;cursor:pointer}',
  'button[value=accept]{background:#1d4ed8;border-color:#1d4ed8;color:#fff}',
  'button:focus-visible,input:focus-visible,select:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}',
].join('');
