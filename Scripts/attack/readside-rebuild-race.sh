#!/usr/bin/env bash
# The store deleted before each `tally apply` (so open rebuilds it: remove, create, replaceAll)
# while `tally balances` processes open the same file concurrently (a reader that finds an
# empty file creates the schema itself). Afterwards every store-served balances must equal the
# replay, and no run may crash or hang.
source "$(dirname "$0")/readside-common.sh"
echo "work: $WORK"
L=$WORK/ledger
"$TALLY" apply --ledger "$L" "$ROOT/Sources/TallyCLI/Demo/household.jsonl" > /dev/null || exit 2
for round in $(seq 1 ${ROUNDS:-25}); do
  rm -rf "$L/read-side"
  gen_tx $round 1 $((round * 101)) > "$WORK/tx.jsonl"
  timeout 30 "$TALLY" apply --ledger "$L" "$WORK/tx.jsonl" > /dev/null 2> "$WORK/apply.err" &
  apid=$!
  for r in 1 2 3 4; do
    timeout 30 "$TALLY" balances --ledger "$L" > "$WORK/r$r.out" 2> "$WORK/r$r.err" & eval "bp$r=\$!"
  done
  wait $apid; arc=$?
  for r in 1 2 3 4; do eval "wait \$bp$r"; rc=$?; [ $rc -ge 124 ] && fail "round $round: balances exit $rc"; done
  [ $arc -ne 0 ] && fail "round $round: apply exit $arc $(head -c 200 "$WORK/apply.err")"
  cp -a "$L" "$WORK/replay"; rm -rf "$WORK/replay/read-side"
  "$TALLY" balances --ledger "$WORK/replay" > "$WORK/replay.out"; rm -rf "$WORK/replay"
  "$TALLY" balances --ledger "$L" > "$WORK/store.out"
  cmp -s "$WORK/store.out" "$WORK/replay.out" || fail "round $round: store-served balances differ from the replay"
done
echo "findings: $FAILURES"
[ $FAILURES -eq 0 ]
