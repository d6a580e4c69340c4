#!/usr/bin/env python3
"""Start a server, wait until its port answers, run a command, stop the server."""
import argparse
import socket
import subprocess
import sys
import time

def wait_port(port: int, timeout: float) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise SystemExit(f"port {port} did not open in {timeout}s")

def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--server", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    a = p.parse_args()
    server = subprocess.Popen(a.server, shell=True)
    try:
        wait_port(a.port, a.timeout)
        return subprocess.call(a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd)
    finally:
        server.terminate()
        server.wait(timeout=10)

if __name__ == "__main__":
    sys.exit(main())
