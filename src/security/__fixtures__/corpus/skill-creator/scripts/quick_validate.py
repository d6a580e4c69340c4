import re
import sys
from pathlib import Path
import yaml

def validate(path: Path) -> list[str]:
    text = (path / "SKILL.md").read_text()
    m = re.match(r"^---\n(.*?)\n---\n", text, re.S)
    if not m:
        return ["no frontmatter"]
    fm = yaml.safe_load(m.group(1)) or {}
    problems = []
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", str(fm.get("name", ""))):
        problems.append("name must be lowercase words joined by hyphens")
    if not fm.get("description"):
        problems.append("description is required")
    return problems

if __name__ == "__main__":
    issues = validate(Path(sys.argv[1]))
    print("\n".join(issues) or "Skill is valid!")
    sys.exit(1 if issues else 0)
