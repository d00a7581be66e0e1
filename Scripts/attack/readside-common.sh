# Shared helpers of the read-side attack scripts (sourced).
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TALLY=${TALLY:-$ROOT/.build/release/tally}
PAGES="python3 $ROOT/Scripts/attack/readside_pages.py"
WORK=${WORK:-$(mktemp -d /tmp/tally-readside-attack.XXXXXX)}
FAILURES=0

# gen_tx FIRST COUNT AMOUNT [WALLET]: COUNT recordTransaction lines (ids from FIRST), CHF AMOUNT each.
gen_tx() {
  local first=$1 count=$2 amount=$3 wallet=${4:-00000003-0000-4000-8000-000000000001} i n
  for ((i = 0; i < count; i++)); do
    n=$((first + i))
    printf '{"command": "recordTransaction", "commandID": "0000000c-0000-4000-8000-%012x", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-01T%02d:%02d:00.000Z", "transactionID": "00000005-0000-4000-8000-%012x", "kind": "expense", "amount": {"minorUnits": %d, "currency": "CHF"}, "walletID": "%s", "categoryID": "00000004-0000-4000-8000-000000000001", "date": "2026-03-01", "payer": "00000002-0000-4000-8000-000000000001", "shared": false}\n' \
      $((0x1000 + n)) $(((n / 60) % 24)) $((n % 60)) $((0x1000 + n)) "$amount" "$wallet"
  done
}

fail() { echo "FINDING: $*"; FAILURES=$((FAILURES + 1)); }
ok() { echo "held: $*"; }
