#!/usr/bin/env bash
# Installs the ticker in PREFIX (default ~/.local). On Linux, by default:
#
#   PREFIX/bin/ticker                                the static build (Scripts/build-static.sh):
#                                                    no shared library, the least memory
#   PREFIX/libexec/ticker/ticker                     its companion, the dynamically linked build,
#   PREFIX/libexec/ticker/libTickerURLSession.so     with the URLSession engine plugin beside it
#
# The static ticker runs everything itself except `--engine urlsession`, for which it runs its
# companion in its place (it cannot load the plugin). `--dynamic` installs the dynamically linked
# build alone as PREFIX/bin/ticker, the plugin beside it (the only layout on macOS).
#
#   bash Scripts/install.sh                          # ~/.local/bin/ticker
#   sudo bash Scripts/install.sh --prefix /usr/local # /usr/local/bin/ticker
#   bash Scripts/install.sh --dynamic                # the dynamically linked build only
#   bash Scripts/install.sh --from .build/release [--static FILE]
#                                                    # copy what is built, without building
#
# The dynamically linked build uses the Swift runtime libraries of the toolchain that built it
# (found through its RUNPATH): keep the toolchain where it is; it loads the system's libssl.so.3
# for wss://. The static build has OpenSSL linked in: install again after OpenSSL's security
# updates (`ticker --version` names it).
set -euo pipefail

usage() { echo "usage: bash Scripts/install.sh [--prefix DIR] [--dynamic] [--from BUILD_DIR [--static FILE]]"; }

prefix="${HOME:?}/.local"
from=""
static=""
dynamic=0
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix | --from | --static)
      if [ $# -lt 2 ] || [ -z "$2" ]; then
        echo "install: $1 needs a $([ "$1" = --static ] && echo file || echo directory)" >&2
        usage >&2
        exit 64
      fi
      case "$1" in --prefix) prefix=$2 ;; --from) from=$2 ;; --static) static=$2 ;; esac
      shift 2
      ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --from=*) from=${1#--from=}; shift ;;
    --static=*) static=${1#--static=}; shift ;;
    --dynamic) dynamic=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *)
      echo "install: unknown argument $1" >&2
      usage >&2
      exit 64
      ;;
  esac
done
if [ -n "$static" ] && { [ -z "$from" ] || [ "$dynamic" = 1 ]; }; then
  echo "install: --static FILE goes with --from BUILD_DIR, and not with --dynamic" >&2
  usage >&2
  exit 64
fi

# Relative paths are the caller's, before this script changes directory.
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
prefix=$(absolute "$prefix")
[ -z "$from" ] || from=$(absolute "$from")
[ -z "$static" ] || static=$(absolute "$static")

cd "$(dirname "$0")/.."
if [ -z "$from" ]; then
  swift build -c release --product ticker
  swift build -c release --product TickerURLSession
  from=$(swift build -c release --show-bin-path)
  if [ "$dynamic" = 0 ] && [ "$(uname -s)" = Linux ]; then
    if ! static=$(bash Scripts/build-static.sh); then
      echo "install: the static build failed (above); nothing was installed." >&2
      echo "install: bash Scripts/install.sh --dynamic installs the dynamically linked build alone." >&2
      exit 1
    fi
  fi
fi
if [ ! -x "$from/ticker" ]; then
  echo "install: no ticker executable in $from" >&2
  exit 66
fi
if [ -n "$static" ] && [ ! -x "$static" ]; then
  echo "install: no static ticker executable at $static" >&2
  exit 66
fi

install -d "$prefix/bin"
if [ -n "$static" ]; then
  install -d "$prefix/libexec/ticker"
  install -m 755 "$from/ticker" "$prefix/libexec/ticker/ticker"
  if [ -f "$from/libTickerURLSession.so" ]; then
    install -m 644 "$from/libTickerURLSession.so" "$prefix/libexec/ticker/libTickerURLSession.so"
  fi
  install -m 755 "$static" "$prefix/bin/ticker"
  rm -f "$prefix/bin/libTickerURLSession.so"  # an earlier --dynamic install's
  echo "install: $prefix/bin/ticker, static ($("$prefix/bin/ticker" --version))"
  echo "install: $prefix/libexec/ticker/ticker, its dynamically linked companion for --engine urlsession"
else
  install -m 755 "$from/ticker" "$prefix/bin/ticker"
  if [ -f "$from/libTickerURLSession.so" ]; then
    install -m 644 "$from/libTickerURLSession.so" "$prefix/bin/libTickerURLSession.so"
  fi
  # An earlier static install's companion.
  rm -f "$prefix/libexec/ticker/ticker" "$prefix/libexec/ticker/libTickerURLSession.so"
  rmdir "$prefix/libexec/ticker" 2>/dev/null || true
  echo "install: $prefix/bin/ticker ($("$prefix/bin/ticker" --version))"
fi
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "install: note: $prefix/bin is not on PATH" ;;
esac
