import argparse
from pathlib import Path
from PIL import Image

p = argparse.ArgumentParser()
p.add_argument("src")
p.add_argument("--width", type=int, required=True)
p.add_argument("--out")
p.add_argument("--watermark", action="store_true")
a = p.parse_args()
img = Image.open(a.src)
ratio = a.width / img.width
img = img.resize((a.width, round(img.height * ratio)), Image.LANCZOS)
if a.watermark:
    mark = Image.open(Path(__file__).parent.parent / "assets" / "watermark.png").convert("RGBA")
    img.paste(mark, (img.width - mark.width - 16, img.height - mark.height - 16), mark)
img.save(a.out or a.src, quality=85, optimize=True)
