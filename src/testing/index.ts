/**
 * `mcp-resolve/testing`: connect an SDK client to a server on either protocol era (in process,
 * over HTTP or over stdio), answer its questions from a script, an answer page or the question
 * app, and count what crossed the wire.
 * The helpers that drive Tasks extension tasks (`taskOf`, `getTask`, …) are `mcp-resolve/client`.
 *
 * @packageDocumentation
 */

export type { ScriptedAnswers } from './scriptedAnswers.js';
export type { Counters } from './counters.js';
export { LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION } from './connection.js';
export type { ConnectOptions, TestConnection } from './connection.js';
export { connectHttp } from './http.js';
export type { HttpConnectOptions } from './http.js';
export { connectInProcess } from './inProcess.js';
export { connectStdio } from './stdio.js';
export { connectManual } from './manual.js';
export type { Continuation, ManualConnection, LegResult } from './manual.js';
export { answerPage } from './answerPage.js';
export type { AnsweredPage, PageAction } from './answerPage.js';
export { answerApp } from './answerApp.js';
export type { AnsweredApp } from './answerApp.js';
