#!/usr/bin/env python3
"""Print whether a PDF has fillable form fields."""
import sys
from pypdf import PdfReader

def main(path: str) -> int:
    reader = PdfReader(path)
    fields = reader.get_fields() or {}
    if fields:
        print(f"This PDF has {len(fields)} fillable form fields")
    else:
        print("This PDF has no fillable form fields; annotate it visually instead")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
