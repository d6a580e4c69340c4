export function checkImports(root: string): string[];
export function frontDoorProblem(file: string, spec: string): string | null;
export const IMPORT_RE: RegExp;
export function walk(dir: string, out?: string[]): string[];
export function stripComments(text: string): string;
