import sys
import pandas as pd

df = pd.read_csv(sys.argv[1])
parts = ["<h1>Profile</h1>", df.describe(include="all").T.to_html()]
for col in df.select_dtypes("number"):
    parts.append(f"<h2>{col}</h2><p>mean {df[col].mean():.3f}, median {df[col].median():.3f}</p>")
with open(sys.argv[2], "w") as f:
    f.write("\n".join(parts))
print(f"Wrote {sys.argv[2]}")
