#!/usr/bin/env bash
# The ticker as one static executable (Linux): no shared library at all, the Swift runtime and
# glibc linked in, about 7 MB less peak RSS than the default build (docs/install.md).
#
#   Scripts/build-static.sh            # builds .build/static/release/ticker, checks it, prints its path
#
# It is built in its own scratch directory (.build/static), so the default build in .build stays
# as it is. What it cannot do itself: the URLSession engine (its plugin brings a second Swift
# runtime and C library); `--engine urlsession` runs the companion Scripts/install.sh puts beside
# it, the dynamically linked build, or exits 69 saying it is missing. OpenSSL is linked in, as
# glibc and zlib are: after a security update of Debian's libssl-dev, build and install again
# (`ticker --version` names the OpenSSL inside).
#
# Linked by lld with Scripts/ticker.order (Scripts/make-order-file.py): the functions the ticker
# runs are placed together at the start of its code, so that the few page-cache folios holding
# them are all that is mapped, not nearly all 7 MB of it. The Swift code is compiled with each
# function in a section of its own (-function-sections): without it a source file's functions
# share one section and move together, and the ones that never run are mapped with the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/static
order=$PWD/Scripts/ticker.order
# OpenSSL linked in from Debian's libssl-dev (libssl.a, libcrypto.a): no libssl.so.3 and no
# second, shared glibc to load for wss:// (docs/install.md).
lib=/usr/lib/$(uname -m)-linux-gnu
for archive in libssl.a libcrypto.a; do
  [ -e "$lib/$archive" ] || { echo "build-static: no $lib/$archive (apt-get install libssl-dev)" >&2; exit 1; }
done
ticker=$(swift build -c release --scratch-path "$scratch" --show-bin-path)/ticker
# SwiftPM knows neither the order file nor the OpenSSL archives: a binary older than the order
# file, or linked with other archives than the installed ones (a security update of libssl-dev;
# their checksums are kept beside the build), is linked again.
stamp=$scratch/openssl-archives.sha256
archives=$(sha256sum "$lib/libssl.a" "$lib/libcrypto.a")
if [ -e "$ticker" ] && { [ "$ticker" -ot "$order" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$archives" ]; }; then
  rm -f "$ticker"
fi
swift build -c release --product ticker --scratch-path "$scratch" \
  --static-swift-stdlib -Xswiftc -static-executable -Xswiftc -Xfrontend -Xswiftc -function-sections \
  -Xswiftc -use-ld=lld -Xlinker --symbol-ordering-file="$order" -Xlinker --no-warn-symbol-ordering \
  -Xcc -DTICKER_STATIC_OPENSSL -Xlinker "$lib/libssl.a" -Xlinker "$lib/libcrypto.a" >&2
printf '%s\n' "$archives" >"$stamp"

# Checks that fail the script: it is one file that needs no library, it runs the demo, and,
# without a companion, it refuses the URLSession engine with its documented exit code and reason.
if ldd "$ticker" 2>&1 | grep -q "=>"; then
  echo "build-static: $ticker still needs shared libraries:" >&2
  ldd "$ticker" >&2
  exit 1
fi
lines=$("$ticker" --demo --count 3 | wc -l)
[ "$lines" -eq 3 ] || { echo "build-static: the demo printed $lines lines, not 3" >&2; exit 1; }
set +e
refusal=$("$ticker" --demo --count 1 --engine urlsession 2>&1 >/dev/null)
status=$?
set -e
if [ "$status" -ne 69 ] || ! grep -q "static executable" <<<"$refusal"; then
  echo "build-static: --engine urlsession exited $status: $refusal" >&2
  exit 1
fi
echo "$ticker"
