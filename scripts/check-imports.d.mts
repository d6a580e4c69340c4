export function checkImports(root: string): string[];
export function frontDoorProblem(file: string, spec: string): string | null;
