# Shared by scripts/quickstart, scripts/test and .ci/run: the Debian packages planlint builds
# with, and a function that installs the missing ones (as root) or says how to.
PLANLINT_BUILD_PACKAGES=(
  g++ cmake ninja-build
  libtomlplusplus-dev libboost-dev libfmt-dev catch2 libcli11-dev nlohmann-json3-dev
)

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
