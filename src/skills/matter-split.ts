import matter from 'gray-matter';

// gray-matter with only our engines. Its defaults include a `javascript` engine that evaluates the
// frontmatter (`---js`), and it picks the engine from the text after the opening `---`. parse.ts
// refuses any language but YAML before it gets here; this is the second, independent layer: every
// code language gray-matter knows (js, javascript, coffee, coffeescript, cson, json, in any case)
// maps to an engine that throws CodeRefused, whoever called and whatever was checked before.

export class CodeRefused extends Error {}

const refuse = (): never => {
  throw new CodeRefused('executable frontmatter is refused');
};
const REFUSING = { parse: refuse, stringify: refuse };

/**
 * Split `head` (the text from the opening `---` through the closing one) with gray-matter; its
 * YAML goes to `readYaml` (our reader), code throws CodeRefused. Options make gray-matter skip its
 * shared cache.
 */
export function splitFrontmatter(head: string, readYaml: () => void): { content: string; matter: string; isEmpty?: boolean } {
  const yamlEngine = {
    parse: () => {
      readYaml();
      return {};
    },
    stringify: refuse,
  };
  return matter(head, {
    language: 'yaml',
    excerpt: false,
    engines: { yaml: yamlEngine, yml: yamlEngine, javascript: REFUSING, js: REFUSING, json: REFUSING, coffee: REFUSING },
  } as never) as never;
}
