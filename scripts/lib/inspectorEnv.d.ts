/** A TCP port free on 127.0.0.1 just now. */
export function freePort(): Promise<number>;
/** This process's environment with the Inspector's settings for a run kept in `dir`. */
export function inspectorEnv(dir: string): Promise<NodeJS.ProcessEnv>;
