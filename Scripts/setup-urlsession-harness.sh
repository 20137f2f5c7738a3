#!/usr/bin/env bash
# Sets up the harness that turns the stock FoundationNetworking WebSocket path on for the
# URLSession engine's tests (see docs/engines.md and
# Tests/Support/urlsession-harness/), idempotently, under .build/urlsession-harness/:
#   libcurl/      libcurl4 + libcurl4-openssl-dev 8.14.1 from Debian bookworm-backports, unpacked
#                 with dpkg-deb -x (the system libcurl stays as it is)
#   preload.so    the LD_PRELOAD library re-providing _CFURLSessionInterface's WebSocket symbols,
#                 compiled against those headers
#   plugin_client a small process that drives libTickerURLSession.so through its C ABI
#   env           LIBCURL_DIR / PRELOAD / CLIENT / LIBCURL_VERSION for the tests
# Needs: Debian 12 (bookworm), root or sudo for apt (bookworm-backports is added to the Suites
# of the Debian source already configured), a C compiler.
set -euo pipefail
cd "$(dirname "$0")/.."

want=8.14.1
out=.build/urlsession-harness
src=Tests/Support/urlsession-harness
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
libdir="$out/libcurl/usr/lib/$multiarch"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"

if ! command -v cc >/dev/null; then
  echo "harness: installing gcc"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gcc
fi

if [ ! -e "$libdir/libcurl.so.4" ] || ! grep -q "^LIBCURL_VERSION=$want" "$out/env" 2>/dev/null; then
  sources=/etc/apt/sources.list.d/debian.sources
  if [ -f "$sources" ] && ! grep -q "bookworm-backports" "$sources"; then
    echo "harness: adding bookworm-backports to the Suites of $sources"
    $SUDO sed -i -E '/^Suites:.*\bbookworm-updates\b/ s/$/ bookworm-backports/' "$sources"
  fi
  if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "harness: no bookworm-backports source could be configured" >&2
    exit 1
  fi
  echo "harness: fetching libcurl $want from bookworm-backports"
  $SUDO apt-get update -qq
  rm -rf "$out/debs" "$out/libcurl"
  mkdir -p "$out/debs" "$out/libcurl"
  (cd "$out/debs" && apt-get download -qq -o APT::Sandbox::User="$(id -un)" "libcurl4/bookworm-backports" "libcurl4-openssl-dev/bookworm-backports")
  for deb in "$out"/debs/*.deb; do
    version=$(dpkg-deb -f "$deb" Version)
    case "$version" in
      "$want"*) ;;
      *) echo "harness: $deb is $version, expected $want" >&2; exit 1 ;;
    esac
    dpkg-deb -x "$deb" "$out/libcurl"
  done
fi

echo "harness: building the preload library and plugin_client"
cc -shared -fPIC -O2 -Wall -Wextra -Werror -I"$out/libcurl/usr/include" -I"$out/libcurl/usr/include/$multiarch" \
  -o "$out/preload.so" "$src/cfurlsession_ws_preload.c" -L"$libdir" -lcurl
cc -O2 -Wall -Wextra -Werror -o "$out/plugin_client" "$src/plugin_client.c" -ldl -lpthread

# The unpacked libcurl must load with Debian 12's own libraries and say it does ws/wss.
version=$(LD_LIBRARY_PATH="$libdir" python3 - "$libdir/libcurl.so.4" <<'PY'
import ctypes, sys
curl = ctypes.CDLL(sys.argv[1])
curl.curl_version.restype = ctypes.c_char_p
print(curl.curl_version().decode().split()[0].split("/")[1])
PY
)
[ "$version" = "$want" ] || { echo "harness: $libdir/libcurl.so.4 says $version" >&2; exit 1; }
missing=$(LD_LIBRARY_PATH="$libdir" ldd "$out/preload.so" | grep "not found" || true)
[ -z "$missing" ] || { echo "harness: unresolved libraries: $missing" >&2; exit 1; }

cat > "$out/env" <<ENV
LIBCURL_VERSION=$want
LIBCURL_DIR=$PWD/$libdir
PRELOAD=$PWD/$out/preload.so
CLIENT=$PWD/$out/plugin_client
ENV
echo "harness: libcurl $version in $libdir; preload $out/preload.so"
