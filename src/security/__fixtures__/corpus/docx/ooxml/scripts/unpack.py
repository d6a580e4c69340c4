"""Unpack a .docx/.pptx/.xlsx into a folder with pretty-printed XML."""
import sys
import zipfile
from pathlib import Path
import defusedxml.minidom

src, dest = sys.argv[1], Path(sys.argv[2])
dest.mkdir(parents=True, exist_ok=True)
with zipfile.ZipFile(src) as z:
    z.extractall(dest)
for xml in list(dest.rglob("*.xml")) + list(dest.rglob("*.rels")):
    dom = defusedxml.minidom.parseString(xml.read_bytes())
    xml.write_bytes(dom.toprettyxml(indent="  ", encoding="utf-8"))
print(f"Unpacked {src} into {dest}")
