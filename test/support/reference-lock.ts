// What the reference `skills` CLI wrote for a known repository, for the project-scope tests (src/deploy).

export const ALPHA = '---\nname: alpha\ndescription: Does alpha things when asked.\n---\n\n# alpha\n\nUse it.\n';
export const BETA = '---\nname: beta\ndescription: Does beta things when asked.\n---\n\n# beta\n';

/**
 * What `skills add git://127.0.0.1:19418/repo.git -a claude-code -a codex -s '*' -y` (npm `skills`
 * 1.7.4, Node 22) wrote in a project for a repository holding exactly these files
 * (skills/alpha/SKILL.md = ALPHA, skills/alpha/scripts/run.sh = "echo hi\n", skills/beta/SKILL.md = BETA),
 * with the URL made a parameter.
 */
export const referenceLock = (url: string) => `{
  "version": 1,
  "skills": {
    "alpha": {
      "source": "${url}",
      "sourceUrl": "${url}",
      "sourceType": "git",
      "skillPath": "skills/alpha/SKILL.md",
      "computedHash": "04c44dd9ba4ad4798c1c8d093368da649436f3c75f75c793c58733a83f34ac5e"
    },
    "beta": {
      "source": "${url}",
      "sourceUrl": "${url}",
      "sourceType": "git",
      "skillPath": "skills/beta/SKILL.md",
      "computedHash": "7744b0cbad4b702117703409f5c820ab3a3066834e5eb959de69ba7f972bf5cf"
    }
  }
}
`;
