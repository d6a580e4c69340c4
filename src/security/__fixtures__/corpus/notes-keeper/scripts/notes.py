import datetime
import json
import os
import sys
from pathlib import Path

STATE = Path(os.environ.get("SKILL_STATE_DIR", Path.home() / ".skilldock" / "skills-state" / "notes-keeper"))
NOTES = STATE / "notes.jsonl"

def add(text: str) -> None:
    STATE.mkdir(parents=True, exist_ok=True)
    with NOTES.open("a") as f:
        f.write(json.dumps({"at": datetime.datetime.now().isoformat(), "text": text}) + "\n")

def search(term: str) -> None:
    if not NOTES.exists():
        return
    for line in NOTES.read_text().splitlines():
        note = json.loads(line)
        if term.lower() in note["text"].lower():
            print(f"{note['at']}  {note['text']}")

if __name__ == "__main__":
    {"add": add, "search": search}[sys.argv[1]](" ".join(sys.argv[2:]))
