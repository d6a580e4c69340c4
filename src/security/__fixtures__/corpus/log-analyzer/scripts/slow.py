import argparse
import heapq
import re

LINE = re.compile(r'"(?P<method>[A-Z]+) (?P<path>\S+)[^"]*" (?P<status>\d{3}) .* (?P<rt>[\d.]+)$')

p = argparse.ArgumentParser()
p.add_argument("log")
p.add_argument("--top", type=int, default=20)
a = p.parse_args()
rows = []
with open(a.log, errors="replace") as f:
    for line in f:
        m = LINE.search(line.strip())
        if m:
            rows.append((float(m["rt"]), m["method"], m["path"], m["status"]))
for rt, method, path, status in heapq.nlargest(a.top, rows):
    print(f"{rt:8.3f}s {status} {method} {path}")
