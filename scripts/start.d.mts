export function findElectron(env?: NodeJS.ProcessEnv): { bin?: string; reason?: string };
