#!/usr/bin/env python3
"""Recalculate formulas with LibreOffice headless and report #REF!, #DIV/0! and friends."""
import json
import subprocess
import sys
import openpyxl

def recalc(path: str, timeout: int) -> dict:
    subprocess.run(["soffice", "--headless", "--convert-to", "xlsx", "--outdir", "/tmp/recalc", path],
                   check=True, timeout=timeout, capture_output=True)
    wb = openpyxl.load_workbook(path, data_only=True)
    errors = []
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value.startswith("#"):
                    errors.append(f"{ws.title}!{cell.coordinate}: {cell.value}")
    return {"status": "success" if not errors else "errors_found", "total_errors": len(errors), "errors": errors}

if __name__ == "__main__":
    print(json.dumps(recalc(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30), indent=2))
