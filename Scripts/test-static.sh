#!/usr/bin/env bash
# Runs the test suite against the static build (Scripts/build-static.sh), the ticker
# Scripts/install.sh installs: every test that starts a ticker starts that one
# (TICKER_TEST_EXECUTABLE). The tests of the URLSession plugin path skip, saying why (a static
# executable cannot load it; StaticBuildTests run that path through its companion).
#
#   bash Scripts/test-static.sh [swift test arguments, e.g. --filter Venue]
set -euo pipefail
cd "$(dirname "$0")/.."
ticker=$(bash Scripts/build-static.sh)
swift build --build-tests
TICKER_TEST_EXECUTABLE="$ticker" swift test --skip-build "$@"
