import json
import sys
from pypdf import PdfReader, PdfWriter

reader = PdfReader(sys.argv[1])
writer = PdfWriter(clone_from=reader)
with open(sys.argv[2]) as f:
    values = {item["field_id"]: item["value"] for item in json.load(f)}
for page in writer.pages:
    writer.update_page_form_field_values(page, values, auto_regenerate=False)
with open(sys.argv[3], "wb") as out:
    writer.write(out)
print(f"Filled {len(values)} fields into {sys.argv[3]}")
