#!/usr/bin/env python3
"""Tests scripts/lib/planlint_review_comment.py against fakes of GitHub's and GitLab's APIs on
127.0.0.1 (no network): it posts one comment, finds it again by its marker across pages of other
comments and updates it, posts nothing for an empty body, says when the API refuses, never sends
the token to a plain-http host elsewhere; and action.yml's diff step and the GitLab job of
docs/integrations.md, run whole with the real planlint in a shallow checkout of a pull request,
post one comment and update it on the next push. Run by tests/unit/test_diff_review.cpp; prints
"N passed, N failed".

    review_comment_test.py REPOSITORY_ROOT PLANLINT_BINARY
"""
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import urllib.parse

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.getcwd()
PLANLINT = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
SCRIPT = os.path.join(ROOT, "scripts/lib/planlint_review_comment.py")
MARKER = "<!-- planlint-diff -->"
TOKEN = "s3cr3t-token-value"


class FakeApi:
    """One host's comments on one pull request, and every request the script made."""

    def __init__(self, kind, others=0):
        self.kind = kind
        self.comments = [{"id": 1000 + i, "body": f"a reviewer's comment {i}", "system": False} for i in range(others)]
        if kind == "gitlab":
            self.comments.insert(0, {"id": 999, "body": MARKER + " mentioned in a system note", "system": True})
        self.requests = []
        self.refuse = None  # a method answered with 403
        api = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def reply(self, status, payload=None, headers=None):
                data = json.dumps(payload).encode() if payload is not None else b""
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def handle_any(self, method):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                url = urllib.parse.urlsplit(self.path)
                api.requests.append({"method": method, "path": url.path, "query": urllib.parse.parse_qs(url.query),
                                     "headers": dict(self.headers), "body": body})
                if api.refuse == method:
                    return self.reply(403, {"message": "Resource not accessible by integration"})
                return api.answer(self, method, url, body)

            def do_GET(self):
                self.handle_any("GET")

            def do_POST(self):
                self.handle_any("POST")

            def do_PATCH(self):
                self.handle_any("PATCH")

            def do_PUT(self):
                self.handle_any("PUT")

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def answer(self, handler, method, url, body):
        per_page = 100
        if self.kind == "github":
            listing = re.fullmatch(r"/repos/acme/plans/issues/42/comments", url.path)
            one = re.fullmatch(r"/repos/acme/plans/issues/comments/(\d+)", url.path)
            auth_ok = handler.headers.get("Authorization") == f"Bearer {TOKEN}"
        else:
            listing = re.fullmatch(r"/api/v4/projects/7/merge_requests/42/notes", url.path)
            one = re.fullmatch(r"/api/v4/projects/7/merge_requests/42/notes/(\d+)", url.path)
            auth_ok = handler.headers.get("PRIVATE-TOKEN") == TOKEN
        if not auth_ok:
            return handler.reply(401, {"message": "Bad credentials"})
        if listing and method == "GET":
            query = urllib.parse.parse_qs(url.query)
            page = int(query.get("page", ["1"])[0])
            chunk = self.comments[(page - 1) * per_page:page * per_page]
            more = page * per_page < len(self.comments)
            headers = {}
            if more and self.kind == "github":
                headers["Link"] = f'<{self.url}{url.path}?per_page=100&page={page + 1}>; rel="next", <x>; rel="last"'
            if self.kind == "gitlab":
                headers["X-Next-Page"] = str(page + 1) if more else ""
            return handler.reply(200, chunk, headers)
        if listing and method == "POST":
            comment = {"id": 5000 + len(self.comments), "body": body["body"], "system": False}
            self.comments.append(comment)
            return handler.reply(201, comment)
        if one and method in ("PATCH", "PUT"):
            for comment in self.comments:
                if comment["id"] == int(one.group(1)):
                    comment["body"] = body["body"]
                    return handler.reply(200, comment)
        return handler.reply(404, {"message": "Not Found"})

    def ours(self):
        return [c for c in self.comments if not c["system"] and MARKER in c["body"]]

    def close(self):
        self.server.shutdown()


results = {"passed": 0, "failed": 0}


def check(condition, what):
    if condition:
        results["passed"] += 1
    else:
        results["failed"] += 1
        print(f"FAILED: {what}")


def run(command, env, shell=False):
    full = dict(os.environ)
    full.update(env)
    return subprocess.run(command, env=full, shell=shell, capture_output=True, text=True, timeout=60,
                          executable="/bin/bash" if shell else None)


def body_file(text):
    handle = tempfile.NamedTemporaryFile("w", suffix=".md", delete=False)
    handle.write(text)
    handle.close()
    return handle.name


def github_env(api):
    return {"GITHUB_API_URL": api.url, "GITHUB_REPOSITORY": "acme/plans", "GITHUB_TOKEN": TOKEN}


def gitlab_env(api):
    return {"CI_API_V4_URL": api.url + "/api/v4", "CI_PROJECT_ID": "7", "CI_MERGE_REQUEST_IID": "42",
            "PLANLINT_GITLAB_TOKEN": TOKEN}


def test_host(kind, env_of, number_args, update_method):
    api = FakeApi(kind, others=150)  # the marker comment, once posted, is on the second page
    env = env_of(api)
    first = body_file(MARKER + "\n### planlint diff: 1 plan changed\n")
    result = run([sys.executable, SCRIPT, kind, "--body-file", first] + number_args, env)
    check(result.returncode == 0, f"{kind}: first post exits 0: {result.stderr}")
    check(len(api.ours()) == 1, f"{kind}: one comment posted")
    check(api.requests[-1]["method"] == "POST", f"{kind}: the first post creates a comment")
    check(sum(1 for r in api.requests if r["method"] == "GET") == 2, f"{kind}: both pages of comments are read")
    check(TOKEN not in result.stdout + result.stderr, f"{kind}: the token is never printed")

    second = body_file(MARKER + "\n### planlint diff: 2 plans changed\n")
    result = run([sys.executable, SCRIPT, kind, "--body-file", second] + number_args, env)
    check(result.returncode == 0, f"{kind}: second post exits 0: {result.stderr}")
    check(len(api.ours()) == 1 and "2 plans changed" in api.ours()[0]["body"], f"{kind}: the comment is updated in place")
    check(api.requests[-1]["method"] == update_method, f"{kind}: the update uses {update_method}")
    check(len(api.comments) == 151 + (kind == "gitlab"), f"{kind}: no comment added on the second push")

    empty = body_file("")
    result = run([sys.executable, SCRIPT, kind, "--body-file", empty] + number_args, env)
    check(result.returncode == 0 and "no cost figure rises" in result.stdout, f"{kind}: an empty body updates the comment")
    check("rises with this change any more" in api.ours()[0]["body"], f"{kind}: the comment says no cost rises any more")

    fresh = FakeApi(kind)
    result = run([sys.executable, SCRIPT, kind, "--body-file", empty] + number_args, env_of(fresh))
    check(result.returncode == 0 and fresh.ours() == [] and "nothing to post" in result.stdout,
          f"{kind}: an empty body with no comment posts nothing")

    fresh.refuse = "POST"
    result = run([sys.executable, SCRIPT, kind, "--body-file", first] + number_args, env_of(fresh))
    check(result.returncode == 1 and "HTTP 403" in result.stderr, f"{kind}: a refusal is exit 1 with the status")
    check(TOKEN not in result.stderr, f"{kind}: the refusal does not print the token")

    far = dict(env)
    far.update({"GITHUB_API_URL": "http://api.example.com", "CI_API_V4_URL": "http://gitlab.example.com/api/v4"})
    result = run([sys.executable, SCRIPT, kind, "--body-file", first] + number_args, far)
    check(result.returncode == 1 and "must be https" in result.stderr, f"{kind}: no token over plain http elsewhere")
    for server in (api, fresh):
        server.close()


def action_step_script(step_id):
    """The `run: |` block of action.yml's step `id: step_id`, as the runner writes it to a file."""
    with open(os.path.join(ROOT, "action.yml"), encoding="utf-8") as file:
        lines = file.read().splitlines()
    step = next(i for i, line in enumerate(lines) if line.strip() == f"id: {step_id}")
    run = next(i for i in range(step, len(lines)) if lines[i].strip() == "run: |")
    indent = len(lines[run]) - len(lines[run].lstrip()) + 2
    body = []
    for line in lines[run + 1:]:
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            break
        body.append(line[indent:])
    return "\n".join(body) + "\n"


def gitlab_job_script(job):
    """The `script:` lines of the docs' GitLab job `job:`, one command each, as GitLab runs them."""
    with open(os.path.join(ROOT, "docs/integrations.md"), encoding="utf-8") as file:
        lines = file.read().splitlines()
    at = lines.index(f"{job}:")
    script = next(i for i in range(at, len(lines)) if lines[i].strip() == "script:")
    commands = []
    for line in lines[script + 1:]:
        if not line.strip().startswith("- "):
            break
        commands.append(line.strip()[2:])
    return commands


def git(folder, *args):
    subprocess.run(["git", "-C", folder, "-c", "user.name=planlint", "-c", "user.email=planlint@example.com",
                    "-c", "commit.gpgsign=false", *args], check=True, capture_output=True, text=True)


def rev(folder, name):
    return subprocess.run(["git", "-C", folder, "rev-parse", name], check=True, capture_output=True,
                          text=True).stdout.strip()


def pull_request(folder):
    """A remote with two commits (the base, and a pull request that lowers the 70B run's MFU past a
    guardrail of 20% and adds a plan), and a shallow checkout of the second, as CI checks it out:
    the base commit is not in it. Returns (checkout, base sha)."""
    origin = os.path.join(folder, "origin")
    os.makedirs(os.path.join(origin, "plans"))
    git(origin, "init", "-q", "-b", "main")
    with open(os.path.join(origin, ".planlint.toml"), "w", encoding="utf-8") as file:
        file.write('[guardrails]\ncost_increase = "20%"\n')
    with open(os.path.join(ROOT, "examples/llama-70b-pretrain.toml"), encoding="utf-8") as file:
        plan = file.read()
    with open(os.path.join(origin, "plans/llama-70b.toml"), "w", encoding="utf-8") as file:
        file.write(plan)
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "base")
    base = rev(origin, "HEAD")
    with open(os.path.join(origin, "plans/llama-70b.toml"), "w", encoding="utf-8") as file:
        file.write(plan.replace('\nmfu = "40%"', '\nmfu = "30%"', 1))
    with open(os.path.join(ROOT, "examples/cluster-plan.toml"), encoding="utf-8") as file:
        added = file.read()
    with open(os.path.join(origin, "plans/llama-7b.toml"), "w", encoding="utf-8") as file:
        file.write(added)
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "a lower MFU")
    checkout = os.path.join(folder, "checkout")
    subprocess.run(["git", "clone", "-q", "--depth=1", "file://" + origin, checkout], check=True, capture_output=True)
    return checkout, base


def outputs(path):
    with open(path, encoding="utf-8") as file:
        return dict(line.split("=", 1) for line in file.read().splitlines() if "=" in line)


def test_action_step(planlint):
    # action.yml's diff step, as the runner runs a `shell: bash` step (bash -eo pipefail), in a
    # shallow checkout of a pull request, with the real planlint, posting to a fake GitHub.
    script = action_step_script("diff")
    check("planlint_review_comment.py" in script and " github " in script, "action.yml's diff step runs the script")
    api = FakeApi("github", others=3)
    with tempfile.TemporaryDirectory() as folder:
        checkout, base = pull_request(folder)
        check(subprocess.run(["git", "-C", checkout, "cat-file", "-e", base + "^{commit}"],
                             capture_output=True).returncode != 0, "the shallow checkout lacks the base commit")
        step = os.path.join(folder, "step.sh")
        with open(step, "w", encoding="utf-8") as file:
            file.write(script)
        event = body_file(json.dumps({"pull_request": {"number": 42, "base": {"sha": base}}}))
        temp = os.path.join(folder, "runner-temp")
        os.makedirs(temp)
        env = github_env(api)
        env.update({"GITHUB_ACTION_PATH": ROOT, "GITHUB_EVENT_PATH": event, "RUNNER_TEMP": temp,
                    "PLANLINT_BIN": planlint, "PLANLINT_PATHS": "plans/", "PLANLINT_DIFF_ARGS": "--today 2026-12-01",
                    "BASE_SHA": base})
        for push in (1, 2):
            env["GITHUB_OUTPUT"] = os.path.join(folder, f"output-{push}")
            result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", step], cwd=checkout,
                                    env={**os.environ, **env}, capture_output=True, text=True, timeout=120)
            check(result.returncode == 0, f"push {push}: the step posts and exits 0: {result.stdout}{result.stderr}")
            written = outputs(env["GITHUB_OUTPUT"])
            check(written.get("exit-status") == "1", f"push {push}: the guardrail is the step's exit-status 1: {written}")
            check(len(api.ours()) == 1, f"push {push}: one comment on the pull request")
            body = api.ours()[0]["body"] if api.ours() else ""
            check(body.startswith(MARKER) and "`llama-70b-pretrain`" in body and "`llama-7b-pretrain`" in body,
                  f"push {push}: the comment is planlint diff's Markdown of both plans")
            check("guardrail" in body and "exceeded" in body, f"push {push}: the comment shows the guardrail")
        check([r["method"] for r in api.requests].count("POST") == 1, "the second push updates the first comment")
    api.close()


def test_gitlab_job(planlint):
    # The GitLab job of docs/integrations.md: its script lines run as GitLab runs them (one shell,
    # -eo pipefail) in a shallow merge-request checkout, with the release tarball's layout (its
    # before_script downloads it), posting to a fake GitLab.
    commands = gitlab_job_script("planlint-diff")
    check(any("planlint_review_comment.py" in c and " gitlab " in c for c in commands),
          "the docs' GitLab job runs the script")
    api = FakeApi("gitlab")
    with tempfile.TemporaryDirectory() as folder:
        checkout, base = pull_request(folder)
        version = "0.0.0"
        top = os.path.join(checkout, f"planlint-{version}-linux-x86_64")
        os.makedirs(os.path.join(top, "bin"))
        os.makedirs(os.path.join(top, "share", "planlint"))
        os.symlink(planlint, os.path.join(top, "bin", "planlint"))
        os.symlink(SCRIPT, os.path.join(top, "share", "planlint", "planlint_review_comment.py"))
        env = gitlab_env(api)
        env.update({"PLANLINT_VERSION": version, "CI_MERGE_REQUEST_DIFF_BASE_SHA": base,
                    "PATH": os.path.join(top, "bin") + os.pathsep + os.environ["PATH"]})
        job = os.path.join(folder, "job.sh")
        with open(job, "w", encoding="utf-8") as file:
            file.write("\n".join(commands) + "\n")
        for push in (1, 2):
            result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", job], cwd=checkout,
                                    env={**os.environ, **env}, capture_output=True, text=True, timeout=120)
            check(result.returncode == 1, f"push {push}: the guardrail fails the job: {result.stdout}{result.stderr}")
            check(len(api.ours()) == 1, f"push {push}: one note on the merge request, posted before the job fails")
            body = api.ours()[0]["body"] if api.ours() else ""
            check("`llama-70b-pretrain`" in body and "exceeded" in body, f"push {push}: the note is the diff's Markdown")
        check([r["method"] for r in api.requests].count("PUT") == 1, "the second push updates the note")
    api.close()


test_host("github", github_env, ["--number", "42"], "PATCH")
test_host("gitlab", gitlab_env, [], "PUT")
if PLANLINT:
    test_action_step(PLANLINT)
    test_gitlab_job(PLANLINT)
else:
    check(False, "no planlint binary given: the Action's step and the GitLab job are not run")
print(f"{results['passed']} passed, {results['failed']} failed")
sys.exit(1 if results["failed"] else 0)
