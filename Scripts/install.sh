#!/usr/bin/env bash
# Installs the ticker: builds it in release mode and copies it to PREFIX/bin (default ~/.local),
# with the URLSession engine plugin (libTickerURLSession.so) beside it, where the ticker looks for
# it (only `--engine urlsession` loads it; the native engine needs nothing else).
#
#   bash Scripts/install.sh                          # ~/.local/bin/ticker
#   sudo bash Scripts/install.sh --prefix /usr/local # /usr/local/bin/ticker
#   bash Scripts/install.sh --from .build/release    # copy what is built, without building
#
# The binary uses the Swift runtime libraries of the toolchain that built it (found through its
# RUNPATH) and the system's libssl: keep the toolchain where it is.
set -euo pipefail

usage() { echo "usage: bash Scripts/install.sh [--prefix DIR] [--from BUILD_DIR]"; }

prefix="${HOME:?}/.local"
from=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix | --from)
      if [ $# -lt 2 ] || [ -z "$2" ]; then
        echo "install: $1 needs a directory" >&2
        usage >&2
        exit 64
      fi
      if [ "$1" = --prefix ]; then prefix=$2; else from=$2; fi
      shift 2
      ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --from=*) from=${1#--from=}; shift ;;
    -h | --help) usage; exit 0 ;;
    *)
      echo "install: unknown argument $1" >&2
      usage >&2
      exit 64
      ;;
  esac
done

# Relative paths are the caller's, before this script changes directory.
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
if [ -n "$from" ]; then
  case "$from" in /*) ;; *) from="$PWD/$from" ;; esac
fi

cd "$(dirname "$0")/.."
if [ -z "$from" ]; then
  swift build -c release --product ticker
  swift build -c release --product TickerURLSession
  from=$(swift build -c release --show-bin-path)
fi
if [ ! -x "$from/ticker" ]; then
  echo "install: no ticker executable in $from" >&2
  exit 66
fi

install -d "$prefix/bin"
install -m 755 "$from/ticker" "$prefix/bin/ticker"
if [ -f "$from/libTickerURLSession.so" ]; then
  install -m 644 "$from/libTickerURLSession.so" "$prefix/bin/libTickerURLSession.so"
fi
echo "install: $prefix/bin/ticker ($("$prefix/bin/ticker" --version))"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "install: note: $prefix/bin is not on PATH" ;;
esac
