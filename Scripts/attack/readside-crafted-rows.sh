#!/usr/bin/env bash
# Finding (c): store rows of the wrong SQLite type trap `tally balances`, `tally apply` and
# `tally rebuild` (GRDB's non-optional Row subscript fatalErrors), instead of the documented
# "damaged (SQLite refuses the file or a row) ... rebuilt".
#
# The store of an unencrypted ledger is sealed with a PUBLIC integrity key
# (LedgerStore.integrityKey), so anyone can open its pages, change a row and seal them again
# (readside_pages.py does it with python3-cryptography + sqlite3). SQLite columns without STRICT
# keep a TEXT value in an INTEGER column, and StoreRowReader / LedgerStore.coverage() read
# `let kindValue: Int = row["kind"]`, `let sequence: Int64 = row["sequence"]`,
# `isActive: row["is_active"]` with GRDB's trapping subscript.
#
# Observed on 7635abb: cases 1-3 (balances, rebuild, apply) die with SIGILL, e.g.
#   Fatal error: 'try!' expression unexpectedly raised an error: could not decode Int64 from
#   database value "abc" - column: "sequence" (LedgerStore.coverage, called by Ledger.open)
# so the ledger cannot be written or rebuilt until read-side/ is deleted by hand. Case 4
# (REAL 1.5) held. Case 5 (forged amount, re-sealed) is served: by design, the key is public.
#
# Usage: Scripts/attack/readside-crafted-rows.sh   (TALLY=path/to/tally to override)
source "$(dirname "$0")/readside-common.sh"
echo "work: $WORK"

make_ledger() {  # make_ledger DIR
  "$TALLY" apply --ledger "$1" "$ROOT/Sources/TallyCLI/Demo/household.jsonl" > /dev/null || { echo "setup failed"; exit 2; }
}

# craft DIR SQL: decrypt the store, run SQL with sqlite3 on the plaintext, seal it again.
craft() {
  local store=$1/read-side/read-side.sqlite plain=$WORK/plain.sqlite
  rm -f "$plain" "$plain-wal" "$plain-shm"
  $PAGES decrypt "$store" "$plain" || { echo "decrypt failed"; exit 2; }
  sqlite3 "$plain" "$2" || { echo "sqlite3 failed"; exit 2; }
  sqlite3 "$plain" "PRAGMA wal_checkpoint(TRUNCATE);" > /dev/null
  rm -f "$store-wal" "$store-shm"
  $PAGES encrypt "$plain" "$store"
}

run_case() {  # run_case NAME SQL COMMAND...
  local name=$1 sql=$2
  shift 2
  local dir=$WORK/$name
  make_ledger "$dir"
  craft "$dir" "$sql"
  "$@" --ledger "$dir" > "$WORK/$name.out" 2> "$WORK/$name.err" < /dev/null
  local rc=$?
  if [ $rc -ge 128 ]; then
    fail "$name: '$*' died with signal $((rc - 128)) after: $sql ($(grep -m1 -o 'Fatal error.*' "$WORK/$name.err" | head -c 200))"
  else
    ok "$name: '$*' exit $rc"
  fi
}

# 1. A text wallet kind: `tally balances` (store path, no lock) traps in StoreRowReader.walletBalance.
run_case kind-text "UPDATE wallet_balances SET kind = 'x';" "$TALLY" balances
# 2. A text is_active: traps decoding Bool.
run_case active-text "UPDATE wallet_balances SET is_active = 'yes';" "$TALLY" balances
# 3. A text coverage sequence: LedgerStore.coverage() traps. Ledger.open calls it, so every
#    writing command and `tally rebuild` (the documented remedy) trap too: the ledger cannot be
#    written until the user finds and deletes read-side/ by hand.
run_case coverage-text-balances "UPDATE coverage SET sequence = 'abc';" "$TALLY" balances
run_case coverage-text-rebuild "UPDATE coverage SET sequence = 'abc';" "$TALLY" rebuild
printf '' > "$WORK/empty.jsonl"
gen_tx 1 1 100 > "$WORK/one.jsonl"
run_case coverage-text-apply "UPDATE coverage SET sequence = 'abc';" "$TALLY" apply "$WORK/one.jsonl"
# 4. A REAL sequence (1.5): same trap (Int64(exactly:) fails).
run_case coverage-real "UPDATE coverage SET sequence = 1.5;" "$TALLY" balances

# 5. (informational, by design per Docs/Engine.md: the integrity key is public) a changed amount
#    with the coverage untouched is served as the balance.
dir=$WORK/forged-amount
make_ledger "$dir"
"$TALLY" balances --ledger "$dir" > "$WORK/forged-before.out"
craft "$dir" "UPDATE wallet_balances SET balance = balance + 100000000;"
"$TALLY" balances --ledger "$dir" > "$WORK/forged-after.out" 2>&1
if ! cmp -s "$WORK/forged-before.out" "$WORK/forged-after.out"; then
  echo "note (by design, public integrity key): a re-sealed forged amount is served by 'tally balances':"
  diff "$WORK/forged-before.out" "$WORK/forged-after.out" | head -6
fi

echo "findings: $FAILURES"
[ $FAILURES -eq 0 ]
