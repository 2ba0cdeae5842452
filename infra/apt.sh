# Shared by the setup scripts: installs the named Debian packages with apt
# (through sudo unless run as root), quietly. The package lists are fetched
# once per setup: lists fetched in the last hour (by the other setup script of
# the same run) are used as they are, and fetched again only if they fail.
apt_install() {
  local sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  echo "setup: installing $* (apt)" >&2
  local install=(env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@")
  if [ -n "$(find /var/lib/apt/lists -maxdepth 1 -name '*InRelease' -mmin -60 2>/dev/null | head -n 1)" ] &&
    $sudo_cmd "${install[@]}" >/dev/null 2>&1; then
    return 0
  fi
  $sudo_cmd apt-get update -qq
  $sudo_cmd "${install[@]}" >/dev/null
}
