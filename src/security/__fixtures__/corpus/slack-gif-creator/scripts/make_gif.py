import argparse
from PIL import Image, ImageDraw

p = argparse.ArgumentParser()
p.add_argument("--text", required=True)
p.add_argument("--size", type=int, default=128)
p.add_argument("--frames", type=int, default=12)
p.add_argument("--out", required=True)
a = p.parse_args()
frames = []
for i in range(a.frames):
    img = Image.new("RGB", (a.size, a.size), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((8, a.size // 2 - 6 + (i % 4) - 2), a.text, fill=(20, 20, 20))
    frames.append(img.quantize(colors=32))
frames[0].save(a.out, save_all=True, append_images=frames[1:], duration=80, loop=0, optimize=True)
