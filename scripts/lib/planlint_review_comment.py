#!/usr/bin/env python3
"""Posts `planlint diff --format markdown` as one comment on a pull request (GitHub) or one note
on a merge request (GitLab), and updates that comment on the next push instead of adding
another: the comment is found by the hidden marker the Markdown starts with (docs/review.md).

    planlint_review_comment.py github --body-file diff.md
        GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_TOKEN; the pull request's number from
        --number or the event file (GITHUB_EVENT_PATH)
    planlint_review_comment.py gitlab --body-file diff.md
        CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID, PLANLINT_GITLAB_TOKEN (a project or
        personal access token with the api scope: CI_JOB_TOKEN cannot write notes)

An empty body (`--only-if-increase` printed nothing) posts nothing; a comment posted before is
then updated to say that no cost figure rises any more. The token goes in a header only, never
to a URL that is not https, except on this machine (tests run a fake API on 127.0.0.1).
Python 3's standard library only. Exit status: 0 posted (or nothing to post), 1 the API refused.
"""
import argparse
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

MARKER = "<!-- planlint-diff -->"
NO_INCREASE = MARKER + "\n### planlint diff\n\nNo plan's cost figure rises with this change any more.\n"


class ApiError(Exception):
    pass


def check_url(url):
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost", "::1")):
        return url.rstrip("/")
    raise ApiError(f"refusing to send a token to {url!r}: the API URL must be https")


def request(method, url, headers, body=None):
    """Returns (decoded JSON, response headers)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers=dict(headers))
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            text = response.read().decode("utf-8")
            return (json.loads(text) if text else None), response.headers
    except urllib.error.HTTPError as error:
        detail = error.read().decode("utf-8", "replace")[:500]
        raise ApiError(f"{method} {urllib.parse.urlsplit(url).path}: HTTP {error.code}: {detail}") from None
    except urllib.error.URLError as error:
        raise ApiError(f"{method} {url}: {error.reason}") from None


def next_link(headers):
    """GitHub's Link: <...>; rel="next"."""
    for part in (headers.get("Link") or "").split(","):
        section = part.split(";")
        if len(section) > 1 and section[1].strip() == 'rel="next"':
            return section[0].strip().strip("<>")
    return None


class GitHub:
    def __init__(self, args):
        self.api = check_url(args.api_url or os.environ.get("GITHUB_API_URL", "https://api.github.com"))
        self.repository = args.repository or os.environ["GITHUB_REPOSITORY"]
        self.number = args.number or pull_request_number()
        token = os.environ.get("GITHUB_TOKEN", "")
        if not token:
            raise ApiError("GITHUB_TOKEN is not set")
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/vnd.github+json",
                        "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "planlint-review-comment"}
        self.issue = f"{self.api}/repos/{self.repository}/issues/{self.number}"

    def find(self):
        url = f"{self.issue}/comments?per_page=100"
        while url:
            comments, headers = request("GET", url, self.headers)
            for comment in comments or []:
                if MARKER in (comment.get("body") or ""):
                    return comment["id"]
            url = next_link(headers)
        return None

    def update(self, comment, body):
        request("PATCH", f"{self.api}/repos/{self.repository}/issues/comments/{comment}", self.headers, {"body": body})

    def create(self, body):
        request("POST", f"{self.issue}/comments", self.headers, {"body": body})


class GitLab:
    def __init__(self, args):
        self.api = check_url(args.api_url or os.environ["CI_API_V4_URL"])
        project = args.project or os.environ["CI_PROJECT_ID"]
        number = args.number or os.environ["CI_MERGE_REQUEST_IID"]
        token = os.environ.get("PLANLINT_GITLAB_TOKEN", "")
        if not token:
            raise ApiError("PLANLINT_GITLAB_TOKEN is not set (a token with the api scope)")
        self.headers = {"PRIVATE-TOKEN": token, "User-Agent": "planlint-review-comment"}
        self.notes = f"{self.api}/projects/{urllib.parse.quote(str(project), safe='')}/merge_requests/{number}/notes"

    def find(self):
        page = "1"
        while page:
            notes, headers = request("GET", f"{self.notes}?per_page=100&sort=asc&page={page}", self.headers)
            for note in notes or []:
                if not note.get("system") and MARKER in (note.get("body") or ""):
                    return note["id"]
            page = headers.get("X-Next-Page") or ""
        return None

    def update(self, note, body):
        request("PUT", f"{self.notes}/{note}", self.headers, {"body": body})

    def create(self, body):
        request("POST", self.notes, self.headers, {"body": body})


def pull_request_number():
    event = os.environ.get("GITHUB_EVENT_PATH")
    if event:
        with open(event, encoding="utf-8") as file:
            number = (json.load(file).get("pull_request") or {}).get("number")
        if number:
            return str(number)
    raise ApiError("no pull request: run on a pull_request event, or pass --number")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("host", choices=["github", "gitlab"])
    parser.add_argument("--body-file", required=True, help="the Markdown of `planlint diff --format markdown`")
    parser.add_argument("--api-url", help="the API's base URL (default: GITHUB_API_URL or CI_API_V4_URL)")
    parser.add_argument("--repository", help="GitHub OWNER/NAME (default: GITHUB_REPOSITORY)")
    parser.add_argument("--project", help="GitLab project id or path (default: CI_PROJECT_ID)")
    parser.add_argument("--number", help="the pull request's number or the merge request's iid")
    args = parser.parse_args()
    try:
        with open(args.body_file, encoding="utf-8") as file:
            body = file.read()
        if body.strip() and MARKER not in body:
            body = MARKER + "\n" + body
        api = GitHub(args) if args.host == "github" else GitLab(args)
        existing = api.find()
        if not body.strip():
            if existing is None:
                print("planlint-review-comment: nothing to post")
                return 0
            api.update(existing, NO_INCREASE)
            print(f"planlint-review-comment: updated comment {existing}: no cost figure rises")
            return 0
        if existing is None:
            api.create(body)
            print("planlint-review-comment: posted a new comment")
        else:
            api.update(existing, body)
            print(f"planlint-review-comment: updated comment {existing}")
        return 0
    except (ApiError, KeyError, OSError) as error:
        what = f"{error} is not set" if isinstance(error, KeyError) else str(error)
        print(f"planlint-review-comment: error: {what}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
