import json
import sys
from pypdf import PdfReader

def field_info(reader):
    out = []
    for name, field in (reader.get_fields() or {}).items():
        out.append({"field_id": name, "type": str(field.get("/FT")), "value": str(field.get("/V", ""))})
    return out

if __name__ == "__main__":
    reader = PdfReader(sys.argv[1])
    with open(sys.argv[2], "w") as f:
        json.dump(field_info(reader), f, indent=2)
