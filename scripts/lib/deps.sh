# Shared by scripts/quickstart, scripts/test and .ci/run: the Debian packages planlint builds
# with, and a function that installs the missing ones (as root) or says how to.
PLANLINT_BUILD_PACKAGES=(
  g++ cmake ninja-build
  libtomlplusplus-dev libboost-dev libfmt-dev catch2 libcli11-dev nlohmann-json3-dev
)
# The sanitizer build (the `asan` preset: the suite under scripts/test --sanitize and the libFuzzer
# targets of scripts/fuzz) is clang++ with its sanitizer and libFuzzer runtimes.
PLANLINT_SANITIZER_PACKAGES=(clang libclang-rt-14-dev)

# What the integration tests run besides the npm tools (tests/unit/test_integrations.cpp,
# test_install.cpp), as command=package: node (VS Code's regular expressions), git and pre-commit
# (the hooks), zsh and fish (the completions), groff and man (the man page), xmllint (the HTML
# report is well-formed XHTML; the JUnit output against its schema). A command already on PATH,
# from a package or not, is used as it is.
PLANLINT_TEST_COMMANDS=(node=nodejs git=git pre-commit=pre-commit zsh=zsh fish=fish groff=groff-base
                        man=man-db xmllint=libxml2-utils)

planlint_missing_packages() {
  local missing=() package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  echo "${missing[@]}"
}

# planlint_install_packages PACKAGE...: installs what is missing, or prints the command.
planlint_install_packages() {
  local missing
  missing=$(planlint_missing_packages "$@")
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "planlint needs these Debian packages: $missing" >&2
    echo "Install them with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y $missing" >&2
    return 1
  fi
  echo "Installing $missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 && apt-get install -y -qq $missing >&2
}

# planlint_install_commands COMMAND=PACKAGE...: installs the package of each missing command.
planlint_install_commands() {
  local packages=() pair
  for pair in "$@"; do
    command -v "${pair%%=*}" >/dev/null 2>&1 || packages+=("${pair#*=}")
  done
  [ ${#packages[@]} -eq 0 ] || planlint_install_packages "${packages[@]}"
}

# planlint_npm_tools_installed: whether the validators the tests run (the SARIF validator
# Sarif.Multitool, taplo, ajv, action-validator), pinned in tools/npm-tools/package-lock.json, are
# installed in $PLANLINT_NPM_TOOLS, else .cache/npm-tools/ (where the tests look), from the
# current lock file.
planlint_npm_tools_installed() {
  local dest=${PLANLINT_NPM_TOOLS:-.cache/npm-tools}
  cmp -s tools/npm-tools/package-lock.json "$dest/package-lock.json" &&
    [ -x "$dest/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool" ] &&
    [ -e "$dest/node_modules/.bin/taplo" ] && [ -e "$dest/node_modules/.bin/ajv" ] &&
    [ -e "$dest/node_modules/.bin/action-validator" ]
}

# planlint_install_npm_tools [NPM_OPTION...]: installs those validators (and Debian's npm when it
# is missing), unless planlint_npm_tools_installed.
planlint_install_npm_tools() {
  local source=tools/npm-tools dest=${PLANLINT_NPM_TOOLS:-.cache/npm-tools}
  planlint_npm_tools_installed && return 0
  if ! command -v npm >/dev/null 2>&1; then
    planlint_install_packages nodejs npm || return 1
  fi
  echo "Installing the test tools of $source into $dest" >&2
  mkdir -p "$dest"
  cp "$source/package.json" "$source/package-lock.json" "$dest/"
  (cd "$dest" && npm ci --no-audit --no-fund --loglevel=error "$@" >&2) || return 1
  # The package's postinstall only does this; npm may skip install scripts.
  chmod u+x "$dest/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool" 2>/dev/null || true
}

# planlint_offer_npm_tools: what scripts/test runs. The validators are optional extras: when they
# are not installed and cannot be (npm not installed, the npm registry out of reach), one line
# says so and returns 0, and each test that runs one skips that check with a "skipped: TOOL not
# installed" line; Debian's npm package is not installed for them. With
# PLANLINT_REQUIRE_NPM_TOOLS=1 (.ci/run, the release workflow) npm is installed and a failure is
# an error.
planlint_offer_npm_tools() {
  if [ "${PLANLINT_REQUIRE_NPM_TOOLS:-}" = 1 ]; then
    planlint_install_npm_tools && return 0
    echo "the npm test tools could not be installed, and PLANLINT_REQUIRE_NPM_TOOLS=1 needs them" >&2
    return 1
  fi
  planlint_npm_tools_installed && return 0
  local log reason="npm is not installed"
  if command -v npm >/dev/null 2>&1; then
    # One try, each request at most 30 s: a registry out of reach costs seconds, not minutes.
    log=$(planlint_install_npm_tools --fetch-retries=0 --fetch-timeout=30000 2>&1) && return 0
    reason=$(printf '%s\n' "$log" | grep -v '^Installing ' | grep -m1 . || true)
  fi
  echo "skipped: the npm test tools (Sarif.Multitool, taplo, ajv, action-validator) are not installed" \
       "(${reason:-npm failed}): the tests skip their checks; PLANLINT_REQUIRE_NPM_TOOLS=1 makes this an error" >&2
}
