"""Minimal GitHub issues client (list/create) with pagination."""
import argparse
import json
import os
import urllib.request

API = "https://api.github.com"

def request(method, url, body=None):
    req = urllib.request.Request(url, method=method, data=json.dumps(body).encode() if body else None)
    req.add_header("Authorization", f"Bearer {os.environ['GITHUB_TOKEN']}")
    req.add_header("Accept", "application/vnd.github+json")
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp), resp.headers.get("Link", "")

def main():
    p = argparse.ArgumentParser()
    p.add_argument("action", choices=["list", "create"])
    p.add_argument("--repo", default=os.environ.get("GITHUB_REPOSITORY", ""))
    p.add_argument("--state", default="open")
    p.add_argument("--title")
    p.add_argument("--body", default="")
    a = p.parse_args()
    if a.action == "list":
        url = f"{API}/repos/{a.repo}/issues?state={a.state}&per_page=100"
        while url:
            items, link = request("GET", url)
            for it in items:
                print(f"#{it['number']} {it['title']}")
            url = next((part.split(";")[0].strip("<> ") for part in link.split(",") if 'rel="next"' in part), None)
    else:
        issue, _ = request("POST", f"{API}/repos/{a.repo}/issues", {"title": a.title, "body": a.body})
        print(issue["html_url"])

if __name__ == "__main__":
    main()
