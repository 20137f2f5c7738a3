#!/usr/bin/env bash
# The hot path's instructions per message, counted by callgrind (repeatable whatever else the
# machine does): per message = (Ir at 40,000 − Ir at 20,000) / 20,000, minus the same for the
# input alone (`setup`). Prints one line per workload:
#
#   bash Benchmarks/hotpath.sh            every trade (1 symbol), the default debounce (1,000 symbols),
#                                         and every trade of 10-trade messages (W9's shape)
#   HOTPATH=path/to/hotpath bash Benchmarks/hotpath.sh     another build of it (to compare two trees)
#   HOTPATH_VENUES=1 bash Benchmarks/hotpath.sh           also W10's Binance trades and book tickers
#                                                         (1,000 symbols, the default debounce)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${HOTPATH:-}" ]; then
  swift build -c release --product hotpath >/dev/null
  HOTPATH=.build/release/hotpath
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

ir() {  # instructions of one run: ir N MODE [SYMBOLS]
  valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$HOTPATH" "$@" >/dev/null 2>"$out/log"
  sed -n 's/.*Collected : *//p' "$out/log"
}

workloads=("every-trade 1 1 finnhub" "default 1000 1 finnhub" "every-trade 1 10 finnhub")
if [ -n "${HOTPATH_VENUES:-}" ]; then workloads+=("default 1000 1 binance" "default 1000 1 binance-book"); fi
for workload in "${workloads[@]}"; do
  set -- $workload
  setup=$(( $(ir 40000 setup "$2" "$3" "$4") - $(ir 20000 setup "$2" "$3" "$4") ))
  run=$(( $(ir 40000 "$1" "$2" "$3" "$4") - $(ir 20000 "$1" "$2" "$3" "$4") ))
  trades=$([ "$3" = 1 ] || echo ", $3 trades a message")
  venue=$([ "$4" = finnhub ] || echo ", $4")
  echo "hotpath $1 ($2 symbol$([ "$2" = 1 ] || echo s)$trades$venue): $(( (run - setup) / 20000 )) instructions a message"
done
