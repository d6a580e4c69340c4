export function checkImports(root: string): string[];
