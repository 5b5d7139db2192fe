/**
 * The question app's own script, run in the host's sandboxed frame after ext-apps' `App` class. It
 * holds no renderer and no checks: the server renders the form and checks every submission
 * (`mcp_resolve_answer`), so the app shows exactly the answer page's form and messages. It sends
 * on a button's click, never by submitting the form, so it needs only `allow-scripts` of the
 * host's sandbox.
 * - In the chat: the tool result's `_meta` carries the question; the answer is sent with the page
 *   id; once stored, the app calls the tool again with the same arguments and the call's ticket,
 *   shows the next question or the outcome, and gives the outcome to the model
 *   (`ui/update-model-context`, then a `ui/message` saying the call finished).
 * - SEP-3118: the host forwards the `elicitation/create` request; the app reads only the page the
 *   server stored the question under (its `_meta`), shows that page's form, and resolves the request
 *   with the `ElicitResult` the server checked. A request without it is refused, so the host shows
 *   its own form.
 */
import { ANSWER_TOOL, ELICITATION_META, QUESTION_META, TICKET_META } from './wire.js';

/** The script (it runs after `App` is bound to ext-apps' class). */
export const APP_SCRIPT = `{
const ANSWER_TOOL = ${JSON.stringify(ANSWER_TOOL)};
const QUESTION_META = ${JSON.stringify(QUESTION_META)};
const TICKET_META = ${JSON.stringify(TICKET_META)};
const ELICITATION_META = ${JSON.stringify(ELICITATION_META)};
const DONE = {
  accept: ["Thank you, your answer was sent", "The call goes on."],
  decline: ["You declined", "The assistant is told that you declined."],
  cancel: ["You cancelled", "The assistant is told that you cancelled."],
};
const root = document.getElementById("question");
const app = new App({ name: "mcp-resolve question", version: "1.0.0" }, { elicitation: {} });
let chat = null;
let elicitation = null;
const textOf = (result) => (result.content || []).filter((block) => block.type === "text").map((block) => block.text).join("\\n");
function say(heading, text) {
  const h1 = document.createElement("h1");
  h1.textContent = heading;
  const p = document.createElement("p");
  p.className = "message";
  p.textContent = text;
  root.replaceChildren(h1, p);
}
function showForm(html) {
  root.innerHTML = html;
  const form = root.querySelector("form");
  // A click on a button (Enter in a field clicks the first), never the form's submission: a host
  // whose sandbox lacks allow-forms submits no form and fires no submit event.
  form.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("button[type=submit]") : null;
    if (button === null || button.disabled) return;
    event.preventDefault();
    const data = new URLSearchParams(new FormData(form, button));
    for (const other of form.querySelectorAll("button")) other.disabled = true;
    send(data.toString()).catch((error) => say("The answer could not be sent", String((error && error.message) || error)));
  });
  const summary = root.querySelector(".summary");
  if (summary) { summary.tabIndex = -1; summary.focus(); }
}
async function answerTool(args) {
  const result = await app.callServerTool({ name: ANSWER_TOOL, arguments: args });
  if (result.isError || !result.structuredContent) throw new Error(textOf(result) || "The server refused the answer.");
  return result.structuredContent;
}
async function tellModel(tool, result) {
  const host = app.getHostCapabilities() || {};
  const text = textOf(result);
  try {
    if (host.updateModelContext) {
      await app.updateModelContext({ content: result.content || [], ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}) });
    }
    if (host.message) {
      await app.sendMessage({ role: "user", content: [{ type: "text", text: "I answered the question in the app. The call to " + tool + " then returned" + (result.isError ? " an error" : "") + ":\\n" + text }] });
    }
  } catch (error) {
    console.warn("mcp-resolve: the outcome could not be given to the model", error);
  }
}
function show(result, rerun) {
  const question = result._meta && result._meta[QUESTION_META];
  if (question) { chat = question; showForm(question.form); return; }
  say(result.isError ? "The call failed" : "Done", textOf(result));
  if (rerun) void tellModel(chat.tool, result);
}
async function send(form) {
  if (elicitation !== null) {
    const out = await answerTool({ page: elicitation.page, form, elicitation: true });
    if (out.status === "invalid") return showForm(out.form);
    const resolve = elicitation.resolve;
    elicitation = null;
    resolve(out.answer);
    return say(...DONE[out.answer.action]);
  }
  const out = await answerTool({ page: chat.page, form });
  if (out.status === "invalid") return showForm(out.form);
  if (out.status === "closed") return say("This question is closed", out.message);
  say(...DONE[out.action]);
  const again = await app.callServerTool({ name: chat.tool, arguments: chat.arguments, _meta: { [TICKET_META]: chat.ticket } });
  show(again, true);
}
app.ontoolresult = (result) => show(result, false);
app.setRequestHandler("elicitation/create", async (request) => {
  const attached = request.params._meta && request.params._meta[ELICITATION_META];
  if (!attached || typeof attached.page !== "string") throw new Error("This question carries no page of the server's: answer it in the host's own form.");
  const out = await answerTool({ page: attached.page });
  if (out.status === "closed") { say("This question is closed", out.message); throw new Error(out.message); }
  showForm(out.form);
  return new Promise((resolve) => { elicitation = { page: attached.page, resolve }; });
});
await app.connect();
}`;
