/**
 * How a tool declares that it takes part in the Tasks extension. It imports nothing of the runner,
 * so tool declarations can name it without reaching `tasks/`.
 */

/** How a tool takes part in the Tasks extension. */
export interface TaskSupport {
  /**
   * `optional`: a task when the request declares the extension, an ordinary call otherwise.
   * `required`: a task or the `-32021` error.
   */
  readonly support: 'optional' | 'required';
  /**
   * `in-task` (default): the task is created at once and the resolvers' questions park it in
   * `input_required`. `before-task`: the questions are asked as multi-round `input_required`
   * rounds of the `tools/call` itself, and the task is created on the round that has every answer.
   */
  readonly questions?: 'in-task' | 'before-task';
}

/** A tool's `task` declaration: a support level, or the full {@link TaskSupport}. */
export type TaskDeclaration = TaskSupport['support'] | TaskSupport;

/** Normalises a declaration. */
export function taskSupportOf(declaration: TaskDeclaration | undefined): TaskSupport | undefined {
  if (declaration === undefined) return undefined;
  return typeof declaration === 'string' ? { support: declaration } : declaration;
}
