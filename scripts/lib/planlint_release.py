"""The planlint release binary of a version: downloaded, checked against the release's
SHA256SUMS and cached. Used by the pre-commit hook (scripts/pre-commit-hook) and the GitHub
Action (action.yml); .github/workflows/release.yml publishes what it reads, for tag vX.Y.Z:

    planlint-X.Y.Z-linux-x86_64.tar.gz   the static binary, as planlint-X.Y.Z-linux-x86_64/bin/planlint
    SHA256SUMS                           `sha256sum` lines of the tarball and the .deb

As a command (the Action's):
    planlint_release.py fetch --repository URL (--tag vX.Y.Z | --version X.Y.Z) [--cache DIR]
prints the binary's path. Exit status 0; 3 when no release matches (not a version tag, no such
release, not x86-64 Linux): build from source then; 1 when a release is there but does not
check out (a checksum that differs, a broken archive): stop.
"""

import argparse
import hashlib
import os
import platform
import re
import shutil
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class NoRelease(Exception):
    """No release binary matches: the caller may build from source or use another planlint."""


class BadRelease(Exception):
    """A release is there but does not check out: never run what it holds."""


def checkout_version(root=ROOT):
    """The version of the planlint source at `root`, from its CMakeLists.txt."""
    text = (Path(root) / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(planlint\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", text)
    if not match:
        raise BadRelease(f"no project version in {root}/CMakeLists.txt")
    return match.group(1)


def tarball_name(version):
    return f"planlint-{version}-linux-x86_64.tar.gz"


def version_of_tag(tag):
    """"v0.2.0" -> "0.2.0"; NoRelease for a branch, a commit or another tag."""
    match = re.fullmatch(r"v([0-9]+\.[0-9]+\.[0-9]+)", tag or "")
    if not match:
        raise NoRelease(f"'{tag}' is not a release tag (vX.Y.Z)")
    return match.group(1)


def release_url(repository, version):
    """The folder of a GitHub release's files, from the repository's URL (https or ssh)."""
    match = re.fullmatch(r"(?:https://|git@|ssh://git@)([^/:]+)[/:]([^/]+)/([^/]+?)(?:\.git)?/?", repository or "")
    if not match:
        raise NoRelease(f"'{repository}' is not a GitHub repository URL; set PLANLINT_RELEASE_URL")
    host, owner, name = match.groups()
    return f"https://{host}/{owner}/{name}/releases/download/v{version}"


def base_url_of(location):
    """The URL of a folder of release files named by `location`: a URL as it is (https://,
    file://), a plain folder (absolute, or relative to the working folder) as its file:// URL."""
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", location):
        return location
    return Path(location).expanduser().resolve().as_uri()


def supported_platform():
    return platform.system() == "Linux" and platform.machine() in ("x86_64", "AMD64")


def default_cache():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "planlint"


def _download(url, destination):
    try:
        with urllib.request.urlopen(url, timeout=60) as response, open(destination, "wb") as out:
            shutil.copyfileobj(response, out)
    except urllib.error.HTTPError as error:
        if error.code == 404:
            raise NoRelease(f"{url}: not found") from error
        raise BadRelease(f"{url}: HTTP {error.code}") from error
    except ValueError as error:  # not a URL urllib can open
        raise NoRelease(f"{url}: {error}") from error
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        if isinstance(reason, FileNotFoundError):
            raise NoRelease(f"{url}: not found") from error
        raise NoRelease(f"{url}: {reason}") from error


def _expected_digest(sums, name):
    for line in sums.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].lstrip("*") == name:
            return parts[0].lower()
    raise BadRelease(f"SHA256SUMS of the release does not list {name}")


def fetch(base_url, version, cache=None):
    """The path of planlint `version`, from the cache or downloaded from `base_url` (the folder of
    the release's files: a URL or a plain folder) and checked. Raises NoRelease or BadRelease."""
    if not supported_platform():
        raise NoRelease(f"release binaries are for x86-64 Linux, not {platform.system()} {platform.machine()}")
    cache = Path(cache) if cache else default_cache()
    binary = cache / version / "planlint"
    if binary.is_file() and os.access(binary, os.X_OK):
        return binary
    name = tarball_name(version)
    base_url = base_url_of(base_url)
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as scratch:
        sums_path = Path(scratch) / "SHA256SUMS"
        tarball = Path(scratch) / name
        _download(f"{base_url}/SHA256SUMS", sums_path)
        _download(f"{base_url}/{name}", tarball)
        expected = _expected_digest(sums_path.read_text(encoding="utf-8", errors="replace"), name)
        actual = hashlib.sha256(tarball.read_bytes()).hexdigest()
        if actual != expected:
            raise BadRelease(f"{name}: SHA-256 {actual} is not the {expected} of the release's SHA256SUMS")
        member = f"planlint-{version}-linux-x86_64/bin/planlint"
        try:
            with tarfile.open(tarball, "r:gz") as archive:
                source = archive.extractfile(archive.getmember(member))
                extracted = Path(scratch) / "planlint"
                with open(extracted, "wb") as out:
                    shutil.copyfileobj(source, out)
        except (KeyError, tarfile.TarError, AttributeError) as error:
            raise BadRelease(f"{name} holds no {member}") from error
        extracted.chmod(0o755)
        binary.parent.mkdir(parents=True, exist_ok=True)
        # Atomic: hooks run in parallel may fetch at once, and a reader never sees half a file.
        os.replace(extracted, binary)
    return binary


def main(argv=None):
    parser = argparse.ArgumentParser(description="Fetch the planlint release binary of a version.")
    sub = parser.add_subparsers(dest="command", required=True)
    fetch_parser = sub.add_parser("fetch")
    fetch_parser.add_argument("--repository", help="the GitHub repository's URL")
    fetch_parser.add_argument("--base-url",
                              help="the folder of the release's files, a URL or a plain folder (instead of --repository)")
    which = fetch_parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--tag", help="a release tag, vX.Y.Z")
    which.add_argument("--version", help="a version, X.Y.Z")
    fetch_parser.add_argument("--cache", help="the cache folder (default: $XDG_CACHE_HOME/planlint)")
    args = parser.parse_args(argv)
    try:
        version = args.version or version_of_tag(args.tag)
        base_url = args.base_url or release_url(args.repository, version)
        print(fetch(base_url, version, args.cache))
    except NoRelease as error:
        print(f"planlint: no release binary: {error}", file=sys.stderr)
        return 3
    except BadRelease as error:
        print(f"planlint: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
