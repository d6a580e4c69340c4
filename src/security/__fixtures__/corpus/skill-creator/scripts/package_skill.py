import sys
import zipfile
from pathlib import Path

src, out_dir = Path(sys.argv[1]), Path(sys.argv[2])
out_dir.mkdir(parents=True, exist_ok=True)
target = out_dir / f"{src.name}.skill"
with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
    for f in sorted(src.rglob("*")):
        if f.is_file() and "__pycache__" not in f.parts:
            z.write(f, Path(src.name) / f.relative_to(src))
print(f"Packaged {target}")
