#!/usr/bin/env python3
import argparse
from pathlib import Path

TEMPLATE = """---
name: {name}
description: TODO - what this skill does and when to use it.
---
# {title}

TODO
"""

def main():
    p = argparse.ArgumentParser()
    p.add_argument("name")
    p.add_argument("--path", default=".")
    a = p.parse_args()
    root = Path(a.path) / a.name
    for sub in ("scripts", "references", "assets"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    (root / "SKILL.md").write_text(TEMPLATE.format(name=a.name, title=a.name.replace("-", " ").title()))
    print(f"Created {root}")

if __name__ == "__main__":
    main()
