"""Pack a folder back into an Office file."""
import sys
import zipfile
from pathlib import Path

src, out = Path(sys.argv[1]), sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for f in sorted(src.rglob("*")):
        if f.is_file():
            z.write(f, f.relative_to(src))
print(f"Packed {src} into {out}")
