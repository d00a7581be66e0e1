#!/usr/bin/env bash
# `tally apply` (one command per run) concurrently with `tally balances` in a loop, then kill -9
# of a long `tally apply`: every balances output must be the replay's output after some prefix
# of the commands (never a mix of two states, never a state the journal does not hold), and
# after the kill the store-served balances must equal the replay.
source "$(dirname "$0")/readside-common.sh"
echo "work: $WORK"
N=${N:-40}
L=$WORK/ledger
"$TALLY" apply --ledger "$L" "$ROOT/Sources/TallyCLI/Demo/household.jsonl" > /dev/null || exit 2
for ((i = 1; i <= N; i++)); do gen_tx $i 1 $((i * 1013)) > "$WORK/tx$i.jsonl"; done
# The reference outputs after every prefix (from a copy, sequentially).
cp -a "$L" "$WORK/seq"
"$TALLY" balances --ledger "$WORK/seq" > "$WORK/ref.0"
for ((i = 1; i <= N; i++)); do
  "$TALLY" apply --ledger "$WORK/seq" "$WORK/tx$i.jsonl" > /dev/null
  "$TALLY" balances --ledger "$WORK/seq" > "$WORK/ref.$i"
done
( for ((i = 1; i <= N; i++)); do "$TALLY" apply --ledger "$L" "$WORK/tx$i.jsonl" > /dev/null; done; touch "$WORK/writer.done" ) &
reads=0; bad=0
while [ ! -e "$WORK/writer.done" ]; do
  out=$("$TALLY" balances --ledger "$L" 2>&1); rc=$?
  reads=$((reads + 1))
  match=0
  for ((i = 0; i <= N; i++)); do [ "$out" == "$(cat "$WORK/ref.$i")" ] && { match=1; break; }; done
  if [ $match -eq 0 ]; then bad=$((bad + 1)); echo "$out" > "$WORK/bad.$bad"; echo "read $reads (exit $rc) matches no prefix: $WORK/bad.$bad"; fi
done
wait
[ $bad -eq 0 ] && ok "$reads concurrent reads each matched a prefix" || fail "$bad of $reads concurrent reads matched no prefix"
cmp -s <("$TALLY" balances --ledger "$L") "$WORK/ref.$N" && ok "final balances = sequential" || fail "final balances differ"

# kill -9 of a long apply, several times.
for round in 1 2 3 4 5; do
  K=$WORK/kill$round; cp -a "$WORK/seq" "$K"
  gen_tx $((1000 + round * 200)) 150 37 > "$WORK/long.jsonl"
  "$TALLY" apply --ledger "$K" "$WORK/long.jsonl" > "$WORK/kill$round.out" 2>&1 &
  pid=$!
  sleep 0.$((RANDOM % 9 + 1)); kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
  acked=$(grep -c '"ok"' "$WORK/kill$round.out")
  "$TALLY" balances --ledger "$K" > "$WORK/kill$round.store" 2>&1
  cp -a "$K" "$K-replay"; rm -rf "$K-replay/read-side"
  "$TALLY" balances --ledger "$K-replay" > "$WORK/kill$round.replay" 2>&1
  last=$("$TALLY" log --ledger "$K-replay" 2>/dev/null | tail -1 | awk '{print $1}')
  if cmp -s "$WORK/kill$round.store" "$WORK/kill$round.replay"; then ok "kill round $round: store = replay (acked $acked, journal last $last)"; else fail "kill round $round: store balances differ from replay"; fi
  "$TALLY" apply --ledger "$K" "$WORK/tx1.jsonl" > /dev/null 2>&1  # reopen (catch up), duplicate id: rejected
  cmp -s <("$TALLY" balances --ledger "$K") "$WORK/kill$round.replay" && ok "kill round $round: after reopen store = replay" || fail "kill round $round: after reopen store differs"
done
echo "findings: $FAILURES"
[ $FAILURES -eq 0 ]
