export interface DomainCycle {
  /** The domains that import one another in a circle, sorted. */
  domains: string[];
  /** `a -> b (files)` for each import inside the group. */
  edges: string[];
}
export function domainGraph(root: string): Map<string, Map<string, string[]>>;
export function domainCycles(root: string): DomainCycle[];
